package org.tracesync.core.accumulate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * The two half hulls of a pair's messages per time bucket (DESIGN §6): what piecewise estimation
 * needs of a long trace whose clocks are not linear over its whole span. A piece made of whole
 * buckets is feasible exactly when the hulls of its buckets admit a line, so buckets summarize
 * the messages without loss for pieces whose knots lie on bucket boundaries. They are also the
 * only place a message goes: the pair's global half hulls are the hulls of the buckets' vertices
 * ({@link #addVerticesTo}), since a vertex of the hull of all points is a vertex of its bucket's.
 *
 * <p>Buckets: {@code [k·w, (k+1)·w)} on the abscissa node's clock (absolute ns), w the width
 * (initially {@link #INITIAL_WIDTH}), each made of {@link #SUB_BUCKETS} sub-buckets of width
 * w / SUB_BUCKETS, and a message goes into its <em>sub-bucket's</em> hulls. Two resolutions are
 * read: {@link #buckets} gives each bucket's half hulls (the hull of its sub-buckets' vertices,
 * what the greedy scans, the bounds and the global program use), {@link #fine} one bucket's
 * sub-bucket hulls concatenated, a polyline on the right side of every point that follows a
 * bend of the clock inside the bucket (a slew's corner, which a bucket's hull edge bridges) at a
 * quarter of the width; the estimator reads it only where it joins pieces. Points are the
 * pair's rebased coordinates (u, v), as in {@link PairAccumulator}.
 *
 * <p>Storage is per sub-bucket. The latest sub-buckets stay open ({@link HalfHull}s in a ring of
 * 16 slots indexed by key, whose hulls are reused once sealed; an older one reopened by a
 * late message waits beside them); older ones are sealed into one list of vertices
 * ({@link LongBlockList}: growing it copies nothing already stored), indexed by key in sorted
 * arrays. A sealed vertex takes one long: u from its sub-bucket's start (below 2^32) and v from
 * its sub-bucket's base (within 2^31 ns), which holds unless latencies in one sub-bucket differ
 * by seconds; such a sub-bucket keeps two longs a vertex. When more than {@link #MAX_BUCKETS}
 * buckets exist, the width doubles and neighbours merge (the hull of a union is the hull of the
 * hulls; the grid is absolute, so sub-buckets nest exactly). Memory is therefore
 * O(MAX_BUCKETS · SUB_BUCKETS · h_sub) per pair whatever the trace length — flat — and the knots'
 * resolution is the width: 1 s (sub-buckets of 250 ms) up to 36 h of trace, 2 s up to 72 h, 4 s
 * up to 145 h. A 500 ppm slew lasting a few seconds therefore keeps 1-s buckets around its corners
 * over a day of trace, where 4-s buckets made it look like a step. Measured (docs/PERFORMANCE.md,
 * "Long traces"): 8 bytes per hull vertex and 28 per sub-bucket; a day at 98 messages/s each way
 * keeps 3.64 M sub-bucket vertices (2.96 times the 1.23 M of the 1-s buckets' hulls), 39 MB
 * (65 MB with 16 bytes a vertex).
 *
 * <p>Mergeable: {@link #addAllShifted} gives the same sub-buckets (at the coarser of the two
 * widths) as accumulating every message in one; it is one pass over both sorted stores; the parts
 * of a trace read in parallel, merged in time order, are appended to the store without copying
 * it (their packed vertices copied as they are). Cost: amortized O(1) per in-order message (one
 * unsigned range check against the last sub-bucket used, then a hull push; the rest is out of
 * line, so the JIT compiles that path small and a trap elsewhere does not recompile it),
 * O(log B + h log h) to reopen a sealed sub-bucket for a late message (B sub-buckets; O(B) to move
 * the sorted arrays), O(total vertices) for a coarsening, a merge or a read of every bucket.
 */
public final class TimeBuckets {

    /** Width of the buckets until the trace grows past {@link #MAX_BUCKETS} of them: 1 s. */
    public static final long INITIAL_WIDTH = 1_000_000_000L;

    /** Beyond this many buckets the width doubles. */
    public static final int MAX_BUCKETS = 131_072;

    /** Sub-buckets per bucket: each keeps its own hulls (a quarter of the width: 250 ms at 1 s). */
    public static final int SUB_BUCKETS = 4;

    /** Open sub-buckets more than this many sub-widths behind the latest one are sealed (2 widths). */
    private static final int OPEN_SPAN = 2 * SUB_BUCKETS;

    /** A sealed sub-bucket's base of v when its vertices are stored unpacked, two longs each. */
    private static final long WIDE = Long.MIN_VALUE;

    /** Slots of the ring of open sub-buckets: a power of two above OPEN_SPAN (keys in the window differ mod RING). */
    private static final int RING = 16;

    private final long x0;
    private long sub = INITIAL_WIDTH / SUB_BUCKETS; // the sub-buckets' width; a bucket's is SUB_BUCKETS times it
    // the open sub-buckets whose keys lie in the window [latestKey − OPEN_SPAN, latestKey], at slot
    // key mod RING; a slot keeps its hulls (arrays) once sealed, for the next key that maps to it.
    // Older sub-buckets reopened by a late message wait in strays
    private Open[] ring = new Open[RING];
    private TreeMap<Long, Open> strays; // null until a late message reopens an older sub-bucket
    private int openCount; // open sub-buckets, in the ring and in strays
    // the sub-bucket of the last point: its hulls and its u range [lastFrom, lastFrom + lastSpan);
    // lastSpan is 0 when none is cached (not serialized: 0 after a copy, so the next point looks it up)
    private transient Open last;
    private transient HalfHull lastP;
    private transient HalfHull lastQ;
    private transient long lastFrom;
    private transient long lastSpan;
    // sealed sub-buckets, sorted by key (a sub-bucket's key; its bucket's is key / SUB_BUCKETS):
    // key, offset into pool, vertex counts, and the base of v for packed vertices (WIDE: unpacked)
    private long[] sealedKey = new long[0];
    private int[] sealedOffset = new int[0];
    private int[] sealedP = new int[0];
    private int[] sealedQ = new int[0];
    private long[] sealedBaseV = new long[0];
    private int sealed;
    // the sealed sub-buckets' vertices, a → b ones then b → a ones, each in one long (u − the
    // sub-bucket's start in the high 32 bits, unsigned; v − its base in the low 32, signed) or, for
    // a sub-bucket whose values do not fit (WIDE), in two (u, v)
    private LongBlockList pool = new LongBlockList();
    private long latestKey = Long.MIN_VALUE;
    private int live; // longs of the pool still in use (the rest: vertices of reopened sub-buckets)
    private int sealedBuckets; // distinct buckets among the sealed sub-buckets

    private static final class Open {
        long key;
        boolean open; // false: a ring slot whose sub-bucket was sealed (its arrays wait for reuse)
        final HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        final HalfHull q = new HalfHull(HalfHull.Side.UPPER);

        /** Opens this for sub-bucket {@code key}, with empty hulls. */
        Open reset(long key) {
            this.key = key;
            this.open = true;
            p.clear();
            q.clear();
            return this;
        }
    }

    /**
     * One bucket of a pair: its key and two polylines through some of its points, u strictly
     * increasing, each vertex a point: {@code (pu, pv)} on or below every a → b point of the
     * bucket, {@code (qu, qv)} on or above every b → a point. From {@link #buckets()} they are the
     * bucket's half hulls (convex); from {@link #fine} the concatenation of its
     * {@link #SUB_BUCKETS} sub-buckets' half hulls (not convex: no point lies between two
     * sub-buckets' hulls, so the joining edge is on the right side of every point too). The fine
     * polyline holds every vertex of the hull and follows the points more closely where the clock
     * bends inside the bucket; both have the same hull.
     */
    public record Bucket(long key, long[] pu, long[] pv, long[] qu, long[] qv) {
    }

    /** @param x0 the owner's origin: a point's absolute a-time is {@code x0 + u}. */
    public TimeBuckets(long x0) {
        this.x0 = x0;
    }

    /** Current bucket width (ns). */
    public long width() {
        return sub * SUB_BUCKETS;
    }

    /**
     * Adds an a → b point (rebased coordinates). The per-message path: one unsigned range check
     * against the last sub-bucket used, then a hull push; anything else (another sub-bucket,
     * sealing, a late message) is {@link #locate}, a separate method, so that what the JIT learns
     * there (and any trap it takes there) does not recompile this path.
     */
    public void addP(long u, long v) {
        if (((u - lastFrom) ^ Long.MIN_VALUE) >= (lastSpan ^ Long.MIN_VALUE)) {
            locate(u);
        }
        lastP.add(u, v);
    }

    /** Adds a b → a point. */
    public void addQ(long u, long v) {
        if (((u - lastFrom) ^ Long.MIN_VALUE) >= (lastSpan ^ Long.MIN_VALUE)) {
            locate(u);
        }
        lastQ.add(u, v);
    }

    /** The sub-bucket key of {@code u}. */
    private long key(long u) {
        return Math.floorDiv(x0 + u, sub);
    }

    /** Start of bucket {@code key} in rebased coordinates (u). */
    public long startU(long key) {
        return key * width() - x0;
    }

    /** The bucket of sub-bucket {@code subKey}. */
    private static long bucketOf(long subKey) {
        return Math.floorDiv(subKey, SUB_BUCKETS);
    }

    /** True when sealed sub-bucket {@code i} exists and lies in the bucket of sub-bucket {@code key}. */
    private boolean sameBucket(int i, long key) {
        return i >= 0 && i < sealed && bucketOf(sealedKey[i]) == bucketOf(key);
    }

    /** Makes the sub-bucket of {@code u} the cached one (lastP, lastQ, its range). */
    private void locate(long u) {
        Open o = find(u);
        last = o;
        lastP = o.p;
        lastQ = o.q;
        lastFrom = o.key * sub - x0;
        lastSpan = sub;
    }

    /** The open sub-bucket of {@code u}: an open one, a sealed one reopened, or a new one. */
    private Open find(long u) {
        long key = key(u);
        if (key > latestKey) {
            latestKey = key;
            sealOld(); // may coarsen: the width, hence the key, can change
            key = key(u);
            latestKey = Math.max(latestKey, key);
        }
        Open o;
        if (key >= latestKey - OPEN_SPAN) {
            int slot = slot(key);
            o = ring[slot];
            if (o == null) {
                o = ring[slot] = new Open();
            } else if (o.open) {
                assert o.key == key : "ring slot " + slot + " holds " + o.key + ", not " + key;
                return o; // the window's keys differ mod RING: an open slot holds this key
            }
            o.reset(key);
        } else {
            o = stray(key);
            if (o.open) {
                return o;
            }
            o.open = true;
        }
        openCount++;
        if (sealed > 0 && key <= sealedKey[sealed - 1]) {
            reopen(o);
        }
        return o;
    }

    private static int slot(long key) {
        return (int) key & (RING - 1);
    }

    /** The stray for {@code key} (older than the window), found or made (closed, empty). */
    private Open stray(long key) {
        if (strays == null) {
            strays = new TreeMap<>();
        }
        Open o = strays.get(key);
        if (o == null) {
            o = new Open().reset(key);
            o.open = false;
            strays.put(key, o);
        }
        return o;
    }

    /** A late message for a sealed sub-bucket: its vertices go back into {@code o}'s hulls. */
    private void reopen(Open o) {
        int i = Arrays.binarySearch(sealedKey, 0, sealed, o.key);
        if (i >= 0) {
            addBucket(this, i, 0, 0, o.p, o.q);
            removeSealed(i);
        }
    }

    /** Seals the open sub-buckets older than the window, in key order, and coarsens past the cap. */
    private void sealOld() {
        sealOpen(latestKey - OPEN_SPAN);
        // each open sub-bucket adds at most one bucket: count them only when that could pass the cap
        if (sealedBuckets + openCount > MAX_BUCKETS && bucketCount() > MAX_BUCKETS) {
            coarsen();
        }
    }

    /**
     * Seals every open sub-bucket whose key is below {@code below}, in key order (appended to the
     * sealed store when they come after it): the strays, then the ring's, oldest first.
     */
    private void sealOpen(long below) {
        if (strays != null) {
            sealStrays(below);
        }
        while (true) {
            Open oldest = null;
            for (Open o : ring) {
                if (o != null && o.open && o.key < below && (oldest == null || o.key < oldest.key)) {
                    oldest = o;
                }
            }
            if (oldest == null) {
                return;
            }
            close(oldest);
        }
    }

    private void sealStrays(long below) {
        while (!strays.isEmpty() && strays.firstKey() < below) {
            close(strays.pollFirstEntry().getValue());
        }
    }

    /** Seals open sub-bucket {@code o}; a ring slot keeps it (closed) for reuse. */
    private void close(Open o) {
        seal(o);
        o.open = false;
        openCount--;
        if (o == last) {
            last = null;
            lastSpan = 0;
        }
    }

    /** The keys of the open sub-buckets, ascending. */
    private long[] openKeys() {
        long[] keys = new long[openCount];
        int n = 0;
        if (strays != null) {
            for (long k : strays.keySet()) {
                keys[n++] = k;
            }
        }
        for (Open o : ring) {
            if (o != null && o.open) {
                keys[n++] = o.key;
            }
        }
        Arrays.sort(keys, 0, n);
        return keys;
    }

    /** Buckets holding a sealed or open sub-bucket. O(open · log sealed). */
    private int bucketCount() {
        int n = sealedBuckets;
        long prev = Long.MIN_VALUE;
        for (long key : openKeys()) { // ascending
            long bucket = bucketOf(key);
            if (bucket == prev) {
                continue;
            }
            prev = bucket;
            int i = Arrays.binarySearch(sealedKey, 0, sealed, bucket * SUB_BUCKETS);
            int at = i >= 0 ? i : -i - 1;
            if (!sameBucket(at, key)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Seals {@code o} at its place in key order: at the end (messages in time order), else
     * {@link #insertAt}. The rare cases (growing the index, compacting the pool, a reopened
     * sub-bucket) are separate methods, so the JIT compiles this common path small.
     */
    private void seal(Open o) {
        int p = o.p.size();
        int q = o.q.size();
        if (p + q == 0) {
            return;
        }
        if (sealed == sealedKey.length) {
            growIndex();
        }
        if (pool.size() > 4 * live + 4096) {
            compactPool();
        }
        int at = sealed > 0 && sealedKey[sealed - 1] > o.key ? insertAt(o.key) : sealed;
        if (!sameBucket(at - 1, o.key) && !sameBucket(at, o.key)) {
            sealedBuckets++;
        }
        sealedKey[at] = o.key;
        sealedOffset[at] = pool.size();
        sealedP[at] = p;
        sealedQ[at] = q;
        sealedBaseV[at] = store(pool, o.key * sub - x0, sub, o.p, o.q);
        sealed++;
        live += pool.size() - sealedOffset[at];
    }

    /**
     * Appends the vertices of {@code p} then {@code q} (a sub-bucket starting at u = {@code startU},
     * {@code span} wide) to {@code to}, packed one long each when they fit (u − startU below
     * 2^32, v within 2^31 of the first vertex's v: always for 250-ms sub-buckets, unless the
     * latencies in one differ by seconds), else two longs each; gives the base of v, or WIDE.
     */
    private static long store(LongBlockList to, long startU, long span, HalfHull p, HalfHull q) {
        long base = p.size() > 0 ? p.v(0) : q.v(0);
        if (span > 0xFFFF_FFFFL || base == WIDE || !p.vsWithin(base) || !q.vsWithin(base)) {
            p.appendTo(to);
            q.appendTo(to);
            return WIDE;
        }
        p.appendPackedTo(to, startU, base);
        q.appendPackedTo(to, startU, base);
        return base;
    }

    /** Longs of the pool that sealed sub-bucket {@code i} takes. */
    private int words(int i) {
        int n = sealedP[i] + sealedQ[i];
        return sealedBaseV[i] == WIDE ? 2 * n : n;
    }

    /** Vertex {@code k} of sealed sub-bucket {@code i} (its a → b ones, then its b → a ones): u. */
    private long vertexU(int i, int k) {
        if (sealedBaseV[i] == WIDE) {
            return pool.get(sealedOffset[i] + 2 * k);
        }
        return sealedKey[i] * sub - x0 + (pool.get(sealedOffset[i] + k) >>> 32);
    }

    /** Vertex {@code k} of sealed sub-bucket {@code i}: v. */
    private long vertexV(int i, int k) {
        long base = sealedBaseV[i];
        if (base == WIDE) {
            return pool.get(sealedOffset[i] + 2 * k + 1);
        }
        return base + (int) pool.get(sealedOffset[i] + k);
    }

    private void growIndex() {
        int cap = Math.max(4, sealed * 2);
        sealedKey = Arrays.copyOf(sealedKey, cap);
        sealedOffset = Arrays.copyOf(sealedOffset, cap);
        sealedP = Arrays.copyOf(sealedP, cap);
        sealedQ = Arrays.copyOf(sealedQ, cap);
        sealedBaseV = Arrays.copyOf(sealedBaseV, cap);
    }

    /** Makes room in the index for {@code key} (before the last sealed one) and gives its place. */
    private int insertAt(long key) {
        int at = -Arrays.binarySearch(sealedKey, 0, sealed, key) - 1;
        int n = sealed - at;
        System.arraycopy(sealedKey, at, sealedKey, at + 1, n);
        System.arraycopy(sealedOffset, at, sealedOffset, at + 1, n);
        System.arraycopy(sealedP, at, sealedP, at + 1, n);
        System.arraycopy(sealedQ, at, sealedQ, at + 1, n);
        System.arraycopy(sealedBaseV, at, sealedBaseV, at + 1, n);
        return at;
    }

    /** Drops the vertices of reopened buckets from the pool. O(live vertices). */
    private void compactPool() {
        LongBlockList fresh = new LongBlockList();
        for (int i = 0; i < sealed; i++) {
            int off = sealedOffset[i];
            int n = words(i);
            sealedOffset[i] = fresh.size();
            for (int k = 0; k < n; k++) {
                fresh.add(pool.get(off + k));
            }
        }
        pool = fresh;
    }

    private void removeSealed(int i) {
        // the pool keeps the dead vertices until the next coarsening or compaction
        live -= words(i);
        if (!sameBucket(i - 1, sealedKey[i]) && !sameBucket(i + 1, sealedKey[i])) {
            sealedBuckets--;
        }
        int n = sealed - i - 1;
        System.arraycopy(sealedKey, i + 1, sealedKey, i, n);
        System.arraycopy(sealedOffset, i + 1, sealedOffset, i, n);
        System.arraycopy(sealedP, i + 1, sealedP, i, n);
        System.arraycopy(sealedQ, i + 1, sealedQ, i, n);
        System.arraycopy(sealedBaseV, i + 1, sealedBaseV, i, n);
        sealed--;
    }

    /**
     * Doubles the width until the buckets fit in three quarters of {@link #MAX_BUCKETS}, merging
     * neighbours: one doubling when the trace grows in time order (it halves the count, give or
     * take a bucket).
     */
    private void coarsen() {
        sealAll();
        long w = sub;
        while (distinctKeys(w) > MAX_BUCKETS / 4 * 3) {
            w *= 2;
        }
        regroup(w, null, 0, 0);
    }

    /** How many buckets the sealed sub-buckets make at sub-width {@code w} (a multiple of the current one). */
    private int distinctKeys(long w) {
        long r = w / sub * SUB_BUCKETS;
        int n = 0;
        long prev = 0;
        for (int i = 0; i < sealed; i++) {
            long k = Math.floorDiv(sealedKey[i], r);
            if (n == 0 || k != prev) {
                n++;
                prev = k;
            }
        }
        return n;
    }

    /**
     * Folds {@code other}'s buckets into this one, their points shifted by (du, dv) (another origin),
     * at the coarser of the two widths: the same buckets as accumulating every message here.
     */
    public void addAllShifted(TimeBuckets other, long du, long dv) {
        sealAll();
        other.sealAll();
        if (!appendShifted(other, du, dv)) {
            regroup(Math.max(sub, other.sub), other, du, dv);
        }
        while (sealedBuckets > MAX_BUCKETS) {
            regroup(sub * 2, null, 0, 0);
        }
    }

    /**
     * The merge of a trace read in consecutive parts: when {@code other}'s buckets (same width) all
     * come at or after this one's last, they are appended (shifted), the one bucket both may hold
     * re-hulled; what is stored is not copied. The same buckets as {@link #regroup}. False, and
     * nothing changed, otherwise.
     */
    private boolean appendShifted(TimeBuckets other, long du, long dv) {
        if (other.sub != sub || sealed == 0 || other.sealed == 0 || other.sealedKey[0] < sealedKey[sealed - 1]) {
            return false;
        }
        int mine = sealed - 1;
        int j = 0;
        int buckets = sealedBuckets + other.sealedBuckets - (sameBucket(mine, other.sealedKey[0]) ? 1 : 0);
        if (other.sealedKey[0] == sealedKey[mine]) {
            if (sealedOffset[mine] + words(mine) != pool.size()) {
                return false; // the shared bucket's vertices are not the pool's last ones (it was reopened)
            }
            HalfHull hp = new HalfHull(HalfHull.Side.LOWER);
            HalfHull hq = new HalfHull(HalfHull.Side.UPPER);
            addBucket(this, mine, 0, 0, hp, hq);
            addBucket(other, 0, du, dv, hp, hq);
            pool.truncate(sealedOffset[mine]);
            live -= words(mine);
            sealedBaseV[mine] = store(pool, sealedKey[mine] * sub - x0, sub, hp, hq);
            sealedP[mine] = hp.size();
            sealedQ[mine] = hq.size();
            live += words(mine);
            j = 1;
        }
        int need = sealed + other.sealed - j;
        if (need > sealedKey.length) {
            int cap = Math.max(need, 2 * sealedKey.length);
            sealedKey = Arrays.copyOf(sealedKey, cap);
            sealedOffset = Arrays.copyOf(sealedOffset, cap);
            sealedP = Arrays.copyOf(sealedP, cap);
            sealedQ = Arrays.copyOf(sealedQ, cap);
            sealedBaseV = Arrays.copyOf(sealedBaseV, cap);
        }
        for (; j < other.sealed; j++) {
            int off = other.sealedOffset[j];
            int count = other.sealedP[j] + other.sealedQ[j];
            long base = other.sealedBaseV[j];
            sealedKey[sealed] = other.sealedKey[j];
            sealedOffset[sealed] = pool.size();
            sealedP[sealed] = other.sealedP[j];
            sealedQ[sealed] = other.sealedQ[j];
            if (base != WIDE && du == other.x0 - x0 && Math.addExact(base, dv) != WIDE) {
                // packed: u relative to the sub-bucket's start (the same absolute grid) and v to
                // the base are unchanged by the shift; only the base moves
                for (int m = 0; m < count; m++) {
                    pool.add(other.pool.get(off + m));
                }
                sealedBaseV[sealed] = base + dv;
            } else {
                for (int m = 0; m < count; m++) {
                    pool.add(Math.addExact(other.vertexU(j, m), du));
                    pool.add(Math.addExact(other.vertexV(j, m), dv));
                }
                sealedBaseV[sealed] = WIDE;
            }
            live += words(sealed);
            sealed++;
        }
        latestKey = Math.max(latestKey, sealedKey[sealed - 1]);
        sealedBuckets = buckets;
        return true;
    }

    /**
     * Replaces the (sealed, sorted) content by the buckets at width {@code w} of its own vertices and,
     * when {@code other} is given, of {@code other}'s (sealed, sorted) shifted by (du, dv). Both
     * widths divide {@code w} and the grid is absolute, so a bucket's key at w is its key divided by
     * the ratio; buckets are walked in key order, and a new bucket made of one old bucket copies its
     * vertices (a hull, shifted or not, is its own hull). O(total vertices + re-hulled vertices · log).
     */
    private void regroup(long w, TimeBuckets other, long du, long dv) {
        long ra = w / sub;
        int nb = other == null ? 0 : other.sealed;
        long rb = other == null ? 1 : w / other.sub;
        int cap = sealed + nb;
        long[] nKey = new long[Math.max(4, cap)];
        int[] nOff = new int[nKey.length];
        int[] nP = new int[nKey.length];
        int[] nQ = new int[nKey.length];
        long[] nBase = new long[nKey.length];
        LongBlockList nPool = new LongBlockList();
        int n = 0;
        HalfHull hp = null;
        HalfHull hq = null;
        int i = 0;
        int j = 0;
        while (i < sealed || j < nb) {
            long ka = i < sealed ? Math.floorDiv(sealedKey[i], ra) : Long.MAX_VALUE;
            long kb = j < nb ? Math.floorDiv(other.sealedKey[j], rb) : Long.MAX_VALUE;
            long k = Math.min(ka, kb);
            int i2 = i;
            while (i2 < sealed && Math.floorDiv(sealedKey[i2], ra) == k) {
                i2++;
            }
            int j2 = j;
            while (j2 < nb && Math.floorDiv(other.sealedKey[j2], rb) == k) {
                j2++;
            }
            nKey[n] = k;
            nOff[n] = nPool.size();
            if (hp == null) {
                hp = new HalfHull(HalfHull.Side.LOWER);
                hq = new HalfHull(HalfHull.Side.UPPER);
            }
            hp.clear();
            hq.clear();
            // one old sub-bucket: its hull again (pushed in order, nothing is popped); several: re-hulled
            for (int m = i; m < i2; m++) {
                addBucket(this, m, 0, 0, hp, hq);
            }
            for (int m = j; m < j2; m++) {
                addBucket(other, m, du, dv, hp, hq);
            }
            nBase[n] = store(nPool, k * w - x0, w, hp, hq);
            nP[n] = hp.size();
            nQ[n] = hq.size();
            n++;
            i = i2;
            j = j2;
        }
        sub = w;
        sealedBuckets = 0;
        for (int k = 0; k < n; k++) {
            if (k == 0 || bucketOf(nKey[k]) != bucketOf(nKey[k - 1])) {
                sealedBuckets++;
            }
        }
        sealedKey = nKey;
        sealedOffset = nOff;
        sealedP = nP;
        sealedQ = nQ;
        sealedBaseV = nBase;
        sealed = n;
        pool = nPool;
        live = nPool.size();
        latestKey = n == 0 ? Long.MIN_VALUE : nKey[n - 1];
        last = null;
        lastSpan = 0;
    }

    private static void addBucket(TimeBuckets from, int i, long du, long dv, HalfHull p, HalfHull q) {
        int np = from.sealedP[i];
        int n = np + from.sealedQ[i];
        for (int k = 0; k < np; k++) {
            p.addFromSpan(Math.addExact(from.vertexU(i, k), du), Math.addExact(from.vertexV(i, k), dv));
        }
        for (int k = np; k < n; k++) {
            q.addFromSpan(Math.addExact(from.vertexU(i, k), du), Math.addExact(from.vertexV(i, k), dv));
        }
    }

    private void sealAll() {
        if (openCount > 0) {
            sealOpen(Long.MAX_VALUE);
        }
        last = null;
        lastSpan = 0;
    }

    /**
     * Pushes every bucket's vertices, in time order, into {@code p} (a → b) and {@code q} (b → a):
     * with empty hulls given, they become the half hulls of every point added or merged here
     * (each vertex of those is a vertex of its bucket's hull). Seals the open buckets.
     * O(total vertices), no allocation beyond the hulls'. From {@link #PARALLEL_SUB_BUCKETS}
     * sub-buckets on, into empty hulls, the later half's vertices go into hulls of their own on a
     * second thread, whose vertices are then pushed after the first half's: the hull of a point set
     * is unique (strict turns, one vertex per abscissa) and every point of the later half lies
     * right of the first half's, so p and q end the same, with the later half's pushes off this
     * thread (the whole pair's hull of a long trace, which a wandering clock's many sub-bucket
     * vertices make a tenth of a second's work after the read).
     */
    public void addVerticesTo(HalfHull p, HalfHull q) {
        addVerticesUnless(p, q, null);
    }

    /**
     * A question asked of the hulls of a part of the pair's sub-buckets while
     * {@link #addVerticesUnless} builds the whole ones: whether to stop (for the estimator, whether
     * that part's hulls already cross, so that the whole pair's do too and no one line will be
     * fitted). Asked from two threads at once: it must keep no state.
     */
    public interface PartStop {
        /** True to stop: {@code p} and {@code q} hold the half hulls of a run of sub-buckets (read only). */
        boolean stop(HalfHull p, HalfHull q);
    }

    /**
     * Sub-buckets in the first run that {@link #addVerticesUnless} asks about on each thread:
     * 2,048 (8.5 minutes of 1-s buckets); then 4,096, 8,192, … from the same start, while that
     * thread's half lasts. On a linear trace, a few questions about small hulls per thread.
     */
    static final int FIRST_ASK = 2048;

    /** Sub-buckets pushed between two looks at whether the other thread has stopped. */
    private static final int CHUNK = 1024;

    /**
     * {@link #addVerticesTo}, except that on the two-thread path (from {@link #PARALLEL_SUB_BUCKETS}
     * sub-buckets on, into empty hulls) each thread asks {@code stop} about the hulls of its
     * half's first {@link #FIRST_ASK} sub-buckets, then of twice as many, and so on. When either
     * is told to stop, both stop (the other within {@link #CHUNK} sub-buckets) and this returns
     * false, p and q holding part of the hulls only. Otherwise (and on the other paths, where it
     * is not asked, or when {@code stop} is null) the same pushes as {@link #addVerticesTo} and
     * true. Cost on top: the questions (O(log n) of them per thread) and a look at a shared flag
     * every {@link #CHUNK} sub-buckets.
     */
    public boolean addVerticesUnless(HalfHull p, HalfHull q, PartStop stop) {
        sealAll();
        if (sealed < PARALLEL_SUB_BUCKETS || !p.isEmpty() || !q.isEmpty()) {
            for (int i = 0; i < sealed; i++) {
                addBucket(this, i, 0, 0, p, q);
            }
            return true;
        }
        LaterVertices later = new LaterVertices(sealed / 2, p.side(), q.side(), stop);
        later.start("tracesync-hulls", true);
        if (stop == null) {
            for (int i = 0; i < later.from; i++) {
                addBucket(this, i, 0, 0, p, q);
            }
        } else if (!addAsking(0, later.from, p, q, stop, later)) {
            later.join();
            return false;
        }
        HalfHull[] hulls = later.join();
        if (hulls == null) {
            return false; // the later half was told to stop
        }
        p.addAll(hulls[0]);
        q.addAll(hulls[1]);
        return true;
    }

    /**
     * Pushes sealed sub-buckets [from, to) into p and q, asking {@code stop} after
     * {@link #FIRST_ASK} of them, twice as many, and so on; false as soon as it says stop (then
     * {@code shared.stopped} is set) or the other thread has set {@code shared.stopped}.
     */
    private boolean addAsking(int from, int to, HalfHull p, HalfHull q, PartStop stop, LaterVertices shared) {
        long ask = from + (long) FIRST_ASK;
        for (int i = from; i < to; ) {
            int end = Math.min(to, i + CHUNK);
            for (; i < end; i++) {
                addBucket(this, i, 0, 0, p, q);
            }
            if (shared.stopped) {
                return false;
            }
            if (i == ask && i < to) {
                if (stop.stop(p, q)) {
                    shared.stopped = true;
                    return false;
                }
                ask = from + 2 * (ask - from);
            }
        }
        return true;
    }

    /** The half hulls of sealed sub-buckets [from, sealed) ({@link #addVerticesTo}'s later half). */
    private final class LaterVertices extends SecondThreadTask<HalfHull[]> {
        private final int from;
        private final HalfHull.Side pSide;
        private final HalfHull.Side qSide;
        private final PartStop stop;
        /** Set by the thread told to stop (see {@link #addAsking}); the other stops at its next look. */
        volatile boolean stopped;

        LaterVertices(int from, HalfHull.Side pSide, HalfHull.Side qSide, PartStop stop) {
            this.from = from;
            this.pSide = pSide;
            this.qSide = qSide;
            this.stop = stop;
        }

        /** The later half's hulls, or null when either thread was told to stop. */
        @Override
        protected HalfHull[] compute() {
            HalfHull p = new HalfHull(pSide);
            HalfHull q = new HalfHull(qSide);
            if (stop == null) {
                for (int i = from; i < sealed; i++) {
                    addBucket(TimeBuckets.this, i, 0, 0, p, q);
                }
            } else if (!addAsking(from, sealed, p, q, stop, this)) {
                return null;
            }
            return new HalfHull[] {p, q};
        }
    }

    /**
     * Every bucket, sorted by key, with its half hulls (the hull of its sub-buckets' vertices).
     * Seals the open buckets. O(total vertices), on two threads from
     * {@link #PARALLEL_SUB_BUCKETS} sub-buckets on: each takes the next chunk of about
     * {@link #CHUNK_SUB_BUCKETS} sub-buckets (whole buckets) until none is left, so that neither
     * waits long for the other (a fixed half each left the first thread waiting 15–25 ms for
     * the second on a 24 h wandering file, the second slower while the JIT compiled), and the
     * chunks' buckets are listed in order.
     */
    public List<Bucket> buckets() {
        sealAll();
        List<Bucket> out = new ArrayList<>(sealedBuckets);
        if (sealed < PARALLEL_SUB_BUCKETS) {
            addBuckets(0, sealed, out);
            return out;
        }
        BucketChunks chunks = new BucketChunks((sealed + CHUNK_SUB_BUCKETS - 1) / CHUNK_SUB_BUCKETS);
        chunks.start("tracesync-buckets", true);
        chunks.take();
        chunks.join();
        for (List<Bucket> part : chunks.parts) {
            out.addAll(part);
        }
        return out;
    }

    /**
     * From this many sealed sub-buckets on (about an hour of 1-s buckets), {@link #buckets}
     * builds them on two threads: the buckets are independent and the sealed store is only read.
     */
    static final int PARALLEL_SUB_BUCKETS = 16_384;

    /** Sub-buckets in a chunk of {@link #buckets}' work (512 buckets of 1 s), before rounding to a bucket's start. */
    static final int CHUNK_SUB_BUCKETS = 2048;

    /** The first sealed sub-bucket of {@link #buckets}' chunk c: c · CHUNK_SUB_BUCKETS moved on to a bucket's start. */
    private int chunkStart(int c) {
        long i = (long) c * CHUNK_SUB_BUCKETS;
        if (i >= sealed) {
            return sealed;
        }
        int s = (int) i;
        while (s > 0 && s < sealed && bucketOf(sealedKey[s]) == bucketOf(sealedKey[s - 1])) {
            s++;
        }
        return s;
    }

    /**
     * {@link #buckets}' chunks: the caller and a second thread each {@link #take} the next chunk
     * not taken (an atomic counter) and list its buckets in {@code parts[c]}; the caller reads
     * {@code parts} after {@link #join}, which orders the second thread's writes before.
     */
    private final class BucketChunks extends SecondThreadTask<BucketChunks> {
        final List<Bucket>[] parts;
        private final java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();

        @SuppressWarnings("unchecked")
        BucketChunks(int count) {
            parts = new List[count];
        }

        void take() {
            for (int c = next.getAndIncrement(); c < parts.length; c = next.getAndIncrement()) {
                List<Bucket> part = new ArrayList<>();
                addBuckets(chunkStart(c), chunkStart(c + 1), part);
                parts[c] = part;
            }
        }

        @Override
        protected BucketChunks compute() {
            take();
            return this;
        }
    }

    /** Appends the buckets of sealed sub-buckets [from, to) (whole buckets), in key order, to {@code out}. */
    private void addBuckets(int from, int to, List<Bucket> out) {
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        for (int i = from; i < to; ) {
            int end = groupEnd(i);
            out.add(bucketHulls(i, end, p, q));
            i = end;
        }
    }

    /**
     * The bucket of sealed sub-buckets [from, to) (one bucket's), its hulls built in p and q (then
     * copied out). A method of its own, called once per bucket: the JIT compiles it once, instead
     * of compiling its loops into each of {@link #addBuckets}'s on-stack replacements (one per
     * thread that runs it, at whichever loop each happened to be).
     */
    private Bucket bucketHulls(int from, int to, HalfHull p, HalfHull q) {
        // one sub-bucket too (rare: its hulls are the bucket's, and pushing their vertices gives
        // them back, the hull of a point set being unique): no branch for it, which the JIT
        // compiled as a trap and recompiled this method for when it came
        p.clear();
        q.clear();
        for (int k = from; k < to; k++) {
            addBucket(this, k, 0, 0, p, q);
        }
        return new Bucket(bucketOf(sealedKey[from]), p.us(), p.vs(), q.us(), q.vs());
    }

    /**
     * Bucket {@code key} at the sub-buckets' resolution: the concatenation of its sub-buckets' half
     * hulls (see {@link Bucket}); null when it holds no message. Seals the open buckets. O(log
     * sealed + its vertices).
     */
    public Bucket fine(long key) {
        sealAll();
        int i = Arrays.binarySearch(sealedKey, 0, sealed, key * SUB_BUCKETS);
        int at = i >= 0 ? i : -i - 1;
        if (at >= sealed || bucketOf(sealedKey[at]) != key) {
            return null;
        }
        return polylines(at, groupEnd(at));
    }

    /** The end (exclusive) of the run of sealed sub-buckets from {@code i} that share its bucket. */
    private int groupEnd(int i) {
        int end = i + 1;
        while (end < sealed && bucketOf(sealedKey[end]) == bucketOf(sealedKey[i])) {
            end++;
        }
        return end;
    }

    /** The vertices of sealed sub-buckets [from, to) (one bucket), concatenated in key order. */
    private Bucket polylines(int from, int to) {
        int p = 0;
        int q = 0;
        for (int k = from; k < to; k++) {
            p += sealedP[k];
            q += sealedQ[k];
        }
        long[] pu = new long[p];
        long[] pv = new long[p];
        long[] qu = new long[q];
        long[] qv = new long[q];
        int np = 0;
        int nq = 0;
        for (int k = from; k < to; k++) {
            int m = 0;
            for (; m < sealedP[k]; m++, np++) {
                pu[np] = vertexU(k, m);
                pv[np] = vertexV(k, m);
            }
            for (; m < sealedP[k] + sealedQ[k]; m++, nq++) {
                qu[nq] = vertexU(k, m);
                qv[nq] = vertexV(k, m);
            }
        }
        return new Bucket(bucketOf(sealedKey[from]), pu, pv, qu, qv);
    }
}
