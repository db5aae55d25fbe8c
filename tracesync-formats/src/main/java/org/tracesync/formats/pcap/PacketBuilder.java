package org.tracesync.formats.pcap;

/**
 * Builds synthetic TCP/UDP frames for tests, simulations and benchmarks: a link header
 * (Ethernet with optional VLAN tags, Linux SLL, SLL2, raw IP), an IPv4 or IPv6 header, a TCP or
 * UDP header and a zero payload, truncated to a snap length. {@link #length()} gives the
 * original (untruncated) length.
 */
public final class PacketBuilder {

    private int linkType = LinkTypes.ETHERNET;
    private int vlanTags;
    private byte[] src = {10, 0, 0, 1};
    private byte[] dst = {10, 0, 0, 2};
    private int srcPort = 1;
    private int dstPort = 2;
    private long seq;
    private long ack;
    private int flags = 0x10;
    private int payload;
    private boolean udp;
    private int ipId;
    private int snap = 65535;
    private byte payloadByte;
    private int length;

    public PacketBuilder link(int type, int vlans) {
        this.linkType = type;
        this.vlanTags = vlans;
        return this;
    }

    /** 4-byte or 16-byte addresses. */
    public PacketBuilder addresses(byte[] source, byte[] destination) {
        if (source.length != destination.length) {
            throw new IllegalArgumentException("mixed address families");
        }
        this.src = source.clone();
        this.dst = destination.clone();
        return this;
    }

    public PacketBuilder tcp(int sport, int dport, long sequence, long acknowledgement, int tcpFlags, int payloadLength) {
        this.udp = false;
        this.srcPort = sport;
        this.dstPort = dport;
        this.seq = sequence;
        this.ack = acknowledgement;
        this.flags = tcpFlags;
        this.payload = payloadLength;
        return this;
    }

    public PacketBuilder udp(int sport, int dport, int payloadLength, byte fill) {
        this.udp = true;
        this.srcPort = sport;
        this.dstPort = dport;
        this.payload = payloadLength;
        this.payloadByte = fill;
        return this;
    }

    public PacketBuilder ipId(int id) {
        this.ipId = id;
        return this;
    }

    public PacketBuilder snapLength(int n) {
        this.snap = n;
        return this;
    }

    /** Original length of the last frame built. */
    public int length() {
        return length;
    }

    /** Builds the frame into {@code out} (large enough); returns the captured length. */
    public int build(byte[] out) {
        int p = 0;
        boolean v6 = src.length == 16;
        int etherType = v6 ? 0x86dd : 0x0800;
        switch (linkType) {
            case LinkTypes.ETHERNET -> {
                for (int i = 0; i < 6; i++) {
                    out[i] = (byte) (0x02 + i);
                    out[6 + i] = (byte) (0x12 + i);
                }
                p = 12;
                for (int v = 0; v < vlanTags; v++) {
                    Bytes.put16(out, p, v == 0 && vlanTags > 1 ? 0x88a8 : 0x8100, true);
                    Bytes.put16(out, p + 2, 100 + v, true);
                    p += 4;
                }
                Bytes.put16(out, p, etherType, true);
                p += 2;
            }
            case LinkTypes.LINUX_SLL -> {
                Bytes.put16(out, 0, 0, true);
                Bytes.put16(out, 2, 1, true);
                Bytes.put16(out, 4, 6, true);
                for (int i = 0; i < 8; i++) {
                    out[6 + i] = (byte) (i < 6 ? 0x22 + i : 0);
                }
                Bytes.put16(out, 14, etherType, true);
                p = 16;
            }
            case LinkTypes.LINUX_SLL2 -> {
                Bytes.put16(out, 0, etherType, true);
                Bytes.put16(out, 2, 0, true);
                Bytes.put32(out, 4, 2, true);
                Bytes.put16(out, 8, 1, true);
                out[10] = 0;
                out[11] = 6;
                for (int i = 0; i < 8; i++) {
                    out[12 + i] = (byte) (i < 6 ? 0x32 + i : 0);
                }
                p = 20;
            }
            case LinkTypes.RAW, LinkTypes.RAW_OLD, LinkTypes.IPV4, LinkTypes.IPV6 -> p = 0;
            default -> throw new IllegalArgumentException("cannot build link type " + linkType);
        }
        int transportLen = (udp ? 8 : 20) + payload;
        int proto = udp ? 17 : 6;
        if (v6) {
            Bytes.put32(out, p, 0x60000000 | (ipId & 0xfffff), true);
            Bytes.put16(out, p + 4, transportLen, true);
            out[p + 6] = (byte) proto;
            out[p + 7] = 64;
            System.arraycopy(src, 0, out, p + 8, 16);
            System.arraycopy(dst, 0, out, p + 24, 16);
            p += 40;
        } else {
            out[p] = 0x45;
            out[p + 1] = 0;
            Bytes.put16(out, p + 2, 20 + transportLen, true);
            Bytes.put16(out, p + 4, ipId, true);
            Bytes.put16(out, p + 6, 0x4000, true);
            out[p + 8] = 64;
            out[p + 9] = (byte) proto;
            Bytes.put16(out, p + 10, 0, true);
            System.arraycopy(src, 0, out, p + 12, 4);
            System.arraycopy(dst, 0, out, p + 16, 4);
            int sum = 0;
            for (int i = 0; i < 20; i += 2) {
                sum += Bytes.u16be(out, p + i);
            }
            sum = (sum & 0xffff) + (sum >>> 16);
            sum = (sum & 0xffff) + (sum >>> 16);
            Bytes.put16(out, p + 10, ~sum & 0xffff, true);
            p += 20;
        }
        Bytes.put16(out, p, srcPort, true);
        Bytes.put16(out, p + 2, dstPort, true);
        if (udp) {
            Bytes.put16(out, p + 4, transportLen, true);
            Bytes.put16(out, p + 6, 0, true);
            p += 8;
        } else {
            Bytes.put32(out, p + 4, (int) seq, true);
            Bytes.put32(out, p + 8, (int) ack, true);
            out[p + 12] = (byte) (0x50 | (flags >>> 8 & 1));
            out[p + 13] = (byte) flags;
            Bytes.put16(out, p + 14, 65535, true);
            Bytes.put32(out, p + 16, 0, true);
            p += 20;
        }
        length = p + payload;
        int captured = Math.min(length, snap);
        int fill = Math.min(captured, out.length) - p;
        for (int i = 0; i < fill; i++) {
            out[p + i] = payloadByte;
        }
        return captured;
    }
}
