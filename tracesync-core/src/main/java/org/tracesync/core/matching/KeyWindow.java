package org.tracesync.core.matching;

/**
 * A hash table of three-long keys whose entries live in insertion (= time) order, for matchers
 * that evict by age.
 *
 * <p>Layout, chosen for memory traffic: entries sit in one growable ring of 64-byte records
 * (eight longs: the key, the insertion time, two payload times, one packed payload word), indexed
 * by a monotonically increasing id — insertion and eviction walk the ring sequentially. An
 * open-addressing, linear-probing table maps a key to its id; each slot packs a 31-bit hash tag
 * with the low 32 bits of the id (the full id is recovered from the ring's head, as live ids span
 * less than 2^31), so probing and deletion touch the ring only on a tag match. Removal happens
 * only at the head (the oldest entry); deletion from the probe table shifts backward, so no
 * tombstones accumulate.
 *
 * <p>Costs: insert, find and head removal O(1) expected, about one cache miss in the probe table
 * plus one in the ring per operation; memory 64 bytes per live entry plus 16–32 bytes of probe
 * table (arrays double when full and never shrink); no object per entry.
 */
final class KeyWindow {

    static final int K0 = 0;
    static final int K1 = 1;
    static final int K2 = 2;
    static final int INSERTED = 3;
    static final int SEND_TIME = 4;
    static final int RECV_TIME = 5;
    /** Packed payload word, free for the user (zeroed on insert). */
    static final int META = 6;

    /** The ring: entry id lives at {@code at(id) .. at(id) + 7}. */
    long[] ring;
    private int ringMask;
    long head;
    long tail;

    private long[] slots;
    private int slotMask;

    KeyWindow() {
        ring = new long[(1 << 10) * 8];
        ringMask = (1 << 10) - 1;
        slots = new long[1 << 11];
        slotMask = slots.length - 1;
    }

    int size() {
        return (int) (tail - head);
    }

    boolean isEmpty() {
        return tail == head;
    }

    /** Index in {@link #ring} of entry {@code id}'s first long. */
    int at(long id) {
        return ((int) id & ringMask) << 3;
    }

    /**
     * Mixes all 192 key bits into the 31 tag bits. Keys of one connection differ by small steps in
     * the high half of a word (sequence numbers): the rotations carry those bits down before each
     * multiplication, and MurmurHash3's finalizer spreads them over the low bits used as index
     * (a plain multiply-xor left arithmetic progressions, hence long probe runs).
     */
    static int hash(long a, long b, long c) {
        long h = c * 0x9E3779B97F4A7C15L;
        h = (Long.rotateLeft(h, 31) ^ b) * 0xC2B2AE3D27D4EB4FL;
        h = (Long.rotateLeft(h, 29) ^ a) * 0x165667B19E3779F9L;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h | 0x8000_0000;
    }

    private long idOf(long slot) {
        return head + (((int) slot - (int) head) & 0xffff_ffffL);
    }

    /** The id of the entry with this key, or -1. */
    long find(long a, long b, long c) {
        int h = hash(a, b, c);
        int i = h & slotMask;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                return -1;
            }
            if ((int) (s >>> 32) == h) {
                long id = idOf(s);
                int e = at(id);
                if (ring[e] == a && ring[e + 1] == b && ring[e + 2] == c) {
                    return id;
                }
            }
            i = (i + 1) & slotMask;
        }
    }

    /**
     * The id of the entry with this key, inserting it (inserted time {@code time}, payload zeroed)
     * when absent; {@link #inserted} tells which happened.
     */
    long findOrInsert(long a, long b, long c, long time) {
        if (tail - head > ringMask) {
            growRing();
        }
        if ((tail - head + 1) * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        int h = hash(a, b, c);
        int i = h & slotMask;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                break;
            }
            if ((int) (s >>> 32) == h) {
                long id = idOf(s);
                int e = at(id);
                if (ring[e] == a && ring[e + 1] == b && ring[e + 2] == c) {
                    inserted = false;
                    return id;
                }
            }
            i = (i + 1) & slotMask;
        }
        long id = tail++;
        int e = at(id);
        ring[e] = a;
        ring[e + 1] = b;
        ring[e + 2] = c;
        ring[e + INSERTED] = time;
        ring[e + SEND_TIME] = 0;
        ring[e + RECV_TIME] = 0;
        ring[e + META] = 0;
        slots[i] = (long) h << 32 | (id & 0xffff_ffffL);
        inserted = true;
        return id;
    }

    /** Whether the last {@link #findOrInsert} inserted. */
    boolean inserted;

    /** Removes the oldest entry (its ring record stays readable until the next insert). */
    void removeHead() {
        long id = head;
        int e = at(id);
        int h = hash(ring[e], ring[e + 1], ring[e + 2]);
        long want = (long) h << 32 | (id & 0xffff_ffffL);
        int i = h & slotMask;
        while (slots[i] != want) {
            i = (i + 1) & slotMask;
        }
        // backward-shift deletion: move later entries of the probe run into the hole when their
        // home position does not lie cyclically in (hole, their position]
        int j = i;
        while (true) {
            j = (j + 1) & slotMask;
            long s = slots[j];
            if (s == 0) {
                break;
            }
            int home = (int) (s >>> 32) & slotMask;
            boolean movable = j > i ? (home <= i || home > j) : (home <= i && home > j);
            if (movable) {
                slots[i] = s;
                i = j;
            }
        }
        slots[i] = 0;
        head++;
    }

    private void growRing() {
        long[] old = ring;
        int oldMask = ringMask;
        ringMask = (oldMask + 1) * 2 - 1;
        ring = new long[(ringMask + 1) * 8];
        for (long id = head; id < tail; id++) {
            System.arraycopy(old, ((int) id & oldMask) << 3, ring, at(id), 8);
        }
    }

    private void rehash(int n) {
        long[] old = slots;
        slots = new long[n];
        slotMask = n - 1;
        for (long s : old) {
            if (s != 0) {
                int i = (int) (s >>> 32) & slotMask;
                while (slots[i] != 0) {
                    i = (i + 1) & slotMask;
                }
                slots[i] = s;
            }
        }
    }
}
