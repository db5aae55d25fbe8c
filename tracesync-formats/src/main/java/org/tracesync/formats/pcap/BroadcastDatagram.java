package org.tracesync.formats.pcap;

import java.util.List;

/**
 * A UDP datagram to a broadcast or multicast address, as the matching pipeline sees it: which
 * destinations count as broadcasts, and the 192-bit key that identifies one datagram across the
 * captures of its receivers (addresses, ports, payload length, IP identification and a hash of the
 * first 64 payload bytes). Shared by the one-machine capture reader and the Spark job, so both group
 * the same datagrams.
 *
 * <p>Cost: O(1) per datagram (at most 64 payload bytes hashed), no allocation but the key array.
 */
public final class BroadcastDatagram {

    private BroadcastDatagram() {
    }

    /**
     * Multicast, 255.255.255.255, one of the {@code directed} broadcast addresses (IPv4, from the
     * pcapng interfaces' netmasks of every capture of the set), or — none being known — an IPv4
     * address ending in .255.
     */
    public static boolean isBroadcast(DecodedPacket p, List<Long> directed) {
        if (DecodedPacket.isGroupAddress(p.dstHi, p.dstLo)) {
            return true;
        }
        if (p.dstHi == 0 && (p.dstLo >>> 32) == 0xffff) {
            long v4 = p.dstLo & 0xffffffffL;
            return directed.isEmpty() ? (v4 & 0xff) == 0xff : directed.contains(v4);
        }
        return false;
    }

    /** The datagram's key {a, b, c}; {@code data} is the record's bytes the packet was decoded from. */
    public static long[] key(DecodedPacket p, byte[] data) {
        long hash = payloadHash(data, p.payloadOffset, p.payloadCaptured);
        long a = p.srcLo ^ Long.rotateLeft(p.srcHi, 17);
        long b = p.dstLo ^ Long.rotateLeft(p.dstHi, 17) ^ ((long) p.payloadLength << 48);
        long c = (long) p.srcPort << 48 | (long) p.dstPort << 32 | ((p.ipId ^ hash) & 0xffffffffL);
        return new long[] {a, b, c};
    }

    private static long payloadHash(byte[] b, int off, int len) {
        int n = Math.min(len, 64);
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < n; i++) {
            h = (h ^ (b[off + i] & 0xff)) * 0x100000001b3L;
        }
        return h ^ (h >>> 32);
    }
}
