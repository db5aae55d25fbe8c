package org.tracesync.core.accumulate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The two half hulls of a pair's messages per time bucket (DESIGN §6): what piecewise estimation
 * needs of a long trace whose clocks are not linear over its whole span. A piece made of whole
 * buckets is feasible exactly when the hulls of its buckets admit a line, so buckets summarize
 * the messages without loss for pieces whose knots lie on bucket boundaries.
 *
 * <p>Buckets: {@code [k·w, (k+1)·w)} on the abscissa node's clock (absolute ns), w the width
 * (initially {@link #INITIAL_WIDTH}). Points are the pair's rebased coordinates (u, v), as in
 * {@link PairAccumulator}. The latest buckets stay open ({@link HalfHull}s); older ones are
 * sealed into one packed array (their vertices only). When more than {@link #MAX_BUCKETS} buckets
 * exist, the width doubles and neighbours merge (the hull of a union is the hull of the hulls;
 * the grid is absolute, so buckets nest exactly). Memory is therefore O(MAX_BUCKETS · h_bucket)
 * per pair whatever the trace length — flat — and the knots' resolution is the width: 1 s up to
 * 4.5 h of trace (9 h after the first doubling, which halves the count), 2 s up to 18 h, 4 s for
 * 24 h.
 *
 * <p>Mergeable: {@link #addAllShifted} gives the same buckets (at the coarser of the two widths)
 * as accumulating every message in one. Cost: amortized O(1) per in-order message (a bucket
 * lookup plus a hull push), O(h log h) to reopen a sealed bucket for a late message.
 */
public final class TimeBuckets {

    /** Width of the buckets until the trace grows past {@link #MAX_BUCKETS} of them: 1 s. */
    public static final long INITIAL_WIDTH = 1_000_000_000L;

    /** Beyond this many buckets the width doubles. */
    public static final int MAX_BUCKETS = 32_768;

    /** Open buckets more than this many widths behind the latest one are sealed. */
    private static final int OPEN_SPAN = 2;

    private final long x0;
    private long width = INITIAL_WIDTH;
    // open buckets, by key (few: messages arrive nearly in time order)
    private final List<Open> open = new ArrayList<>();
    // sealed buckets: key, offset into pool, vertex counts; sorted by key only on read
    private long[] sealedKey = new long[0];
    private int[] sealedOffset = new int[0];
    private int[] sealedP = new int[0];
    private int[] sealedQ = new int[0];
    private int sealed;
    private long[] pool = new long[0];
    private int poolSize;
    private long latestKey = Long.MIN_VALUE;
    private int live; // vertices of sealed buckets still in use (2 longs each)

    private static final class Open {
        final long key;
        final HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        final HalfHull q = new HalfHull(HalfHull.Side.UPPER);

        Open(long key) {
            this.key = key;
        }
    }

    /** One bucket of a pair: its key and hull vertices (u increasing). */
    public record Bucket(long key, long[] pu, long[] pv, long[] qu, long[] qv) {
    }

    /** @param x0 the owner's origin: a point's absolute a-time is {@code x0 + u}. */
    public TimeBuckets(long x0) {
        this.x0 = x0;
    }

    /** Current bucket width (ns). */
    public long width() {
        return width;
    }

    /** Adds an a → b point (rebased coordinates). */
    public void addP(long u, long v) {
        bucket(u).p.add(u, v);
    }

    /** Adds a b → a point. */
    public void addQ(long u, long v) {
        bucket(u).q.add(u, v);
    }

    private long key(long u) {
        return Math.floorDiv(x0 + u, width);
    }

    /** Start of bucket {@code key} in rebased coordinates (u). */
    public long startU(long key) {
        return key * width - x0;
    }

    private Open bucket(long u) {
        long key = key(u);
        boolean fresh = key > latestKey;
        if (fresh) {
            latestKey = key;
            sealOld(); // may coarsen: the width, hence the key, can change
            key = key(u);
            latestKey = Math.max(latestKey, key);
        }
        for (int i = open.size() - 1; i >= 0; i--) {
            if (open.get(i).key == key) {
                return open.get(i);
            }
        }
        Open o = new Open(key);
        // a late message for a sealed bucket: reopen it (its vertices go back into hulls)
        for (int i = 0; !fresh && i < sealed; i++) {
            if (sealedKey[i] == key) {
                int off = sealedOffset[i];
                for (int k = 0; k < sealedP[i]; k++) {
                    o.p.add(pool[off + 2 * k], pool[off + 2 * k + 1]);
                }
                off += 2 * sealedP[i];
                for (int k = 0; k < sealedQ[i]; k++) {
                    o.q.add(pool[off + 2 * k], pool[off + 2 * k + 1]);
                }
                removeSealed(i);
                break;
            }
        }
        open.add(o);
        return o;
    }

    private void sealOld() {
        for (int i = open.size() - 1; i >= 0; i--) {
            Open o = open.get(i);
            if (o.key < latestKey - OPEN_SPAN) {
                seal(o);
                open.remove(i);
            }
        }
        if (sealed + open.size() > MAX_BUCKETS) {
            coarsen();
        }
    }

    private void seal(Open o) {
        int p = o.p.size();
        int q = o.q.size();
        if (p + q == 0) {
            return;
        }
        if (sealed == sealedKey.length) {
            int cap = Math.max(4, sealed * 2);
            sealedKey = Arrays.copyOf(sealedKey, cap);
            sealedOffset = Arrays.copyOf(sealedOffset, cap);
            sealedP = Arrays.copyOf(sealedP, cap);
            sealedQ = Arrays.copyOf(sealedQ, cap);
        }
        if (poolSize > 4 * 2 * live + 4096) {
            compactPool();
        }
        int need = poolSize + 2 * (p + q);
        if (need > pool.length) {
            pool = Arrays.copyOf(pool, Math.max(Math.max(need, 16), pool.length * 2));
        }
        sealedKey[sealed] = o.key;
        sealedOffset[sealed] = poolSize;
        sealedP[sealed] = p;
        sealedQ[sealed] = q;
        sealed++;
        live += p + q;
        for (int k = 0; k < p; k++) {
            pool[poolSize++] = o.p.u(k);
            pool[poolSize++] = o.p.v(k);
        }
        for (int k = 0; k < q; k++) {
            pool[poolSize++] = o.q.u(k);
            pool[poolSize++] = o.q.v(k);
        }
    }

    /** Drops the vertices of reopened buckets from the pool. O(live vertices). */
    private void compactPool() {
        long[] fresh = new long[Math.max(16, 2 * 2 * live)];
        int size = 0;
        for (int i = 0; i < sealed; i++) {
            int n = 2 * (sealedP[i] + sealedQ[i]);
            System.arraycopy(pool, sealedOffset[i], fresh, size, n);
            sealedOffset[i] = size;
            size += n;
        }
        pool = fresh;
        poolSize = size;
    }

    private void removeSealed(int i) {
        // the pool keeps the dead vertices until the next coarsening or compaction
        live -= sealedP[i] + sealedQ[i];
        int last = sealed - 1;
        sealedKey[i] = sealedKey[last];
        sealedOffset[i] = sealedOffset[last];
        sealedP[i] = sealedP[last];
        sealedQ[i] = sealedQ[last];
        sealed--;
    }

    /** Doubles the width until the buckets fit in {@link #MAX_BUCKETS}, merging neighbours. */
    private void coarsen() {
        List<Bucket> all = buckets();
        while (all.size() > MAX_BUCKETS / 2) {
            width *= 2;
            all = regroup(all, 0, 0);
        }
        rebuild(all);
    }

    /**
     * Folds {@code other}'s buckets into this one, their points shifted by (du, dv) (another origin),
     * at the coarser of the two widths: the same buckets as accumulating every message here.
     */
    public void addAllShifted(TimeBuckets other, long du, long dv) {
        List<Bucket> mine = buckets();
        List<Bucket> theirs = other.buckets();
        while (width < other.width) {
            width *= 2;
        }
        List<Bucket> all = new ArrayList<>(mine);
        all.addAll(shift(theirs, du, dv));
        all = regroup(all, 0, 0);
        while (all.size() > MAX_BUCKETS) {
            width *= 2;
            all = regroup(all, 0, 0);
        }
        rebuild(all);
    }

    private static List<Bucket> shift(List<Bucket> buckets, long du, long dv) {
        List<Bucket> out = new ArrayList<>(buckets.size());
        for (Bucket b : buckets) {
            long[] pu = b.pu().clone();
            long[] pv = b.pv().clone();
            long[] qu = b.qu().clone();
            long[] qv = b.qv().clone();
            for (int k = 0; k < pu.length; k++) {
                pu[k] = Math.addExact(pu[k], du);
                pv[k] = Math.addExact(pv[k], dv);
            }
            for (int k = 0; k < qu.length; k++) {
                qu[k] = Math.addExact(qu[k], du);
                qv[k] = Math.addExact(qv[k], dv);
            }
            out.add(new Bucket(b.key(), pu, pv, qu, qv));
        }
        return out;
    }

    /** The hulls of {@code all}'s points regrouped by key at the current width, sorted by key. */
    private List<Bucket> regroup(List<Bucket> all, long du, long dv) {
        java.util.TreeMap<Long, Open> map = new java.util.TreeMap<>();
        for (Bucket b : all) {
            for (int k = 0; k < b.pu().length; k++) {
                long u = b.pu()[k] + du;
                map.computeIfAbsent(key(u), Open::new).p.add(u, b.pv()[k] + dv);
            }
            for (int k = 0; k < b.qu().length; k++) {
                long u = b.qu()[k] + du;
                map.computeIfAbsent(key(u), Open::new).q.add(u, b.qv()[k] + dv);
            }
        }
        List<Bucket> out = new ArrayList<>(map.size());
        for (Open o : map.values()) {
            out.add(new Bucket(o.key, o.p.us(), o.p.vs(), o.q.us(), o.q.vs()));
        }
        return out;
    }

    /** Replaces the content by {@code all} (sorted by key, at the current width), all sealed. */
    private void rebuild(List<Bucket> all) {
        open.clear();
        sealed = 0;
        poolSize = 0;
        live = 0;
        latestKey = Long.MIN_VALUE;
        for (Bucket b : all) {
            Open o = new Open(b.key());
            for (int k = 0; k < b.pu().length; k++) {
                o.p.add(b.pu()[k], b.pv()[k]);
            }
            for (int k = 0; k < b.qu().length; k++) {
                o.q.add(b.qu()[k], b.qv()[k]);
            }
            seal(o);
            latestKey = Math.max(latestKey, b.key());
        }
    }

    private void sealAll() {
        for (Open o : open) {
            seal(o);
        }
        open.clear();
    }

    /** Every bucket, sorted by key, with its vertices. Seals the open buckets. O(total vertices). */
    public List<Bucket> buckets() {
        sealAll();
        Integer[] order = new Integer[sealed];
        for (int i = 0; i < sealed; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(sealedKey[x], sealedKey[y]));
        List<Bucket> out = new ArrayList<>(sealed);
        for (int i : order) {
            int off = sealedOffset[i];
            int p = sealedP[i];
            int q = sealedQ[i];
            long[] pu = new long[p];
            long[] pv = new long[p];
            long[] qu = new long[q];
            long[] qv = new long[q];
            for (int k = 0; k < p; k++) {
                pu[k] = pool[off + 2 * k];
                pv[k] = pool[off + 2 * k + 1];
            }
            off += 2 * p;
            for (int k = 0; k < q; k++) {
                qu[k] = pool[off + 2 * k];
                qv[k] = pool[off + 2 * k + 1];
            }
            out.add(new Bucket(sealedKey[i], pu, pv, qu, qv));
        }
        return out;
    }
}
