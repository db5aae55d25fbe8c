package org.tracesync.spark;

import java.io.Serializable;
import java.util.List;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.pcap.DecodedPacket;

/**
 * The traced hosts' addresses (128-bit, IPv4 mapped), each with a dense id (its rank, under
 * 2^16, as {@code TcpMatcher}'s keys pack it) and its owner node; shipped to every decoding task.
 * Open addressing: O(1) expected per lookup, no allocation.
 */
final class TracedAddresses implements Serializable {

    private static final long serialVersionUID = 1L;

    private final long[] hi;
    private final long[] lo;
    /** id + 1 in a used slot, 0 when empty. */
    private final int[] slot;
    private final int[] ownerById;
    private final int mask;
    private final List<Long> directed;

    /**
     * @param directed the directed IPv4 broadcast addresses of every capture's pcapng interfaces
     *                 (their netmasks), as the one-machine reader gathers them
     */
    TracedAddresses(List<NodeInfo> nodes, List<Long> directed) {
        this.directed = new java.util.ArrayList<>(directed);
        int count = 0;
        for (NodeInfo n : nodes) {
            count += n.addresses().size();
        }
        if (count >= 1 << 16) {
            throw new IllegalArgumentException(count + " traced addresses: at most 65535");
        }
        int cap = Integer.highestOneBit(Math.max(4, count * 4) - 1) << 1;
        hi = new long[cap];
        lo = new long[cap];
        slot = new int[cap];
        ownerById = new int[count];
        mask = cap - 1;
        int id = 0;
        for (int node = 0; node < nodes.size(); node++) {
            for (String text : nodes.get(node).addresses()) {
                long[] v = DecodedPacket.parseAddress(text);
                if (v == null || find(v[0], v[1]) >= 0) {
                    continue;
                }
                int i = hash(v[0], v[1]) & mask;
                while (slot[i] != 0) {
                    i = (i + 1) & mask;
                }
                hi[i] = v[0];
                lo[i] = v[1];
                slot[i] = id + 1;
                ownerById[id++] = node;
            }
        }
    }

    private static int hash(long h, long l) {
        long x = (h * 0x9E3779B97F4A7C15L) ^ (l * 0xC2B2AE3D27D4EB4FL);
        return (int) (x ^ (x >>> 31));
    }

    /** The address's id, or -1 when it is not a traced host's. */
    int find(long h, long l) {
        int i = hash(h, l) & mask;
        while (slot[i] != 0) {
            if (hi[i] == h && lo[i] == l) {
                return slot[i] - 1;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** The directed broadcast addresses: what counts as a broadcast besides multicast and 255.255.255.255. */
    List<Long> directedBroadcasts() {
        return directed;
    }

    int ownerOf(int id) {
        return ownerById[id];
    }
}
