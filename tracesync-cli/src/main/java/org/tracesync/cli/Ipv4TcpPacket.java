package org.tracesync.cli;

import org.tracesync.core.matching.TcpSegmentKey;

/**
 * Encodes a simulated TCP segment as the bytes of an IPv4 packet (raw IP, no link header): a
 * 20-byte IPv4 header and a 20-byte TCP header with correct checksums (the payload is zeros and
 * is not stored: captures keep {@link #HEADERS} bytes, as tcpdump {@code -s} would). O(1).
 */
final class Ipv4TcpPacket {

    /** Bytes of IPv4 + TCP headers kept per packet. */
    static final int HEADERS = 40;

    private Ipv4TcpPacket() {
    }

    /** The captured bytes (headers only) of {@code key}; {@code id} fills the IPv4 identification. */
    static byte[] encode(TcpSegmentKey key, int id) {
        byte[] b = new byte[HEADERS];
        int total = HEADERS + key.payloadLength();
        b[0] = 0x45;
        put16(b, 2, total);
        put16(b, 4, id & 0xffff);
        put16(b, 6, 0x4000); // don't fragment
        b[8] = 64;
        b[9] = 6;
        System.arraycopy(key.source(), 0, b, 12, 4);
        System.arraycopy(key.destination(), 0, b, 16, 4);
        put16(b, 10, ~fold(sum(b, 0, 20, 0)) & 0xffff);
        put16(b, 20, key.sourcePort());
        put16(b, 22, key.destinationPort());
        put32(b, 24, key.seq());
        put32(b, 28, key.ack());
        b[32] = 0x50;
        b[33] = (byte) key.flags();
        put16(b, 34, 65535);
        // pseudo-header: addresses, protocol, TCP length; the zero payload adds nothing
        long pseudo = sum(b, 12, 8, 0) + 6 + (20 + key.payloadLength());
        put16(b, 36, ~fold(sum(b, 20, 20, pseudo)) & 0xffff);
        return b;
    }

    /** Internet checksum partial sum (one's complement, folded to 16 bits) of 16-bit big-endian words. */
    static long sum(byte[] b, int off, int len, long start) {
        long s = start;
        for (int i = off; i < off + len; i += 2) {
            s += ((b[i] & 0xff) << 8) | (i + 1 < off + len ? b[i + 1] & 0xff : 0);
        }
        return fold(s);
    }

    static int fold(long s) {
        while ((s >>> 16) != 0) {
            s = (s & 0xffff) + (s >>> 16);
        }
        return (int) s;
    }

    private static void put16(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 8);
        b[at + 1] = (byte) v;
    }

    private static void put32(byte[] b, int at, long v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
