package org.tracesync.formats.pcap;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The fields of one packet that matching needs, filled in place by {@link PacketDecoder} (one
 * reusable instance per reader: no allocation per packet). Addresses are 128-bit values
 * (hi, lo); IPv4 addresses are stored IPv4-mapped ({@code ::ffff:a.b.c.d}).
 */
public final class DecodedPacket {
    /** Not an IP packet, or a link/network layer the decoder does not handle. */
    public static final int OTHER = 0;
    public static final int TCP = 6;
    public static final int UDP = 17;
    /** IP, but neither TCP nor UDP (or a non-first fragment). */
    public static final int IP_OTHER = 1;

    public int kind;
    public int ipVersion;
    public long srcHi;
    public long srcLo;
    public long dstHi;
    public long dstLo;
    public int srcPort;
    public int dstPort;
    public long seq;
    public long ack;
    public int flags;
    /** Transport payload length from the IP/UDP length fields (not the captured length). */
    public int payloadLength;
    /** IPv4 identification, IPv6 flow label. */
    public int ipId;
    /** Offset of the IP header in the record's buffer (valid when kind is not OTHER). */
    public int ipOffset;
    /** Offset and captured length of the transport payload in the record's buffer. */
    public int payloadOffset;
    public int payloadCaptured;

    static final long V4_MAPPED = 0xffff_0000_0000L;

    public boolean srcIsV4() {
        return srcHi == 0 && (srcLo >>> 32) == 0xffff;
    }

    public static byte[] addressBytes(long hi, long lo) {
        if (hi == 0 && (lo >>> 32) == 0xffff) {
            int v = (int) lo;
            return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
        }
        byte[] b = new byte[16];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (hi >>> (56 - 8 * i));
            b[8 + i] = (byte) (lo >>> (56 - 8 * i));
        }
        return b;
    }

    public static String addressText(long hi, long lo) {
        try {
            return InetAddress.getByAddress(addressBytes(hi, lo)).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Parses a textual IPv4/IPv6 literal into {hi, lo}; null when it is not an address literal. */
    public static long[] parseAddress(String text) {
        String t = text.trim();
        if (!(t.contains(":") || t.matches("\\d{1,3}(\\.\\d{1,3}){3}"))) {
            return null;
        }
        try {
            byte[] b = InetAddress.getByName(t).getAddress();
            if (b.length == 4) {
                return new long[] {0, V4_MAPPED | (Bytes.i32be(b, 0) & 0xffffffffL)};
            }
            return new long[] {Bytes.i64be(b, 0), Bytes.i64be(b, 8)};
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** True for multicast (224/4, ff00::/8) and the IPv4 limited broadcast 255.255.255.255. */
    public static boolean isGroupAddress(long hi, long lo) {
        if (hi == 0 && (lo >>> 32) == 0xffff) {
            int v = (int) lo;
            return (v >>> 28) == 0xe || v == -1;
        }
        return (hi >>> 56) == 0xff;
    }
}
