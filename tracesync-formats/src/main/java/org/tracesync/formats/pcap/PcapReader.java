package org.tracesync.formats.pcap;

import java.io.IOException;
import java.util.List;
import org.tracesync.formats.TraceFormatException;

/**
 * Classic libpcap files: 24-byte global header (magic a1b2c3d4 for µs or a1b23c4d for ns
 * timestamps, either byte order), then 16-byte record headers (seconds, µs/ns fraction, captured
 * length, original length) each followed by the packet bytes. Cost: O(1) work and no allocation
 * per record.
 */
final class PcapReader extends CaptureReader {

    static final int MAGIC_US = 0xa1b2c3d4;
    static final int MAGIC_NS = 0xa1b23c4d;

    private final boolean bigEndian;
    private final boolean nanos;
    private final CaptureInterface iface;
    private final long snap;
    /** One above the largest timestamp fraction: 10^9 (ns) or 10^6 (µs). */
    private final long fractionLimit;
    /** Nanoseconds per unit of the timestamp fraction: 1 or 1000. */
    private final long fractionNs;

    static boolean isMagic(int m) {
        return m == MAGIC_US || m == MAGIC_NS
                || m == Integer.reverseBytes(MAGIC_US) || m == Integer.reverseBytes(MAGIC_NS);
    }

    PcapReader(BlockInput in) throws IOException {
        super(in);
        if (!in.ensure(24)) {
            throw error(in.offset() + in.available(), "truncated pcap header: " + in.available()
                    + " of 24 bytes");
        }
        byte[] b = in.buffer();
        int p = in.position();
        int m = Bytes.i32be(b, p);
        bigEndian = m == MAGIC_US || m == MAGIC_NS;
        nanos = m == MAGIC_NS || m == Integer.reverseBytes(MAGIC_NS);
        fractionLimit = nanos ? 1_000_000_000L : 1_000_000L;
        fractionNs = nanos ? 1 : 1000;
        snap = Bytes.u32(b, p + 16, bigEndian);
        linkType = Bytes.i32(b, p + 20, bigEndian) & 0xffff;
        if (!LinkTypes.supported(linkType)) {
            throw error(20, "unknown link type " + linkType
                    + " (supported: Ethernet 1, raw IP 101/12/228/229, Linux SLL 113, SLL2 276, null 0)");
        }
        iface = new CaptureInterface(0, linkType, snap,
                nanos ? TimestampResolution.NANOSECONDS : TimestampResolution.MICROSECONDS,
                0, "", List.of(), List.of());
        in.skip(24);
    }

    /**
     * The record header is read as two 8-byte words (seconds and fraction, captured and original
     * length), each put in the order high field | low field whatever the file's byte order: a
     * little-endian file's word holds them swapped (a rotation), a big-endian one's byte-reversed.
     */
    @Override
    public boolean next() throws IOException {
        // two methods, each small enough for the JIT to inline into the merge loop (360 bytes of
        // bytecode together were compiled as a call per packet)
        return inPlace == null ? nextInBuffer() : nextFromWindow();
    }

    /**
     * {@link #next()} of a reader that reads in place ({@link #readsInPlace}). The matching cursor
     * calls it directly: the JIT then compiles its cursor's step with the in-place read alone
     * (through {@code next}, the heap readers of the address scan add the heap read to the
     * profile, and the step grew too big to be inlined into the merge loop).
     */
    boolean nextFromWindow() throws IOException {
        try {
            return nextInPlace();
        } catch (InternalError e) { // a load from a mapped page past the file's new end (see CaptureWindow)
            throw inPlaceFault(e);
        }
    }

    /** The error for {@code e}, a load by address that faulted while reading in place, or e itself when the window has no part in it. */
    private IOException inPlaceFault(InternalError e) throws IOException {
        noRecord();
        TraceFormatException f = fault(e, false);
        if (f == null) {
            throw e;
        }
        return f;
    }

    @Override
    TraceFormatException fault(InternalError fault, boolean changedOnly) throws IOException {
        if (inPlace == null) {
            return null;
        }
        windowAddress = 0;
        TraceFormatException changed = inPlace.changed(recordOffset);
        if (changed != null || changedOnly || inPlace.kind() != CaptureWindow.Kind.MAPPED) {
            return changed;
        }
        return inPlace.fault(recordOffset, fault);
    }

    /** {@link #next()} from the heap buffer. */
    private boolean nextInBuffer() throws IOException {
        long at = in.offset();
        if (at >= end) {
            return false;
        }
        if (!in.ensure(16)) {
            if (in.available() == 0) {
                return false;
            }
            throw truncatedHeader(at, in.available());
        }
        byte[] b = in.buffer();
        int p = in.position();
        recordOffset = at;
        int len = header(Bytes.i64le(b, p), Bytes.i64le(b, p + 8));
        if (!in.ensure(16 + len)) {
            throw truncatedRecord(len, in.available() - 16);
        }
        dataOffset = in.position() + 16; // after ensure, which may have moved the bytes
        capturedLength = len;
        in.skip(16 + len);
        return true;
    }

    /** Set by {@link #readInPlace}: the window records are decoded from, in place. */
    private CaptureWindow inPlace;
    /** In place: the file offset of the next record. */
    private long nextOffset;

    /**
     * From now on, records are read from {@code window} in place (no heap copy); {@link #data()}
     * copies a record only when asked. Called before the first record, as the header has been read.
     */
    void readInPlace(CaptureWindow window) {
        nextOffset = in.offset();
        inPlace = window;
        readsInPlace = true;
    }

    /**
     * {@link #next()} from the window: the same checks and errors, the record header read by
     * address as two little-endian words, as {@link #next()} reads them from the heap buffer.
     * {@link #windowAddress} keeps the last record's address while the window has not moved (so
     * it stays mapped) and is cleared on every way out without a record.
     */
    private boolean nextInPlace() throws IOException {
        long at = nextOffset;
        CaptureWindow w = inPlace;
        int p;
        if (at >= end || (p = w.require(at, 16)) < 0) {
            return endInPlace(at);
        }
        recordOffset = at;
        long a = w.address() + p; // 16 bytes available from here
        // little-endian loads, as Bytes.i64le
        int len = header(CaptureWindow.U.getLong(a), CaptureWindow.U.getLong(a + 8));
        // the record ends beyond the window: moves it
        if (p + 16 + len > w.held() && (p = w.require(at, 16 + len)) < 0) {
            noRecord();
            throw changedOr(truncatedRecord(len, w.available(at) - 16));
        }
        windowAddress = w.address() + p + 16; // after require, which may have moved the window
        capturedLength = len;
        nextOffset = at + 16 + len;
        return true;
    }

    /**
     * A record header from its two 8-byte words loaded little-endian (seconds and fraction, then
     * captured and original lengths, in the file's byte order): sets {@link #timestamp} and
     * {@link #originalLength} and returns the captured length. A captured length above
     * {@link #MAX_RECORD} or a fraction beyond the resolution is the file's error, and leaves no
     * current record. Shared by the heap and the in-place reads.
     */
    private int header(long time, long lengths) throws IOException {
        time = bigEndian ? Long.reverseBytes(time) : Long.rotateLeft(time, 32);
        lengths = bigEndian ? Long.reverseBytes(lengths) : Long.rotateLeft(lengths, 32);
        long incl = lengths >>> 32;
        long frac = time & 0xffffffffL;
        originalLength = lengths & 0xffffffffL;
        if (incl > MAX_RECORD || frac >= fractionLimit) {
            noRecord();
            throw changedOr(badHeader(incl, frac));
        }
        timestamp = (time >>> 32) * 1_000_000_000L + frac * fractionNs;
        return (int) incl;
    }

    /**
     * In place, no record at {@code at}: false at the end (of the file or the part), else the
     * error of a truncated header; either way, first the error of a file that changed during the
     * read (so every read in place ends with that check: what it returned was the file's).
     */
    private boolean endInPlace(long at) throws IOException {
        noRecord();
        TraceFormatException changed = inPlace.changed(at);
        if (changed != null) {
            throw changed;
        }
        long n = at >= end ? 0 : inPlace.available(at);
        if (n == 0) {
            return false;
        }
        throw truncatedHeader(at, n);
    }

    /**
     * {@code e}, an error of the record being read, or — when reading in place and the file
     * changed during the read — the error saying so: the bytes that looked wrong were then
     * probably not the file's.
     */
    private TraceFormatException changedOr(TraceFormatException e) throws IOException {
        TraceFormatException changed = inPlace == null ? null : inPlace.changed(recordOffset);
        return changed != null ? changed : e;
    }

    /** No current record (its window may be unmapped): false. */
    private boolean noRecord() {
        windowAddress = 0;
        return false;
    }

    @Override
    public void close() throws IOException {
        windowAddress = 0;
        if (inPlace != null) {
            inPlace.close();
        }
        super.close();
    }

    private TraceFormatException truncatedHeader(long at, long present) {
        return error(at, "truncated record header: " + present + " of 16 bytes");
    }

    /** The error for the current record ({@link #recordOffset}) announcing {@code len} bytes of which {@code present} are. */
    private TraceFormatException truncatedRecord(int len, long present) {
        return error(recordOffset, "truncated packet record: " + len + " bytes announced, " + present + " present");
    }

    /** The error for a record header whose captured length or fraction is out of range. */
    private TraceFormatException badHeader(long incl, long frac) {
        if (incl > MAX_RECORD) {
            return error(recordOffset, "implausible captured length " + incl + " (corrupt record header?)");
        }
        return error(recordOffset + 4, "timestamp fraction " + frac + " out of range");
    }

    /** Largest original length a plausible record announces (TSO/GRO segments stay below). */
    private static final long MAX_ORIGINAL = 1 << 18;

    @Override
    int resyncAlignment() {
        return 1;
    }

    @Override
    int resyncHeaderBytes() {
        return 16;
    }

    /**
     * A plausible record header: fraction in range, captured length at most the snap length (or
     * {@link #MAX_RECORD} when the header says 0) and at most the original length, which stays
     * below 256 KiB, and seconds within a day before and 400 days after {@code referenceSeconds}.
     */
    @Override
    long plausibleHeader(byte[] b, int p, long referenceSeconds) {
        long sec = Bytes.u32(b, p, bigEndian);
        long frac = Bytes.u32(b, p + 4, bigEndian);
        long incl = Bytes.u32(b, p + 8, bigEndian);
        long orig = Bytes.u32(b, p + 12, bigEndian);
        if (frac >= (nanos ? 1_000_000_000L : 1_000_000L) || incl > orig || orig > MAX_ORIGINAL
                || incl > (snap == 0 ? MAX_RECORD : Math.min(snap, MAX_RECORD))) {
            return -1;
        }
        if (sec < referenceSeconds - 86_400 || sec > referenceSeconds + 400 * 86_400L) {
            return -1;
        }
        return 16 + incl;
    }

    @Override
    boolean plausibleWhole(byte[] b, int p, int length) {
        return true;
    }

    @Override
    long referenceSeconds(byte[] b, int p) {
        return Bytes.u32(b, p, bigEndian);
    }

    @Override
    public List<CaptureInterface> interfaces() {
        return List.of(iface);
    }

    @Override
    public List<String> warnings() {
        return List.of();
    }
}
