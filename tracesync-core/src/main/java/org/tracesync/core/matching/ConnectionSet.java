package org.tracesync.core.matching;

/**
 * A set of connection words ({@link TcpMatcher}'s first key word): open addressing with linear
 * probing over a {@code long[]}, at most half full, doubling when needed; 0 is kept in a flag (it
 * marks an empty slot). No removal. O(1) expected per call, no allocation except when it grows.
 */
final class ConnectionSet {

    private long[] slots = new long[64];
    private int size;
    private boolean hasZero;

    int size() {
        return size;
    }

    private static int hash(long k) {
        long h = k * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    boolean contains(long k) {
        return k == 0 ? hasZero : slots[slot(k)] == k;
    }

    /** The slot holding {@code k} (not 0), or the empty slot where its probe run ends. */
    private int slot(long k) {
        long[] s = slots;
        int mask = s.length - 1;
        int i = hash(k) & mask;
        while (s[i] != k && s[i] != 0) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Adds {@code k}; true when it was not there. */
    boolean add(long k) {
        if (k == 0) {
            boolean added = !hasZero;
            hasZero = true;
            size += added ? 1 : 0;
            return added;
        }
        long[] s = slots;
        int i = slot(k);
        if (s[i] == k) {
            return false;
        }
        s[i] = k;
        size++;
        if (2 * size > s.length) {
            grow();
        }
        return true;
    }

    private void grow() {
        long[] old = slots;
        long[] s = new long[old.length * 2];
        int mask = s.length - 1;
        for (long v : old) {
            if (v != 0) {
                int i = hash(v) & mask;
                while (s[i] != 0) {
                    i = (i + 1) & mask;
                }
                s[i] = v;
            }
        }
        slots = s;
    }
}
