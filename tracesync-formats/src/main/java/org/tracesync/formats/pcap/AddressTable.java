package org.tracesync.formats.pcap;

import java.util.Arrays;

/**
 * Small map from a 128-bit address (hi, lo) to a dense id and an owner node: the addresses of
 * the traced hosts. Open addressing, O(1) expected lookup, no allocation per lookup.
 */
final class AddressTable {
    private long[] hi = new long[64];
    private long[] lo = new long[64];
    private int[] id = new int[64];
    private int[] owner = new int[64];
    private int size;
    private int[] ownerById = new int[16];

    int size() {
        return size;
    }

    private static int hash(long h, long l) {
        long x = (h * 0x9E3779B97F4A7C15L) ^ (l * 0xC2B2AE3D27D4EB4FL);
        return (int) (x ^ (x >>> 31));
    }

    /** Adds an address owned by {@code node}; returns false if it was already present. */
    boolean add(long h, long l, int node) {
        if (find(h, l) >= 0) {
            return false;
        }
        if ((size + 1) * 2 > hi.length) {
            long[] oh = hi;
            long[] ol = lo;
            int[] oi = id;
            int[] oo = owner;
            hi = new long[oh.length * 2];
            lo = new long[oh.length * 2];
            id = new int[oh.length * 2];
            owner = new int[oh.length * 2];
            Arrays.fill(id, -1);
            for (int i = 0; i < oh.length; i++) {
                if (oi[i] >= 0) {
                    put(oh[i], ol[i], oi[i], oo[i]);
                }
            }
        }
        if (size == ownerById.length) {
            ownerById = Arrays.copyOf(ownerById, size * 2);
        }
        ownerById[size] = node;
        put(h, l, size++, node);
        return true;
    }

    private void put(long h, long l, int ident, int node) {
        int mask = hi.length - 1;
        int i = hash(h, l) & mask;
        while (id[i] >= 0) {
            i = (i + 1) & mask;
        }
        hi[i] = h;
        lo[i] = l;
        id[i] = ident;
        owner[i] = node;
    }

    {
        Arrays.fill(id, -1);
    }

    private int slot(long h, long l) {
        int mask = hi.length - 1;
        int i = hash(h, l) & mask;
        while (true) {
            if (id[i] < 0) {
                return -1;
            }
            if (hi[i] == h && lo[i] == l) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /** The address's id, or -1. */
    int find(long h, long l) {
        int s = slot(h, l);
        return s < 0 ? -1 : id[s];
    }

    /** The node owning address {@code id} (from {@link #find}). */
    int ownerOf(int id) {
        return ownerById[id];
    }

    /** The node owning the address, or -1. */
    int owner(long h, long l) {
        int s = slot(h, l);
        return s < 0 ? -1 : owner[s];
    }
}
