package org.tracesync.core.matching;

/**
 * Finds TCP keys of a {@link KeyWindow} by connection and order instead of by hash, for
 * {@link TcpMatcher}: most keys are new and larger than every key seen on their connection, or
 * a copy of a recent key of it, and neither needs the probe table.
 *
 * <p><b>Why it works.</b> A connection direction's segments are sent in order, and each capture
 * (the sender's, the receiver's) sees them in that order; in the merged stream the first copy of
 * the i-th segment comes at min(tA_i, tB_i), which grows with i when both captures' times do. So
 * per connection direction (the key's first word) the first copies mostly come in increasing
 * order of (seq, ack, flags|length): such a key is appended to the connection's ring of ids
 * without a lookup, and the other capture's copy of it is found in that ring near where the last
 * copy was found (a cursor; it moves by one per key when two captures see the connection).
 *
 * <p><b>Order.</b> A connection's keys are ordered by {@code (seq − S, ack − A, c)}: seq and ack
 * taken relative to the connection's anchors S and A as unsigned 32-bit numbers, compared
 * lexicographically with the third key word c (flags|length: for TCP c ≥ 0; a pure ACK and the
 * data segment after it share seq and ack, the length breaks the tie). For fixed anchors this map
 * of a key to its order value is one-to-one (a key's three words are (a, seq|ack, c), and a is the
 * connection), so equal order values mean equal keys, whatever wraps: no unwrapping, no span to
 * keep small. Equal keys (duplicate ACKs, window updates, retransmissions) are not greater.
 *
 * <p><b>Invariants</b> (per connection, while its anchors are unchanged):
 * <ol>
 *   <li>Its ring holds ids in increasing order whose keys' order values increase strictly: a key
 *       is appended only when its order value is greater than {@code max}, and becomes max.</li>
 *   <li>Every live key of the connection, in its ring or in the probe table, has an order value
 *       at most max, except keys of the probe table with ids up to {@code guard} (below): a key
 *       goes to the table only when it was not greater than max, and max only grows.</li>
 *   <li>Every live key is in exactly one place: a key is appended to the ring only after it was
 *       shown absent (greater than max, and not in the table when the guard is live), and goes
 *       to the table only after it was searched for in the ring and not found.</li>
 * </ol>
 * Hence a key greater than max is not live (when no guarded key is live, else the table is asked
 * too), and a key not greater is live iff it is found by the ring's binary search (the ring is
 * sorted by 1., the map one-to-one) or in the table. Ids die in increasing order (the window's
 * head, or the key limit, decides the oldest key first), so a ring's dead ids are those below
 * the window's head, at its front: they are skipped lazily.
 *
 * <p><b>Anchors</b> are chosen, 2^30 below the key's seq and ack, only when the connection has no
 * live key in its ring: when it is first seen, and when a key not greater than max comes while
 * the ring holds no live key. Any live keys of the connection are then in the table, with ids at
 * most the connection's last id, which becomes the guard: until the window's head passes it, a key
 * greater than max is looked up in the table before it is appended. So everything a new anchor
 * breaks (the order of the table's keys) is covered by that lookup, and invariants 1–3 hold again.
 * What falls back to the table, exactly as every key did before this class: keys that come out of
 * order (retransmissions, reordering, times going backwards on a trace, a capture that sees a
 * connection late), and a whole connection for up to a window when its order values wrap (more
 * than 3 GiB of sequence space from its anchor) or its seq jumps back (a new ISN after port
 * reuse): then no key is greater than max until its ring's keys have died, and the next key
 * re-anchors. Keys that are not TCP segments between addressed hosts ({@link EventBlock#OTHER_KEY})
 * never come here.
 *
 * <p>Memory: per live connection 128 bytes of state (in a table at most half full) and a ring of
 * 8 bytes per live key (a power of two, at least 16); connections whose keys have all died are
 * dropped when the table of connections would grow. At most 16,384 connections have a state:
 * keys of further ones go to the probe table (one key per connection, as in a port scan, would
 * otherwise cost several hundred bytes per key); a state made later starts guarded by the last
 * key put there that way, which keeps invariant 2. Cost per key: one lookup of its connection,
 * an append, or a compare at the capture's cursor (and, when it misses, a search).
 */
final class ConnectionRings {

    /**
     * Fields of a connection's state, at {@code st[s + ...]} for its slot base s: its key word a,
     * its anchors (S|A), the order value and third word of its largest key, the last id of any of
     * its keys (it has no live key when that is below the window's head), the guard (table keys up
     * to that id may be greater than max), its ring's first and next positions, the two cursors,
     * and whether the slot is used.
     */
    private static final int A = 0;
    private static final int ANCHORS = 1;
    private static final int MAX_ORDER = 2;
    private static final int MAX_C = 3;
    private static final int LAST_ID = 4;
    private static final int GUARD = 5;
    private static final int RING_HEAD = 6;
    private static final int RING_TAIL = 7;
    /** Two captures' cursors: node, then the ring position it last found or appended. */
    private static final int NODE0 = 8;
    private static final int LAST0 = 9;
    private static final int NODE1 = 10;
    private static final int LAST1 = 11;
    private static final int USED = 12;
    private static final int STRIDE = 16;

    private long[] st;
    /** The connection at slot base s has its ring of ids at {@code rings[s / STRIDE]}. */
    private long[][] rings;
    private int slots;
    private int used;
    /** Rings of dropped connections, for reuse. */
    private final long[][] spare = new long[1024][];
    private int spareCount;

    /** The window whose keys this indexes: its ring holds the records, its probe table the keys out of order. */
    private final KeyWindow keys;

    /**
     * For tests, counts of the rare paths: keys searched in a ring past the cursors, then looked
     * up in the table; new anchors; keys greater than max looked up in the table under a guard.
     */
    long searches;
    long tableLookups;
    long reanchors;
    long guardedLookups;
    /** Times the table of connections was rebuilt (dead connections dropped). */
    long rebuilds;
    /** Keys of connections that had no state (the table of connections full). */
    long withoutStateKeys;

    ConnectionRings(KeyWindow keys) {
        this.keys = keys;
        slots = 16;
        st = new long[slots * STRIDE];
        rings = new long[slots][];
    }

    /** Order value of key word b (seq|ack) against the packed anchors (S|A): (seq − S)|(ack − A), unsigned halves. */
    static long order(long b, long anchors) {
        return (long) ((int) (b >>> 32) - (int) (anchors >>> 32)) << 32 | (((int) b - (int) anchors) & 0xffff_ffffL);
    }

    /**
     * The id of the live key (a, b, c) (TCP: c ≥ 0), appending it to the window when absent:
     * {@link KeyWindow#inserted} and {@link KeyWindow#found} tell as after
     * {@link KeyWindow#findOrInsert}. The key's table hash is computed only when the table is
     * asked (blocks carry none for TCP segments).
     */
    long findOrInsert(int node, long a, long b, long c, long time) {
        int s = slotOf(a, b);
        if (s < 0) {
            return withoutState(a, b, c, time);
        }
        long[] st = this.st;
        int last = st[s + NODE0] == node ? s + LAST0 : cursor(s, node);
        long o = order(b, st[s + ANCHORS]);
        long mo = st[s + MAX_ORDER];
        if (Long.compareUnsigned(o, mo) > 0 || (o == mo && c > st[s + MAX_C])) {
            if (st[s + GUARD] >= keys.head) {
                return guarded(s, last, a, b, c, time, o);
            }
            return append(s, last, a, b, c, time, o);
        }
        return notGreater(s, last, a, b, c, time, o);
    }

    /**
     * The index in {@link #st} of capture {@code node}'s last position on the connection at slot
     * base s: the second cursor, or the first for a node that has none yet, which then takes the
     * second cursor over (a third capture of a connection shares it with the second), starting
     * at the ring's last position.
     */
    private int cursor(int s, int node) {
        long[] st = this.st;
        if (st[s + NODE1] == node) {
            return s + LAST1;
        }
        if (st[s + NODE0] < 0) {
            st[s + NODE0] = node;
            st[s + LAST0] = st[s + RING_TAIL] - 1;
            return s + LAST0;
        }
        st[s + NODE1] = node;
        st[s + LAST1] = st[s + RING_TAIL] - 1;
        return s + LAST1;
    }

    /** A key greater than the connection's max: appended to the window and to the connection's ring. */
    private long append(int s, int last, long a, long b, long c, long time, long o) {
        long id = keys.append(a, b, c, time);
        long[] st = this.st;
        long[] ring = rings[s / STRIDE];
        long t = st[s + RING_TAIL];
        if (t - st[s + RING_HEAD] == ring.length) {
            ring = fullRing(s);
        }
        ring[(int) t & (ring.length - 1)] = id;
        st[s + RING_TAIL] = t + 1;
        st[last] = t;
        st[s + MAX_ORDER] = o;
        st[s + MAX_C] = c;
        st[s + LAST_ID] = id;
        return id;
    }

    /** A key greater than max while keys of the table from before the last anchors may live: the table is asked first. */
    private long guarded(int s, int last, long a, long b, long c, long time, long o) {
        guardedLookups++;
        long id = keys.find(a, b, c, KeyWindow.tableHash(a, b, c));
        if (id >= 0) {
            keys.found = keys.chunk(id);
            keys.inserted = false;
            return id;
        }
        return append(s, last, a, b, c, time, o);
    }

    /**
     * A key not greater than its connection's max: first the ring's positions after and at the
     * capture's last one (a capture sees the connection's segments in order: the next one, or the
     * same again), then a search of the ring's live part, then the table (where it is inserted
     * when absent).
     */
    private long notGreater(int s, int last, long a, long b, long c, long time, long o) {
        long[] st = this.st;
        long[] ring = rings[s / STRIDE];
        int mask = ring.length - 1;
        long p = st[last] + 1;
        long lo = st[s + RING_HEAD];
        long hi = st[s + RING_TAIL];
        long id = liveAt(ring, mask, p, lo, hi, b, c);
        if (id >= 0) {
            st[last] = p;
            return id;
        }
        id = liveAt(ring, mask, p - 1, lo, hi, b, c);
        if (id >= 0) {
            return id;
        }
        return searched(s, last, a, b, c, time, o);
    }

    /**
     * The id at ring position p when p is in [lo, hi) and holds the live key (b, c) of the
     * connection (as {@link KeyWindow#findOrInsert} finding it), else -1.
     */
    private long liveAt(long[] ring, int mask, long p, long lo, long hi, long b, long c) {
        if (p < lo || p >= hi) {
            return -1;
        }
        long id = ring[(int) p & mask];
        if (id < keys.head) { // dead
            return -1;
        }
        long[] r = keys.chunk(id);
        int e = KeyWindow.at(id);
        if (r[e + 1] != b || r[e + 2] != c) {
            return -1;
        }
        keys.found = r;
        keys.inserted = false;
        return id;
    }

    /** {@link #notGreater} when the cursor did not hold the key. */
    private long searched(int s, int last, long a, long b, long c, long time, long o) {
        searches++;
        long[] st = this.st;
        long head = keys.head;
        long[] ring = rings[s / STRIDE];
        int mask = ring.length - 1;
        long lo = dropDead(s, ring);
        long hi = st[s + RING_TAIL];
        if (lo == hi) {
            // no live key in the ring: new anchors, any live key of the connection is in the table (guarded)
            reanchors++;
            st[s + GUARD] = st[s + LAST_ID];
            st[s + ANCHORS] = anchors(b);
            st[s + MAX_ORDER] = 0;
            st[s + MAX_C] = -1;
            long o2 = order(b, st[s + ANCHORS]);
            return st[s + GUARD] >= head ? guarded(s, last, a, b, c, time, o2) : append(s, last, a, b, c, time, o2);
        }
        long p = search(ring, mask, lo, hi - 1, Math.max(lo, Math.min(hi - 1, st[last] + 1)), o, c, st[s + ANCHORS]);
        if (p >= 0) {
            st[last] = p;
            long id = ring[(int) p & mask];
            keys.found = keys.chunk(id);
            keys.inserted = false;
            return id;
        }
        tableLookups++;
        long id = keys.findOrInsert(a, b, c, KeyWindow.tableHash(a, b, c), time);
        if (keys.inserted) {
            st[s + LAST_ID] = id;
        }
        return id;
    }

    /** Anchors 2^30 below a key's seq and ack. */
    private static long anchors(long b) {
        return (long) ((int) (b >>> 32) - (1 << 30)) << 32 | (((int) b - (1 << 30)) & 0xffff_ffffL);
    }

    /**
     * Compares key (o, c) with the key of ring position q: negative, 0, positive.
     */
    private int compareAt(long[] ring, int mask, long q, long o, long c, long anchors) {
        long id = ring[(int) q & mask];
        long[] r = keys.chunk(id);
        int e = KeyWindow.at(id);
        long eo = order(r[e + 1], anchors);
        if (eo != o) {
            return Long.compareUnsigned(o, eo);
        }
        return Long.compare(c, r[e + 2]);
    }

    /**
     * The ring position in [lo, hi] holding key (o, c), or -1: galloping from position p towards
     * the key, then a binary search between the last two positions passed.
     */
    private long search(long[] ring, int mask, long lo, long hi, long p, long o, long c, long anchors) {
        int cmp = compareAt(ring, mask, p, o, c, anchors);
        if (cmp == 0) {
            return p;
        }
        long l;
        long r;
        if (cmp > 0) {
            l = p; // key after l, before r
            long step = 1;
            while (true) {
                long q = l + step;
                if (q > hi) {
                    r = hi + 1;
                    break;
                }
                int k = compareAt(ring, mask, q, o, c, anchors);
                if (k == 0) {
                    return q;
                }
                if (k < 0) {
                    r = q;
                    break;
                }
                l = q;
                step <<= 1;
            }
        } else {
            r = p;
            long step = 1;
            while (true) {
                long q = r - step;
                if (q < lo) {
                    l = lo - 1;
                    break;
                }
                int k = compareAt(ring, mask, q, o, c, anchors);
                if (k == 0) {
                    return q;
                }
                if (k > 0) {
                    l = q;
                    break;
                }
                r = q;
                step <<= 1;
            }
        }
        while (r - l > 1) {
            long m = (l + r) >>> 1;
            int k = compareAt(ring, mask, m, o, c, anchors);
            if (k == 0) {
                return m;
            }
            if (k > 0) {
                l = m;
            } else {
                r = m;
            }
        }
        return -1;
    }

    private static int hash(long a) {
        long h = a * 0x9E3779B97F4A7C15L;
        return (int) (h ^ h >>> 32);
    }

    /** The slot base of connection a, made (anchored at key word b, nothing live) when absent. */
    private int slotOf(long a, long b) {
        int mask = slots - 1;
        int i = hash(a) & mask;
        while (true) {
            int s = i * STRIDE;
            if (st[s + USED] == 0) {
                break;
            }
            if (st[s + A] == a) {
                return s;
            }
            i = (i + 1) & mask;
        }
        if ((used + 1) * 2 > slots) {
            if (keys.head <= noRoomUntil) {
                return -1;
            }
            rebuild();
            if ((used + 1) * 2 > slots) {
                // as many live connections as the table may hold: none is made until the keys
                // live now have died
                noRoomUntil = keys.tail;
                return -1;
            }
            return slotOf(a, b);
        }
        int s = i * STRIDE;
        st[s + A] = a;
        st[s + ANCHORS] = anchors(b);
        st[s + MAX_ORDER] = 0;
        st[s + MAX_C] = -1;
        // keys of the connection put in the table while it had no state may live: guarded, and
        // the connection is kept as long as they may
        st[s + LAST_ID] = withoutStateLastId;
        st[s + GUARD] = withoutStateLastId;
        st[s + RING_HEAD] = 0;
        st[s + RING_TAIL] = 0;
        st[s + NODE0] = -1;
        st[s + NODE1] = -1;
        st[s + USED] = 1;
        rings[i] = spareCount > 0 ? spare[--spareCount] : new long[16];
        used++;
        return s;
    }

    /**
     * The table of connections would be half full: connections with no live key (their last id
     * below the window's head) are dropped, their rings kept for reuse, and the table doubles
     * when the rest still fill a quarter of it.
     */
    private void rebuild() {
        rebuilds++;
        long head = keys.head;
        long[] old = st;
        long[][] oldRings = rings;
        int oldSlots = slots;
        int live = 0;
        for (int i = 0; i < oldSlots; i++) {
            int s = i * STRIDE;
            if (old[s + USED] != 0 && old[s + LAST_ID] >= head) {
                live++;
            }
        }
        int n = oldSlots;
        while ((live + 1) * 4 > n && n < maxSlots) {
            n *= 2;
        }
        st = new long[n * STRIDE];
        rings = new long[n][];
        slots = n;
        used = 0;
        int mask = n - 1;
        for (int j = 0; j < oldSlots; j++) {
            int s = j * STRIDE;
            if (old[s + USED] == 0) {
                continue;
            }
            if (old[s + LAST_ID] < head) {
                if (spareCount < spare.length && oldRings[j].length == 16) {
                    spare[spareCount++] = oldRings[j]; // larger rings are left to the collector
                }
                continue;
            }
            int i = hash(old[s + A]) & mask;
            while (st[i * STRIDE + USED] != 0) {
                i = (i + 1) & mask;
            }
            System.arraycopy(old, s, st, i * STRIDE, STRIDE);
            rings[i] = oldRings[j];
            used++;
        }
    }

    /**
     * A key of a connection that has no state (the table of connections holds as many live ones as
     * it may): in the probe table, found or inserted. Its id is remembered: a state made later for
     * any connection guards the keys inserted so far this way.
     */
    private long withoutState(long a, long b, long c, long time) {
        withoutStateKeys++;
        long id = keys.findOrInsert(a, b, c, KeyWindow.tableHash(a, b, c), time);
        if (keys.inserted) {
            withoutStateLastId = id;
        }
        return id;
    }

    /** The last id inserted by {@link #withoutState} (-1: none). */
    private long withoutStateLastId = -1;
    /** No connection state is made while the window's head is at most this id (the table was full of live ones). */
    private long noRoomUntil = -1;
    /**
     * At most this many slots in the table of connections (128 bytes each), so at most half as
     * many live connections: 16,384 by default (4 MB); beyond, keys of new connections go to the
     * probe table, as every key did before this class (a window of a port scan or of a million
     * short connections would otherwise cost hundreds of bytes per key).
     */
    private int maxSlots = 1 << 15;

    /** For tests: a smaller table of connections (a power of two, at least 16). */
    void maxSlots(int n) {
        maxSlots = n;
    }

    /**
     * Drops the dead ids at the front of the ring of the connection at slot base s (ids die in
     * increasing order: those below the window's head) and returns its first live position.
     */
    private long dropDead(int s, long[] ring) {
        int mask = ring.length - 1;
        long head = keys.head;
        long lo = st[s + RING_HEAD];
        long hi = st[s + RING_TAIL];
        while (lo < hi && ring[(int) lo & mask] < head) {
            lo++;
        }
        st[s + RING_HEAD] = lo;
        return lo;
    }

    /** The ring of the connection at slot base s is full: its dead ids are dropped, and it doubles if none was. */
    private long[] fullRing(int s) {
        long[] old = rings[s / STRIDE];
        int oldMask = old.length - 1;
        long lo = dropDead(s, old);
        if (lo > st[s + RING_TAIL] - old.length) {
            return old;
        }
        long[] ring = new long[old.length * 2];
        int mask = ring.length - 1;
        for (long q = st[s + RING_HEAD]; q < st[s + RING_TAIL]; q++) {
            ring[(int) q & mask] = old[(int) q & oldMask];
        }
        rings[s / STRIDE] = ring;
        return ring;
    }
}
