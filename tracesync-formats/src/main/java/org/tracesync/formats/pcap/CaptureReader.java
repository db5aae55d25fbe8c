package org.tracesync.formats.pcap;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.tracesync.formats.TraceFormatException;

/**
 * Pull reader of the packet records of one capture file (pcap or pcapng), streaming: one
 * reusable buffer, no object per packet. After {@link #next()} returns true, the accessors
 * describe the current record; its bytes are {@code data()[dataOffset() .. dataOffset() +
 * capturedLength())}, valid until the next call.
 *
 * <p>Every malformed input (bad magic, truncated record or block, inconsistent block length,
 * unknown link type) raises a {@link TraceFormatException} naming the file and the byte offset.
 */
public abstract class CaptureReader implements Closeable {

    /** Records larger than this are treated as corruption rather than allocated. */
    static final int MAX_RECORD = 64 << 20;

    final BlockInput in;
    long timestamp;
    int interfaceId;
    int interfaceIndex;
    int linkType;
    int dataOffset;
    int capturedLength;
    long originalLength;
    long recordOffset;
    /** No record or block starting at or after this file offset is read (a part's end). */
    long end = Long.MAX_VALUE;

    CaptureReader(BlockInput in) {
        this.in = in;
    }

    /** Opens {@code file}, choosing pcap or pcapng by its magic number. */
    public static CaptureReader open(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such capture file");
        }
        return open(new BlockInput(file));
    }

    /**
     * Opens a capture read from {@code channel} (at its current position, normally 0), choosing
     * pcap or pcapng by its magic number; {@code name} is the file named in error messages. The
     * reader closes the channel.
     */
    public static CaptureReader open(Path name, java.nio.channels.SeekableByteChannel channel) throws IOException {
        return open(new BlockInput(name, channel));
    }

    /**
     * Opens {@code file} for the matching cursor: a classic pcap file is then decoded in place
     * from a {@link CaptureWindow} of the {@linkplain CaptureWindow#configured() configured kind}
     * (mapped by default) instead of heap buffers; a pcapng file, or a file whose first window
     * cannot be mapped or read, as {@link #open(Path)}.
     */
    static CaptureReader openInPlace(Path file) throws IOException {
        CaptureWindow.Kind kind = CaptureWindow.configured();
        return openInPlace(file, kind, CaptureWindow.configuredSize(kind));
    }

    /** As {@link #openInPlace(Path)} with windows of {@code kind} and {@code size} bytes (tests, benchmarks). */
    static CaptureReader openInPlace(Path file, CaptureWindow.Kind kind, int size) throws IOException {
        CaptureReader r = open(file);
        if (r instanceof PcapReader p && kind != CaptureWindow.Kind.HEAP && r.in.fileChannel() != null) {
            CaptureWindow w = null;
            try {
                w = new CaptureWindow(file, r.in.fileChannel(), kind, size);
                w.require(r.in.offset(), 0); // the first window: a file system that cannot map it keeps the heap buffers
                p.readInPlace(w);
            } catch (IOException e) {
                if (w != null) {
                    w.close();
                }
            } catch (RuntimeException e) {
                if (w != null) {
                    w.close();
                }
                r.close();
                throw e;
            }
        }
        return r;
    }

    private static CaptureReader open(BlockInput in) throws IOException {
        Path file = in.file();
        try {
            if (!in.ensure(4)) {
                throw TraceFormatException.atOffset(file, 0, "file too short for a capture header ("
                        + in.available() + " bytes)");
            }
            int magicBe = Bytes.i32be(in.buffer(), in.position());
            if (magicBe == PcapngReader.BLOCK_SHB) {
                return new PcapngReader(in);
            }
            if (PcapReader.isMagic(magicBe)) {
                return new PcapReader(in);
            }
            throw TraceFormatException.atOffset(file, 0, String.format(
                    "bad magic 0x%08x: not a pcap (a1b2c3d4/a1b23c4d) or pcapng (0a0d0d0a) file", magicBe));
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /** True if {@code file} starts with a pcap or pcapng magic number. */
    public static boolean isCapture(Path file) {
        try (var ch = java.nio.channels.FileChannel.open(file)) {
            var b = java.nio.ByteBuffer.allocate(4);
            if (ch.read(b) < 4) {
                return false;
            }
            int m = b.getInt(0);
            return m == PcapngReader.BLOCK_SHB || PcapReader.isMagic(m);
        } catch (IOException e) {
            return false;
        }
    }

    // --- resynchronization on record boundaries, for reading a byte range (CapturePart) ---

    /** Record or block starts are multiples of this offset. */
    abstract int resyncAlignment();

    /** Bytes {@link #plausibleHeader} looks at. */
    abstract int resyncHeaderBytes();

    /**
     * If a plausible record or block header starts at {@code b[p]} (at least
     * {@link #resyncHeaderBytes()} bytes available), its total length; otherwise -1.
     */
    abstract long plausibleHeader(byte[] b, int p, long referenceSeconds);

    /** Checks of the whole record or block ({@code length} bytes available at {@code b[p]}). */
    abstract boolean plausibleWhole(byte[] b, int p, int length);

    /** The time reference of the record whose header is at {@code b[p]} (pcap: its seconds). */
    abstract long referenceSeconds(byte[] b, int p);

    /** Reads the blocks before the first packet (pcapng interfaces); nothing for pcap. */
    void readLeadingBlocks() throws IOException {
    }

    /** Section or interface blocks met after the leading ones (they change how later parts decode). */
    long lateHeaderBlocks() {
        return 0;
    }

    /** Advances to the next packet record that has a timestamp; false at the end of the file. */
    public abstract boolean next() throws IOException;

    /** Interfaces known so far (pcap: the one implicit interface). */
    public abstract List<CaptureInterface> interfaces();

    /** Human-readable notes (skipped blocks, ...). */
    public abstract List<String> warnings();

    public Path file() {
        return in.file();
    }

    /** Timestamp of the current record, int64 ns since the epoch. */
    public long timestamp() {
        return timestamp;
    }

    public int interfaceId() {
        return interfaceId;
    }

    /** Index of the current packet's interface in {@link #interfaces()} (all sections). */
    public int interfaceIndex() {
        return interfaceIndex;
    }

    public int linkType() {
        return linkType;
    }

    /**
     * The current record's bytes. A reader decoding in place from a {@link CaptureWindow} copies
     * them here first (once per record, at index 0): only packets that the matching cursor's fast
     * path does not take ask for them.
     */
    public byte[] data() {
        return readsInPlace ? copied() : in.buffer();
    }

    public int dataOffset() {
        return readsInPlace ? 0 : dataOffset;
    }

    /** Whether records are read in place from a {@link CaptureWindow} (then {@link #windowAddress}). */
    boolean readsInPlace;
    /**
     * In place: the address of the current record's first byte ({@link CaptureWindow#address()}),
     * {@link #capturedLength()} bytes readable from it until the next {@link #next()}; 0 when
     * there is no current record.
     */
    long windowAddress;
    /** In place: the record {@link #copy} holds (its file offset), -1 for none. */
    private long copied = -1;
    private byte[] copy = new byte[0];

    private byte[] copied() {
        if (copied != recordOffset) {
            if (windowAddress == 0) {
                throw new IllegalStateException("no current record");
            }
            if (copy.length < capturedLength) {
                copy = new byte[Math.max(capturedLength, 2048)];
            }
            CaptureWindow.U.copyMemory(null, windowAddress, copy, sun.misc.Unsafe.ARRAY_BYTE_BASE_OFFSET, capturedLength);
            copied = recordOffset;
        }
        return copy;
    }

    public int capturedLength() {
        return capturedLength;
    }

    public long originalLength() {
        return originalLength;
    }

    /** File offset of the current record's header. */
    public long recordOffset() {
        return recordOffset;
    }

    /**
     * The error to raise instead of {@code fault}, an InternalError of the JVM for a load by
     * address that faulted (a mapped file cut during the read), when this reader reads a mapped
     * window: it names the file and the record being read. Null for a reader that maps nothing
     * (then the fault is not its own). {@code changedOnly}: only when the file's size changed.
     */
    TraceFormatException fault(InternalError fault, boolean changedOnly) throws IOException {
        return null;
    }

    /**
     * The error {@code message} at {@code offset}, or — when the file changed size since it was
     * opened — the error saying so: what looked wrong was then probably the change.
     */
    TraceFormatException error(long offset, String message) {
        TraceFormatException changed = in.changed(offset);
        return changed != null ? changed : TraceFormatException.atOffset(in.file(), offset, message);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
