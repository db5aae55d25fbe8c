package org.tracesync.formats.pcap;

/**
 * Decodes link layer → IP → TCP/UDP headers in place, O(header bytes) per packet and no
 * allocation. Link layers: Ethernet (any number of 802.1Q/802.1ad VLAN tags), Linux cooked
 * SLL and SLL2, raw IP, BSD null/loopback. IPv4 (options, first fragments) and IPv6 (hop-by-hop,
 * routing, destination-options and fragment extension headers). Lengths come from the IP header,
 * so packets truncated by a small snap length still give the right payload length as long as the
 * transport header itself was captured.
 */
public final class PacketDecoder {

    private PacketDecoder() {
    }

    /** Decodes into {@code out}; returns {@code out.kind}. */
    public static int decode(int linkType, byte[] b, int off, int len, DecodedPacket out) {
        if (linkType == LinkTypes.ETHERNET && len >= 54) {
            int kind = ethernetIpv4Tcp(b, off, len, out);
            if (kind != NOT_FAST) {
                return kind;
            }
        }
        return decodeAny(linkType, b, off, len, out);
    }

    private static final int NOT_FAST = -1;

    /**
     * The commonest packet, untagged Ethernet → IPv4 without options → TCP, whose headers (54
     * bytes) were captured, decoded with the fewest reads and branches: every field as
     * {@link #decodeAny} sets it (tested against it). Anything else returns {@link #NOT_FAST}
     * without writing {@code out}.
     */
    private static int ethernetIpv4Tcp(byte[] b, int off, int len, DecodedPacket out) {
        int p = off + 14;
        // ethertype IPv4, version 4 with a 20-byte header, protocol TCP, not a later fragment
        if (Bytes.u16be(b, off + 12) != 0x0800 || b[p] != 0x45 || b[p + 9] != 6
                || (Bytes.u16be(b, p + 6) & 0x1fff) != 0) {
            return NOT_FAST;
        }
        int total = Bytes.u16be(b, p + 2);
        if (total < 20) {
            return NOT_FAST;
        }
        int q = p + 20;
        int tcp12 = b[q + 12] & 0xff;
        int dataOff = (tcp12 >>> 4) * 4;
        int payloadLength = Math.max(0, total - 20 - dataOff);
        int payloadOffset = q + dataOff;
        out.ipVersion = 4;
        out.ipOffset = p;
        out.ipId = Bytes.u16be(b, p + 4);
        out.srcHi = 0;
        out.srcLo = DecodedPacket.V4_MAPPED | Bytes.u32be(b, p + 12);
        out.dstHi = 0;
        out.dstLo = DecodedPacket.V4_MAPPED | Bytes.u32be(b, p + 16);
        int ports = Bytes.i32be(b, q);
        out.srcPort = ports >>> 16;
        out.dstPort = ports & 0xffff;
        out.seq = Bytes.u32be(b, q + 4);
        out.ack = Bytes.u32be(b, q + 8);
        out.flags = (tcp12 & 0x01) << 8 | (b[q + 13] & 0xff);
        out.payloadLength = payloadLength;
        out.payloadOffset = payloadOffset;
        out.payloadCaptured = Math.max(0, Math.min(off + len - payloadOffset, payloadLength));
        out.kind = DecodedPacket.TCP;
        return DecodedPacket.TCP;
    }

    /** {@link #decode} for every link layer and header layout. */
    static int decodeAny(int linkType, byte[] b, int off, int len, DecodedPacket out) {
        out.kind = DecodedPacket.OTHER;
        int end = off + len;
        int p;
        int etherType;
        switch (linkType) {
            case LinkTypes.ETHERNET -> {
                if (len < 14) {
                    return DecodedPacket.OTHER;
                }
                etherType = Bytes.u16be(b, off + 12);
                p = off + 14;
                while ((etherType == 0x8100 || etherType == 0x88a8 || etherType == 0x9100) && p + 4 <= end) {
                    etherType = Bytes.u16be(b, p + 2);
                    p += 4;
                }
            }
            case LinkTypes.LINUX_SLL -> {
                if (len < 16) {
                    return DecodedPacket.OTHER;
                }
                etherType = Bytes.u16be(b, off + 14);
                p = off + 16;
            }
            case LinkTypes.LINUX_SLL2 -> {
                if (len < 20) {
                    return DecodedPacket.OTHER;
                }
                etherType = Bytes.u16be(b, off);
                p = off + 20;
            }
            case LinkTypes.RAW, LinkTypes.RAW_OLD, LinkTypes.IPV4, LinkTypes.IPV6 -> {
                if (len < 1) {
                    return DecodedPacket.OTHER;
                }
                int v = (b[off] & 0xff) >>> 4;
                etherType = v == 4 ? 0x0800 : v == 6 ? 0x86dd : -1;
                p = off;
            }
            case LinkTypes.NULL -> {
                if (len < 4) {
                    return DecodedPacket.OTHER;
                }
                int v = (b[off + 4 < end ? off + 4 : off] & 0xff) >>> 4;
                etherType = v == 4 ? 0x0800 : v == 6 ? 0x86dd : -1;
                p = off + 4;
            }
            default -> {
                return DecodedPacket.OTHER;
            }
        }
        if (etherType == 0x0800) {
            return ipv4(b, p, end, out);
        }
        if (etherType == 0x86dd) {
            return ipv6(b, p, end, out);
        }
        return DecodedPacket.OTHER;
    }

    private static int ipv4(byte[] b, int p, int end, DecodedPacket out) {
        if (p + 20 > end || (b[p] & 0xf0) != 0x40) {
            return DecodedPacket.OTHER;
        }
        int ihl = (b[p] & 0x0f) * 4;
        int total = Bytes.u16be(b, p + 2);
        if (ihl < 20 || total < ihl) {
            return DecodedPacket.OTHER;
        }
        out.ipVersion = 4;
        out.ipOffset = p;
        out.ipId = Bytes.u16be(b, p + 4);
        out.srcHi = 0;
        out.srcLo = DecodedPacket.V4_MAPPED | Bytes.u32be(b, p + 12);
        out.dstHi = 0;
        out.dstLo = DecodedPacket.V4_MAPPED | Bytes.u32be(b, p + 16);
        int proto = b[p + 9] & 0xff;
        out.kind = DecodedPacket.IP_OTHER;
        if ((Bytes.u16be(b, p + 6) & 0x1fff) != 0) {
            return DecodedPacket.IP_OTHER; // non-first fragment: no transport header
        }
        return transport(proto, b, p + ihl, end, total - ihl, out);
    }

    private static int ipv6(byte[] b, int p, int end, DecodedPacket out) {
        if (p + 40 > end || (b[p] & 0xf0) != 0x60) {
            return DecodedPacket.OTHER;
        }
        out.ipVersion = 6;
        out.ipOffset = p;
        out.ipId = Bytes.i32be(b, p) & 0xfffff;
        int remaining = Bytes.u16be(b, p + 4);
        int next = b[p + 6] & 0xff;
        out.srcHi = Bytes.i64be(b, p + 8);
        out.srcLo = Bytes.i64be(b, p + 16);
        out.dstHi = Bytes.i64be(b, p + 24);
        out.dstLo = Bytes.i64be(b, p + 32);
        out.kind = DecodedPacket.IP_OTHER;
        int q = p + 40;
        while (true) {
            switch (next) {
                case 0, 43, 60 -> {
                    if (q + 8 > end) {
                        return DecodedPacket.IP_OTHER;
                    }
                    int hl = ((b[q + 1] & 0xff) + 1) * 8;
                    next = b[q] & 0xff;
                    q += hl;
                    remaining -= hl;
                }
                case 44 -> {
                    if (q + 8 > end) {
                        return DecodedPacket.IP_OTHER;
                    }
                    if ((Bytes.u16be(b, q + 2) & 0xfff8) != 0) {
                        return DecodedPacket.IP_OTHER;
                    }
                    out.ipId = Bytes.i32be(b, q + 4);
                    next = b[q] & 0xff;
                    q += 8;
                    remaining -= 8;
                }
                default -> {
                    return transport(next, b, q, end, remaining, out);
                }
            }
        }
    }

    private static int transport(int proto, byte[] b, int q, int end, int ipPayload, DecodedPacket out) {
        if (proto == 6) {
            if (q + 20 > end) {
                return DecodedPacket.IP_OTHER;
            }
            int dataOff = ((b[q + 12] & 0xff) >>> 4) * 4;
            out.srcPort = Bytes.u16be(b, q);
            out.dstPort = Bytes.u16be(b, q + 2);
            out.seq = Bytes.u32be(b, q + 4);
            out.ack = Bytes.u32be(b, q + 8);
            out.flags = (b[q + 12] & 0x01) << 8 | (b[q + 13] & 0xff);
            out.payloadLength = Math.max(0, ipPayload - dataOff);
            out.payloadOffset = q + dataOff;
            out.payloadCaptured = Math.max(0, Math.min(end - out.payloadOffset, out.payloadLength));
            out.kind = DecodedPacket.TCP;
            return DecodedPacket.TCP;
        }
        if (proto == 17) {
            if (q + 8 > end) {
                return DecodedPacket.IP_OTHER;
            }
            out.srcPort = Bytes.u16be(b, q);
            out.dstPort = Bytes.u16be(b, q + 2);
            out.payloadLength = Math.max(0, Bytes.u16be(b, q + 4) - 8);
            out.seq = 0;
            out.ack = 0;
            out.flags = 0;
            out.payloadOffset = q + 8;
            out.payloadCaptured = Math.max(0, Math.min(end - out.payloadOffset, out.payloadLength));
            out.kind = DecodedPacket.UDP;
            return DecodedPacket.UDP;
        }
        return DecodedPacket.IP_OTHER;
    }
}
