package org.tracesync.core.estimate;

import java.util.List;
import org.tracesync.core.accumulate.HalfHull;
import org.tracesync.core.accumulate.SecondThreadTask;
import org.tracesync.core.accumulate.TimeBuckets.Bucket;

/**
 * The half hulls of aligned blocks of a pair's time buckets, for the piecewise fit
 * ({@link PiecewiseEstimator}): block k of level l holds the hulls of buckets
 * [k·s, (k + 1)·s) of the list, s = {@value #SMALLEST} · 2<sup>l</sup>, for every such block
 * that the list holds whole. The hull of a run of buckets is then the hull of a few blocks and
 * at most 2·({@value #SMALLEST} − 1) single buckets ({@link #addRange}), and a greedy piece grows
 * over a block at once when its witness line clears the block's hull vertices (see
 * {@link PiecewiseEstimator}'s growth): instead of pushing every vertex of every bucket again in
 * each pass (the two greedy scans, the margin windows, the subdivided runs), the vertices are
 * pushed once, here, into the smallest blocks, and the passes read blocks.
 *
 * <p>Exact: the hull of a set of integer points is unique, and the hull of a union is the hull of
 * the parts' hulls, so a run's hulls built from blocks are the hulls of pushing its buckets'
 * vertices (the same vertices, the same regions, the same pieces). The vertices go in by
 * {@link HalfHull#add}, the push the reading has already made hot (a push that skips the turn
 * tests past a chain's bridge was tried: its own compilation cost the cold fit more than it
 * saved, docs/PERFORMANCE.md).
 *
 * <p>Cost: O(V) to build (V the buckets' hull vertices: each pushed once into its smallest
 * block; every larger block is two smaller ones' hull vertices pushed; from
 * {@link PiecewiseEstimator#PARALLEL_BUCKETS} buckets on, the blocks up to {@link #SPLIT_LEVELS}
 * levels on two threads, chunk by chunk), memory about
 * one more copy of the buckets' vertices (a block of twice the buckets keeps far fewer than twice
 * the vertices), O(h log m) per range read.
 */
final class BucketBlocks {

    /** Buckets in a block of level 0. */
    static final int SMALLEST = 4;

    private final List<Bucket> b;
    /** countP[k], countQ[k]: the a → b and b → a hull vertices of buckets [0, k). */
    private final long[] countP;
    private final long[] countQ;
    /** levels[l][k]: the hulls of buckets [k·s, (k + 1)·s), s = SMALLEST · 2^l (key: the first bucket's). */
    private final Bucket[][] levels;

    BucketBlocks(List<Bucket> b) {
        this.b = b;
        int m = b.size();
        countP = new long[m + 1];
        countQ = new long[m + 1];
        for (int k = 0; k < m; k++) {
            countP[k + 1] = countP[k] + b.get(k).pu().length;
            countQ[k + 1] = countQ[k] + b.get(k).qu().length;
        }
        int count = 0;
        for (long s = SMALLEST; s <= m; s *= 2) {
            count++;
        }
        levels = new Bucket[count][];
        if (count == 0) {
            return;
        }
        // level l has (m / SMALLEST) >> l blocks (each level half the one below, rounded down)
        for (int l = 0; l < count; l++) {
            levels[l] = new Bucket[(m / SMALLEST) >> l];
        }
        // the levels up to `split` are built in chunks of 2^split level-0 blocks, so that no
        // block of those levels straddles two chunks: on a long trace this thread and a second
        // one each take the next chunk until none is left; the few larger blocks after
        int n0 = levels[0].length;
        int split = Math.min(count - 1, SPLIT_LEVELS);
        BlockChunks chunks = new BlockChunks(b, levels, n0, split);
        chunks.start("tracesync-blocks", m >= PiecewiseEstimator.PARALLEL_BUCKETS);
        chunks.take();
        chunks.join();
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        for (int l = split + 1; l < count; l++) {
            Bucket[] below = levels[l - 1];
            Bucket[] level = levels[l];
            for (int k = 0; k < level.length; k++) {
                level[k] = pair(below[2 * k], below[2 * k + 1], p, q);
            }
        }
    }

    /**
     * Levels that {@link #BucketBlocks} builds chunk by chunk (a chunk: 2^8 = 256 level-0 blocks,
     * 1,024 buckets, 17 minutes of 1-s buckets; 85 chunks in a day), on two threads on a long
     * trace, each taking the next chunk until none is left (a fixed half each left the first
     * thread waiting about 15 ms for the second on a 24 h wandering file); only the blocks of
     * 2,048 buckets and more (a few dozen in a day) are left for after.
     */
    static final int SPLIT_LEVELS = 8;

    /** {@link #BucketBlocks}' chunks, taken by the caller and a second thread (an atomic counter). */
    private static final class BlockChunks extends SecondThreadTask<BlockChunks> {
        private final List<Bucket> b;
        private final Bucket[][] levels;
        private final int n0;
        private final int split;
        private final int count;
        private final java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();

        BlockChunks(List<Bucket> b, Bucket[][] levels, int n0, int split) {
            this.b = b;
            this.levels = levels;
            this.n0 = n0;
            this.split = split;
            this.count = (n0 + (1 << split) - 1) >> split;
        }

        /** Builds chunks not taken yet, levels 0 to split, until none is left. */
        void take() {
            for (int c = next.getAndIncrement(); c < count; c = next.getAndIncrement()) {
                blocksOf(b, levels, c << split, Math.min(n0, (c + 1) << split), split);
            }
        }

        @Override
        protected BlockChunks compute() {
            take();
            return this;
        }
    }

    /**
     * The blocks of level-0 blocks [from, to) (from a multiple of 2^top; to one too, or the end),
     * levels 0 to {@code top}: at level l, blocks [from >> l, to >> l), each from two of the
     * level below (level 0 from the buckets' hulls).
     */
    private static void blocksOf(List<Bucket> b, Bucket[][] levels, int from, int to, int top) {
        firstLevel(b, levels[0], from, to);
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        for (int l = 1; l <= top; l++) {
            Bucket[] below = levels[l - 1];
            Bucket[] level = levels[l];
            for (int k = from >> l; k < Math.min(to >> l, level.length); k++) {
                level[k] = pair(below[2 * k], below[2 * k + 1], p, q);
            }
        }
    }

    /** Blocks [from, to) of level 0 into {@code first}, from their buckets' hulls. */
    private static void firstLevel(List<Bucket> b, Bucket[] first, int from, int to) {
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        for (int k = from; k < to; k++) {
            first[k] = smallest(b, k, p, q);
        }
    }

    // one block per call (called per block, so compiled after a few thousand blocks; the loops
    // over every block, run once, would stay interpreted until their on-stack compilation)

    /** Block k of level 0: its buckets' vertices pushed into p and q (cleared first). */
    private static Bucket smallest(List<Bucket> b, int k, HalfHull p, HalfHull q) {
        p.clear();
        q.clear();
        for (int i = k * SMALLEST; i < (k + 1) * SMALLEST; i++) {
            PiecewiseEstimator.addVertices(p, q, b.get(i), 0);
        }
        return hulls(b.get(k * SMALLEST).key(), p, q);
    }

    /** The block of two adjacent blocks of the level below. */
    private static Bucket pair(Bucket left, Bucket right, HalfHull p, HalfHull q) {
        p.clear();
        q.clear();
        PiecewiseEstimator.addVertices(p, q, left, 0);
        PiecewiseEstimator.addVertices(p, q, right, 0);
        return hulls(left.key(), p, q);
    }

    private static Bucket hulls(long key, HalfHull p, HalfHull q) {
        return new Bucket(key, p.us(), p.vs(), q.us(), q.vs());
    }

    /**
     * {np, nq, minU, maxU} of buckets [first, last]: their a → b and b → a hull vertices, and the
     * smallest and largest u among them (Long.MAX_VALUE and MIN_VALUE when they have none). O(1)
     * but for empty buckets at the ends: buckets are in time order, each one's u inside its own
     * span, so the extremes lie in the first and last buckets that hold a vertex.
     */
    long[] vertexCounts(int first, int last) {
        long minU = Long.MAX_VALUE;
        long maxU = Long.MIN_VALUE;
        for (int k = first; k <= last && minU == Long.MAX_VALUE; k++) {
            Bucket bucket = b.get(k);
            if (bucket.pu().length > 0) {
                minU = bucket.pu()[0];
            }
            if (bucket.qu().length > 0) {
                minU = Math.min(minU, bucket.qu()[0]);
            }
        }
        for (int k = last; k >= first && maxU == Long.MIN_VALUE; k--) {
            Bucket bucket = b.get(k);
            if (bucket.pu().length > 0) {
                maxU = bucket.pu()[bucket.pu().length - 1];
            }
            if (bucket.qu().length > 0) {
                maxU = Math.max(maxU, bucket.qu()[bucket.qu().length - 1]);
            }
        }
        return new long[] {countP[last + 1] - countP[first], countQ[last + 1] - countQ[first], minU, maxU};
    }

    /** The buckets. */
    List<Bucket> buckets() {
        return b;
    }

    /**
     * The level of the largest block that starts at bucket {@code i} and ends at or before
     * {@code last}, or −1 when none does (i not a multiple of {@value #SMALLEST}, or too few
     * buckets left).
     */
    int largestLevelAt(int i, int last) {
        if (i % SMALLEST != 0) {
            return -1;
        }
        int level = -1;
        for (int l = 0; l < levels.length; l++) {
            long s = (long) SMALLEST << l;
            if (i % s != 0 || i + s - 1 > last) {
                break;
            }
            level = l;
        }
        return level;
    }

    /** The block of level {@code l} that starts at bucket {@code i} (a multiple of its size). */
    Bucket block(int l, int i) {
        return levels[l][i / (SMALLEST << l)];
    }

    /** Buckets in a block of level {@code l}. */
    static int size(int l) {
        return SMALLEST << l;
    }

    /**
     * Adds the vertices of buckets [first, last], each moved {@code margin} toward the other side,
     * to p and q: the hulls of pushing them one by one, from the largest blocks inside the run
     * and single buckets at its ends. O(h log m) plus the single buckets' vertices.
     */
    void addRange(HalfHull p, HalfHull q, int first, int last, long margin) {
        int i = first;
        while (i <= last) {
            int l = largestLevelAt(i, last);
            Bucket block = l < 0 ? b.get(i) : block(l, i);
            PiecewiseEstimator.addVertices(p, q, block, margin);
            i += l < 0 ? 1 : size(l);
        }
    }
}
