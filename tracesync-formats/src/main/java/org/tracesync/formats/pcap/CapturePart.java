package org.tracesync.formats.pcap;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;

/**
 * One byte range [start, end) of a capture file, read on its own (a task of a distributed job):
 * the records or blocks whose first byte lies in the range, whatever the neighbouring ranges do.
 * Every record of the file belongs to exactly one range of a partition of [0, size).
 *
 * <p><b>Finding the first record.</b> Records carry no synchronization marker, so the reader
 * re-synchronizes as Hadoop's pcap readers do: from {@code start}, the first offset (pcapng: a
 * multiple of 4) where {@value #CHAIN} consecutive plausible headers follow each other, or fewer
 * ending exactly at the end of the file. Plausible: a pcap record header whose fraction, captured
 * and original lengths fit the file header and whose seconds lie near the first record's; a
 * pcapng block of a known type whose leading and trailing lengths agree (a packet block also names
 * a known interface). The file header (and, for pcapng, every block before the first packet:
 * section header, interfaces) is read from offset 0 by every part; a range that starts inside it
 * starts right after it, without guessing.
 *
 * <p><b>Exactness.</b> A heuristic may be fooled by packet bytes that look like a chain of headers.
 * Whether it was is checked afterwards: the walk of range i, which starts from a true boundary,
 * stops at the first true record at or after its end ({@link #stopOffset()}); range i + 1 started
 * from a true boundary exactly when its {@link #firstRecord()} equals that offset. Over a whole
 * file, "every part's first record is its predecessor's stop" proves every record was read once
 * (by induction from the first part, which starts after the header); otherwise the caller reads
 * the file again in one part. The same goes for a pcapng section or interface block met after
 * the leading ones ({@link #lateHeaderBlocks()}): parts after it decoded with the wrong
 * interfaces, so a file where any part but the last has one is read again in one part.
 *
 * <p>Cost: the scan for the first record reads from {@code start} until a chain is found
 * (normally a few records); then O(1) per record as {@link CaptureReader}.
 */
public final class CapturePart implements Closeable {

    /** Consecutive plausible headers required to accept a boundary. */
    static final int CHAIN = 8;

    private final CaptureReader reader;
    private final long firstRecord;
    private final boolean resynchronized;

    private CapturePart(CaptureReader reader, long firstRecord, boolean resynchronized) {
        this.reader = reader;
        this.firstRecord = firstRecord;
        this.resynchronized = resynchronized;
    }

    /**
     * Opens the range [start, end) of the capture read through {@code channel} (positioned at 0;
     * closed with the part); {@code name} is the file named in error messages.
     */
    public static CapturePart open(Path name, SeekableByteChannel channel, long start, long end) throws IOException {
        return open(name, channel, start, end, false);
    }

    /**
     * As {@link #open(Path, SeekableByteChannel, long, long)}; with {@code boundary} true,
     * {@code start} is known to be a record boundary (found by an earlier pass and checked): the
     * part starts there without re-synchronizing.
     */
    public static CapturePart open(Path name, SeekableByteChannel channel, long start, long end, boolean boundary)
            throws IOException {
        CaptureReader r = CaptureReader.open(name, channel);
        try {
            r.readLeadingBlocks();
            BlockInput in = r.in;
            long headerEnd = in.offset();
            long first;
            start = Math.min(start, in.size());
            boolean resync = start > headerEnd && !boundary;
            if (start <= headerEnd) {
                first = headerEnd;
            } else if (boundary) {
                first = start;
                in.seek(start);
            } else {
                long reference = 0;
                if (in.ensure(r.resyncHeaderBytes())) {
                    reference = r.referenceSeconds(in.buffer(), in.position());
                }
                first = resynchronize(r, start, reference);
                in.seek(first);
            }
            r.end = end;
            return new CapturePart(r, first, resync);
        } catch (IOException | RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /** The first offset at or after {@code start} that begins a chain of plausible headers. */
    private static long resynchronize(CaptureReader r, long start, long reference) throws IOException {
        BlockInput in = r.in;
        int align = r.resyncAlignment();
        long c = (start + align - 1) / align * align;
        in.seek(c);
        while (true) {
            int header = r.resyncHeaderBytes();
            if (!in.ensure(header)) {
                return in.offset() + in.available(); // no complete record after start: the end of the file
            }
            if (chainAt(r, reference)) {
                return in.offset();
            }
            if (!in.ensure(align)) {
                return in.offset() + in.available();
            }
            in.skip(align);
        }
    }

    /**
     * True when {@value #CHAIN} plausible records follow each other from the current position,
     * or fewer that end exactly at the end of the file. Leaves the position unchanged.
     */
    private static boolean chainAt(CaptureReader r, long reference) throws IOException {
        BlockInput in = r.in;
        int header = r.resyncHeaderBytes();
        long rel = 0;
        for (int k = 0; k < CHAIN; k++) {
            if (!in.ensure((int) rel + header)) {
                return in.available() == rel; // the chain ends exactly at the end of the file
            }
            long len = r.plausibleHeader(in.buffer(), in.position() + (int) rel, reference);
            if (len < 0 || rel + len > Integer.MAX_VALUE - header) {
                return false;
            }
            if (!in.ensure((int) (rel + len))) {
                return false;
            }
            if (!r.plausibleWhole(in.buffer(), in.position() + (int) rel, (int) len)) {
                return false;
            }
            rel += len;
        }
        return true;
    }

    /** The part's records: {@link CaptureReader#next()} stops at the first record at or after the end. */
    public CaptureReader reader() {
        return reader;
    }

    /** Offset of the part's first record (the end of the file when it has none). */
    public long firstRecord() {
        return firstRecord;
    }

    /** True when the first record was found by re-synchronization (not right after the file header). */
    public boolean resynchronized() {
        return resynchronized;
    }

    /**
     * Once {@link CaptureReader#next()} has returned false: the offset where the walk stopped — the
     * first record or block at or after the part's end, or the end of the file.
     */
    public long stopOffset() {
        return reader.in.offset();
    }

    /** pcapng section or interface blocks met inside this part (after the file's leading ones). */
    public long lateHeaderBlocks() {
        return reader.lateHeaderBlocks();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
