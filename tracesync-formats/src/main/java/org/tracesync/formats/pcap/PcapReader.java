package org.tracesync.formats.pcap;

import java.io.IOException;
import java.util.List;

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

    @Override
    public boolean next() throws IOException {
        if (in.offset() >= end) {
            return false;
        }
        if (!in.ensure(16)) {
            if (in.available() == 0) {
                return false;
            }
            throw error(in.offset(), "truncated record header: " + in.available() + " of 16 bytes");
        }
        byte[] b = in.buffer();
        int p = in.position();
        recordOffset = in.offset();
        long sec = Bytes.u32(b, p, bigEndian);
        long frac = Bytes.u32(b, p + 4, bigEndian);
        long incl = Bytes.u32(b, p + 8, bigEndian);
        originalLength = Bytes.u32(b, p + 12, bigEndian);
        if (incl > MAX_RECORD) {
            throw error(recordOffset, "implausible captured length " + incl + " (corrupt record header?)");
        }
        if (frac >= (nanos ? 1_000_000_000L : 1_000_000L)) {
            throw error(recordOffset + 4, "timestamp fraction " + frac + " out of range");
        }
        timestamp = sec * 1_000_000_000L + (nanos ? frac : frac * 1000);
        int len = (int) incl;
        if (!in.ensure(16 + len)) {
            throw error(recordOffset, "truncated packet record: " + len + " bytes announced, "
                    + (in.available() - 16) + " present");
        }
        dataOffset = in.position() + 16;
        capturedLength = len;
        in.skip(16 + len);
        return true;
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
