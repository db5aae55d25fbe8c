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
 * less than 2^31), so probing touches the ring only on a tag match. Removal happens only at the
 * head (the oldest entry) and does not touch the probe table: a slot whose id falls below the
 * head is stale, skipped by lookups and reused by inserts, and a sequential rebuild clears all
 * stale slots when live and stale ones fill three quarters of the table.
 *
 * <p>Costs: insert and find O(1) expected, about one cache miss in the probe table plus one in
 * the ring; head removal O(1), no memory access beyond the ring head; rebuilds amortized O(1) per
 * removal. Memory 64 bytes per live entry plus 16–64 bytes of probe table (arrays double when
 * needed and never shrink); no object per entry.
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
    /** Non-empty slots: live entries plus stale ones left by removal. */
    private int used;

    KeyWindow() {
        this(0);
    }

    /** Ids start at {@code firstId}: lets tests cross the 2^32 boundary of the slots' id bits. */
    KeyWindow(long firstId) {
        head = firstId;
        tail = firstId;
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

    /**
     * Whether a slot refers to a live entry: its id, rebuilt from the low 32 bits, lies in
     * [head, tail). Slots left by removed entries (ids below head) read as stale; this is exact
     * because every slot's id lies within 2^31 of head (live ids span less than the ring, stale
     * ones are swept by {@link #rebuild} before the table holds 2^31 of them).
     */
    private boolean live(long slot) {
        return (((int) slot - (int) head) & 0xffff_ffffL) < tail - head;
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
            if ((int) (s >>> 32) == h && live(s)) {
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
     * when absent; {@link #inserted} tells which happened. A new key takes the first stale slot of
     * its probe run, or the empty slot that ends it.
     */
    long findOrInsert(long a, long b, long c, long time) {
        return findOrInsert(a, b, c, hash(a, b, c), time);
    }

    /** The slot where the search for a key of hash {@code h} starts (read to bring it into cache). */
    long home(int h) {
        return slots[h & slotMask];
    }

    /** {@link #findOrInsert(long, long, long, long)} with the key's {@link #hash} already known. */
    long findOrInsert(long a, long b, long c, int h, long time) {
        if (tail - head > ringMask) {
            growRing();
        }
        if ((used + 1) * 4 > slots.length * 3) {
            rebuild();
        }
        int i = h & slotMask;
        int stale = -1;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                break;
            }
            if (live(s)) {
                if ((int) (s >>> 32) == h) {
                    long id = idOf(s);
                    int e = at(id);
                    if (ring[e] == a && ring[e + 1] == b && ring[e + 2] == c) {
                        inserted = false;
                        return id;
                    }
                }
            } else if (stale < 0) {
                stale = i;
            }
            i = (i + 1) & slotMask;
        }
        if (stale >= 0) {
            i = stale;
        } else {
            used++;
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

    /**
     * Removes the oldest entry (its ring record stays readable until the next insert). Its slot is
     * left in place, now stale: finding it again would cost a cache miss per removal, the
     * dominant cost of removal when the window holds more keys than the caches.
     */
    void removeHead() {
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

    /**
     * Drops the stale slots. Runs when live and stale slots fill three quarters of the table;
     * doubles the table when live keys would fill more than half of it (so at least a quarter of
     * it is free again), otherwise works in place: a new table per rebuild would be garbage every
     * few hundred thousand keys and inflate the heap of a long pass.
     */
    private void rebuild() {
        if ((tail - head + 1) * 2 > slots.length) {
            long[] old = slots;
            slots = new long[old.length * 2];
            slotMask = slots.length - 1;
            used = 0;
            for (long s : old) {
                if (s != 0 && live(s)) {
                    place(s);
                }
            }
            return;
        }
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != 0 && !live(slots[i])) {
                slots[i] = 0;
            }
        }
        // Re-place every live slot, in probe order from just after an empty slot (one exists: the
        // table is at most three quarters full). Each slot then finds the first empty slot from
        // its home at or before its old place, as the slots before it in its run are already
        // placed: the table ends up a valid linear-probing table without the stale slots.
        int start = 0;
        while (slots[start] != 0) {
            start++;
        }
        used = 0;
        for (int k = 1; k <= slots.length; k++) {
            int i = (start + k) & slotMask;
            long s = slots[i];
            if (s != 0) {
                slots[i] = 0;
                place(s);
            }
        }
    }

    /** Puts a slot at the first empty place from its home (rebuilds only: no key comparison). */
    private void place(long s) {
        int i = (int) (s >>> 32) & slotMask;
        while (slots[i] != 0) {
            i = (i + 1) & slotMask;
        }
        slots[i] = s;
        used++;
    }
}
