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
        long snap = Bytes.u32(b, p + 16, bigEndian);
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

    @Override
    public List<CaptureInterface> interfaces() {
        return List.of(iface);
    }

    @Override
    public List<String> warnings() {
        return List.of();
    }
}
