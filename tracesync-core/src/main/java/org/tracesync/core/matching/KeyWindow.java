package org.tracesync.core.matching;

/**
 * A hash table of three-long keys whose entries live in insertion (= time) order, for matchers
 * that evict by age: entries sit in a growable ring indexed by a monotonically increasing id
 * (FIFO = oldest first), and an open-addressing, linear-probing table maps a key to its id.
 * Removal only happens at the head of the ring (the oldest entry); deletion from the probe table
 * uses backward shifting, so no tombstones accumulate.
 *
 * <p>Costs: insert, find and head removal O(1) expected; memory proportional to the number of
 * live entries (the arrays double when full and never shrink); no object per entry.
 */
final class KeyWindow {

    long[] k0;
    long[] k1;
    long[] k2;
    long[] inserted;
    long[] sendTime;
    long[] recvTime;
    int[] sendNode;
    int[] recvNode;
    /** Low 16 bits: sends seen; high 16 bits: receives seen (saturating). */
    int[] counts;
    int arenaMask;
    long head;
    long tail;

    private long[] slots;
    private int slotMask;

    KeyWindow() {
        allocateArena(1 << 10);
        slots = new long[1 << 11];
        slotMask = slots.length - 1;
    }

    private void allocateArena(int n) {
        k0 = new long[n];
        k1 = new long[n];
        k2 = new long[n];
        inserted = new long[n];
        sendTime = new long[n];
        recvTime = new long[n];
        sendNode = new int[n];
        recvNode = new int[n];
        counts = new int[n];
        arenaMask = n - 1;
    }

    int size() {
        return (int) (tail - head);
    }

    boolean isEmpty() {
        return tail == head;
    }

    /** Arena index of entry {@code id}. */
    int at(long id) {
        return (int) id & arenaMask;
    }

    private static int hash(long a, long b, long c) {
        long h = a * 0x9E3779B97F4A7C15L ^ b * 0xC2B2AE3D27D4EB4FL ^ c * 0x165667B19E3779F9L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return (int) h;
    }

    /** The id of the entry with this key, or -1. */
    long find(long a, long b, long c) {
        int i = hash(a, b, c) & slotMask;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                return -1;
            }
            int e = (int) (s - 1) & arenaMask;
            if (k0[e] == a && k1[e] == b && k2[e] == c) {
                return s - 1;
            }
            i = (i + 1) & slotMask;
        }
    }

    /** Appends an entry (key must be absent); returns its id. Payload fields are zeroed. */
    long insert(long a, long b, long c, long time) {
        if (tail - head > arenaMask) {
            growArena();
        }
        if ((tail - head + 1) * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        long id = tail++;
        int e = (int) id & arenaMask;
        k0[e] = a;
        k1[e] = b;
        k2[e] = c;
        inserted[e] = time;
        sendTime[e] = 0;
        recvTime[e] = 0;
        sendNode[e] = -1;
        recvNode[e] = -1;
        counts[e] = 0;
        int i = hash(a, b, c) & slotMask;
        while (slots[i] != 0) {
            i = (i + 1) & slotMask;
        }
        slots[i] = id + 1;
        return id;
    }

    /** Removes the oldest entry (its arena fields stay readable until the next insert). */
    void removeHead() {
        long id = head;
        int e = (int) id & arenaMask;
        int i = hash(k0[e], k1[e], k2[e]) & slotMask;
        while (slots[i] != id + 1) {
            i = (i + 1) & slotMask;
        }
        // backward-shift deletion
        int j = i;
        while (true) {
            j = (j + 1) & slotMask;
            long s = slots[j];
            if (s == 0) {
                break;
            }
            int f = (int) (s - 1) & arenaMask;
            int home = hash(k0[f], k1[f], k2[f]) & slotMask;
            boolean movable = j > i ? (home <= i || home > j) : (home <= i && home > j);
            if (movable) {
                slots[i] = s;
                i = j;
            }
        }
        slots[i] = 0;
        head++;
    }

    private void growArena() {
        long[] o0 = k0;
        long[] o1 = k1;
        long[] o2 = k2;
        long[] oi = inserted;
        long[] os = sendTime;
        long[] or = recvTime;
        int[] osn = sendNode;
        int[] orn = recvNode;
        int[] oc = counts;
        int oldMask = arenaMask;
        allocateArena((oldMask + 1) * 2);
        for (long id = head; id < tail; id++) {
            int a = (int) id & oldMask;
            int b = (int) id & arenaMask;
            k0[b] = o0[a];
            k1[b] = o1[a];
            k2[b] = o2[a];
            inserted[b] = oi[a];
            sendTime[b] = os[a];
            recvTime[b] = or[a];
            sendNode[b] = osn[a];
            recvNode[b] = orn[a];
            counts[b] = oc[a];
        }
    }

    private void rehash(int n) {
        slots = new long[n];
        slotMask = n - 1;
        for (long id = head; id < tail; id++) {
            int e = (int) id & arenaMask;
            int i = hash(k0[e], k1[e], k2[e]) & slotMask;
            while (slots[i] != 0) {
                i = (i + 1) & slotMask;
            }
            slots[i] = id + 1;
        }
    }
}
