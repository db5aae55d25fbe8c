package org.tracesync.formats.pcap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * pcapng files (draft-ietf-opsawg-pcapng): Section Header Blocks (either byte order, several
 * sections per file), Interface Description Blocks (link type, {@code if_tsresol},
 * {@code if_tsoffset}, {@code if_name}, {@code if_IPv4addr}, {@code if_IPv6addr}), Enhanced
 * Packet Blocks and the obsolete Packet Block. Simple Packet Blocks carry no timestamp: they are
 * skipped and counted (a packet without a time cannot be synchronized). Other blocks (name
 * resolution, statistics, decryption secrets, custom) are skipped.
 *
 * <p>Every block's leading and trailing lengths are checked; cost O(1) and no allocation per
 * packet block.
 */
final class PcapngReader extends CaptureReader {

    static final int BLOCK_SHB = 0x0a0d0d0a;
    static final int BLOCK_IDB = 1;
    static final int BLOCK_PB = 2;
    static final int BLOCK_SPB = 3;
    static final int BLOCK_EPB = 6;
    static final int BOM = 0x1a2b3c4d;

    private boolean bigEndian;
    private final List<CaptureInterface> all = new ArrayList<>();
    /** Interfaces of the current section, indexed by interface id. */
    private final List<CaptureInterface> section = new ArrayList<>();
    private TimestampResolution[] resolution = new TimestampResolution[4];
    private long[] offsetNs = new long[4];
    private int[] links = new int[4];
    private long simplePackets;
    private long skippedBlocks;
    private int sections;
    private int sectionBase;
    private boolean leadingRead;
    private long lateHeaderBlocks;

    PcapngReader(BlockInput in) throws IOException {
        super(in);
        readSectionHeader();
    }

    private void readSectionHeader() throws IOException {
        long start = in.offset();
        if (!in.ensure(12)) {
            throw error(start, "truncated section header block: " + in.available() + " of at least 28 bytes");
        }
        byte[] b = in.buffer();
        int p = in.position();
        int bom = Bytes.i32be(b, p + 8);
        if (bom == BOM) {
            bigEndian = true;
        } else if (bom == Integer.reverseBytes(BOM)) {
            bigEndian = false;
        } else {
            throw error(start + 8, String.format("bad byte-order magic 0x%08x in section header", bom));
        }
        int len = blockLength(start, 28);
        p = in.position();
        b = in.buffer();
        int major = Bytes.u16(b, p + 12, bigEndian);
        if (major != 1) {
            throw error(start + 12, "unsupported pcapng major version " + major);
        }
        section.clear();
        sectionBase = all.size();
        sections++;
        in.skip(len);
    }

    /**
     * Reads and checks the current block's total length (at least {@code minimum}, a multiple of
     * 4, equal to the trailing copy) and makes the whole block available.
     */
    private int blockLength(long start, int minimum) throws IOException {
        if (!in.ensure(8)) {
            throw error(start, "truncated block header: " + in.available() + " of 8 bytes");
        }
        long len = Bytes.u32(in.buffer(), in.position() + 4, bigEndian);
        if (len < minimum || len % 4 != 0 || len > MAX_RECORD) {
            throw error(start + 4, "wrong block length " + len + " (expected a multiple of 4, at least "
                    + minimum + ")");
        }
        int n = (int) len;
        if (!in.ensure(n)) {
            throw error(start, "truncated block: " + n + " bytes announced, " + in.available() + " present");
        }
        long trailer = Bytes.u32(in.buffer(), in.position() + n - 4, bigEndian);
        if (trailer != len) {
            throw error(start + n - 4, "wrong block length: trailing length " + trailer
                    + " differs from leading length " + len);
        }
        return n;
    }

    @Override
    public boolean next() throws IOException {
        while (true) {
            if (in.offset() >= end) {
                return false;
            }
            if (!in.ensure(8)) {
                if (in.available() == 0) {
                    return false;
                }
                throw error(in.offset(), "truncated block header: " + in.available() + " of 8 bytes");
            }
            long start = in.offset();
            int type = Bytes.i32(in.buffer(), in.position(), bigEndian);
            if (type == BLOCK_SHB) {
                if (leadingRead) {
                    lateHeaderBlocks++;
                }
                readSectionHeader();
                continue;
            }
            if (type == BLOCK_IDB && leadingRead) {
                lateHeaderBlocks++;
            }
            switch (type) {
                case BLOCK_EPB, BLOCK_PB -> {
                    readPacketBlock(start, type == BLOCK_PB);
                    return true;
                }
                case BLOCK_IDB -> {
                    int len = blockLength(start, 20);
                    readInterface(start, len);
                    in.skip(len);
                }
                case BLOCK_SPB -> {
                    int len = blockLength(start, 16);
                    simplePackets++;
                    in.skip(len);
                }
                default -> {
                    int len = blockLength(start, 12);
                    skippedBlocks++;
                    in.skip(len);
                }
            }
        }
    }

    private int interfaceOf(long start, int id) throws IOException {
        if (id < 0 || id >= section.size()) {
            throw error(start + 8, "packet refers to interface " + id + " but the section defines "
                    + section.size());
        }
        return id;
    }

    private void setPacket(long start, int id, long ticks, int data, int cap, long orig) throws IOException {
        recordOffset = start;
        interfaceId = id;
        interfaceIndex = sectionBase + id;
        linkType = links[id];
        try {
            timestamp = Math.addExact(resolution[id].toNanos(ticks), offsetNs[id]);
        } catch (ArithmeticException e) {
            throw error(start + 12, "timestamp " + Long.toUnsignedString(ticks) + " overflows int64 ns");
        }
        dataOffset = data;
        capturedLength = cap;
        originalLength = orig;
    }

    private void readInterface(long start, int len) throws IOException {
        byte[] b = in.buffer();
        int p = in.position();
        int link = Bytes.u16(b, p + 8, bigEndian);
        if (!LinkTypes.supported(link)) {
            throw error(start + 8, "unknown link type " + link
                    + " (supported: Ethernet 1, raw IP 101/12/228/229, Linux SLL 113, SLL2 276, null 0)");
        }
        long snap = Bytes.u32(b, p + 12, bigEndian);
        TimestampResolution res = TimestampResolution.MICROSECONDS;
        long tsOffset = 0;
        String name = "";
        List<String> addrs = new ArrayList<>();
        List<Long> bcasts = new ArrayList<>();
        int o = p + 16;
        int end = p + len - 4;
        while (o + 4 <= end) {
            int code = Bytes.u16(b, o, bigEndian);
            int olen = Bytes.u16(b, o + 2, bigEndian);
            int v = o + 4;
            if (code == 0) {
                break;
            }
            if (v + olen > end) {
                throw error(start + (o - p), "interface option " + code + " of length " + olen
                        + " runs past the block end");
            }
            switch (code) {
                case 2 -> name = new String(b, v, olen, java.nio.charset.StandardCharsets.UTF_8);
                case 4 -> {
                    if (olen >= 8) {
                        addrs.add(address(b, v, 4));
                        long a = Bytes.u32be(b, v);
                        long mask = Bytes.u32be(b, v + 4);
                        if (mask != 0 && mask != 0xffffffffL) {
                            bcasts.add((a | ~mask) & 0xffffffffL);
                        }
                    }
                }
                case 5 -> {
                    if (olen >= 16) {
                        addrs.add(address(b, v, 16));
                    }
                }
                case 9 -> {
                    if (olen >= 1) {
                        res = TimestampResolution.fromOption(b[v] & 0xff);
                        if (res == null) {
                            throw error(start + (v - p), "unsupported if_tsresol 0x"
                                    + Integer.toHexString(b[v] & 0xff));
                        }
                    }
                }
                case 14 -> {
                    if (olen >= 8) {
                        tsOffset = bigEndian ? Bytes.i64be(b, v)
                                : Long.reverseBytes(Bytes.i64be(b, v));
                    }
                }
                default -> {
                }
            }
            o = v + ((olen + 3) & ~3);
        }
        int id = section.size();
        CaptureInterface ci = new CaptureInterface(id, link, snap, res, tsOffset, name, addrs, bcasts);
        section.add(ci);
        all.add(ci);
        if (id >= links.length) {
            links = Arrays.copyOf(links, id * 2);
            resolution = Arrays.copyOf(resolution, id * 2);
            offsetNs = Arrays.copyOf(offsetNs, id * 2);
        }
        links[id] = link;
        resolution[id] = res;
        try {
            offsetNs[id] = Math.multiplyExact(tsOffset, 1_000_000_000L);
        } catch (ArithmeticException e) {
            throw error(start, "if_tsoffset " + tsOffset + " s overflows int64 ns");
        }
    }

    private static String address(byte[] b, int v, int n) {
        try {
            return InetAddress.getByAddress(Arrays.copyOfRange(b, v, v + n)).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    void readLeadingBlocks() throws IOException {
        while (in.ensure(8)) {
            int type = Bytes.i32(in.buffer(), in.position(), bigEndian);
            long start = in.offset();
            if (type == BLOCK_EPB || type == BLOCK_PB || type == BLOCK_SPB) {
                break;
            }
            if (type == BLOCK_SHB) {
                readSectionHeader();
            } else {
                int len = blockLength(start, type == BLOCK_IDB ? 20 : 12);
                if (type == BLOCK_IDB) {
                    readInterface(start, len);
                }
                in.skip(len);
            }
        }
        leadingRead = true;
    }

    @Override
    long lateHeaderBlocks() {
        return lateHeaderBlocks;
    }

    @Override
    int resyncAlignment() {
        return 4;
    }

    @Override
    int resyncHeaderBytes() {
        return 12;
    }

    /**
     * A plausible block header: a block type this reader knows (or a custom block), and a total
     * length that is a multiple of 4, at least that type's minimum and at most {@link #MAX_RECORD}.
     */
    @Override
    long plausibleHeader(byte[] b, int p, long referenceSeconds) {
        int type = Bytes.i32(b, p, bigEndian);
        long len = Bytes.u32(b, p + 4, bigEndian);
        if (type == BLOCK_SHB) { // a new section may have the other byte order
            int bom = Bytes.i32be(b, p + 8);
            if (bom != BOM && bom != Integer.reverseBytes(BOM)) {
                return -1;
            }
            len = Bytes.u32(b, p + 4, bom == BOM);
        }
        int minimum = switch (type) {
            case BLOCK_EPB, BLOCK_PB -> 32;
            case BLOCK_SHB -> 28;
            case BLOCK_IDB -> 20;
            case BLOCK_SPB -> 16;
            case 4, 5, 9, 10, 0xbad, 0x40000bad -> 12;
            default -> -1;
        };
        if (minimum < 0 || len < minimum || len % 4 != 0 || len > MAX_RECORD) {
            return -1;
        }
        return len;
    }

    /** The trailing length repeats the leading one; a packet block names a known interface. */
    @Override
    boolean plausibleWhole(byte[] b, int p, int length) {
        int type = Bytes.i32(b, p, bigEndian);
        if (type == BLOCK_SHB) {
            int bom = Bytes.i32be(b, p + 8);
            boolean be = bom == BOM;
            if (!be && bom != Integer.reverseBytes(BOM)) {
                return false;
            }
            return Bytes.u32(b, p + 4, be) == length && Bytes.u32(b, p + length - 4, be) == length;
        }
        if (Bytes.u32(b, p + length - 4, bigEndian) != length) {
            return false;
        }
        if (type == BLOCK_EPB || type == BLOCK_PB) {
            int id = type == BLOCK_PB ? Bytes.u16(b, p + 8, bigEndian) : Bytes.i32(b, p + 8, bigEndian);
            long cap = Bytes.u32(b, p + 20, bigEndian);
            return id >= 0 && id < section.size() && cap <= length - 32;
        }
        return true;
    }

    @Override
    long referenceSeconds(byte[] b, int p) {
        return 0;
    }

    @Override
    public List<CaptureInterface> interfaces() {
        return List.copyOf(all);
    }

    @Override
    public List<String> warnings() {
        List<String> w = new ArrayList<>();
        if (simplePackets > 0) {
            w.add(in.file() + ": " + simplePackets
                    + " simple packet blocks skipped (they carry no timestamp)");
        }
        return w;
    }

    /**
     * Enhanced packet block, or the obsolete packet block (whose interface id is 16 bits, followed
     * by a drops count): the same layout otherwise.
     */
    private void readPacketBlock(long start, boolean obsolete) throws IOException {
        int len = blockLength(start, 32);
        byte[] b = in.buffer();
        int p = in.position();
        int id = interfaceOf(start, obsolete ? Bytes.u16(b, p + 8, bigEndian) : Bytes.i32(b, p + 8, bigEndian));
        long ticks = Bytes.u32(b, p + 12, bigEndian) << 32 | Bytes.u32(b, p + 16, bigEndian);
        long cap = Bytes.u32(b, p + 20, bigEndian);
        if (cap > len - 32) {
            throw error(start + 20, "captured length " + cap + " exceeds block length " + len);
        }
        setPacket(start, id, ticks, p + 28, (int) cap, Bytes.u32(b, p + 24, bigEndian));
        in.skip(len);
    }
}
