package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.accumulate.HalfHull;
import org.tracesync.core.accumulate.TimeBuckets.Bucket;

class BucketBlocksTest {

    /**
     * Buckets of a pair in time order, each with its two half hulls: a → b points above a drifting
     * line, b → a points below it; some buckets one-way or empty on a side, some on one line
     * (collinear vertices across buckets), some with points at the bucket's first abscissa only
     * (duplicates), the drift now and then jumping.
     */
    static List<Bucket> buckets(SplittableRandom r, int m) {
        List<Bucket> out = new ArrayList<>();
        long width = 1_000_000;
        double drift = 0;
        double offset = 0;
        for (int k = 0; k < m; k++) {
            if (r.nextInt(50) == 0) {
                drift = r.nextDouble(-1e-4, 1e-4);
            }
            HalfHull p = new HalfHull(HalfHull.Side.LOWER);
            HalfHull q = new HalfHull(HalfHull.Side.UPPER);
            int kind = r.nextInt(8);
            int n = kind == 0 ? 1 : 1 + r.nextInt(40);
            for (int i = 0; i < n; i++) {
                long u = k * width + (kind == 1 ? 0 : kind == 2 ? 1000L * i : r.nextLong(width));
                long line = (long) Math.floor(offset + drift * u);
                if (kind != 3) {
                    p.add(u, line + (kind == 2 ? 40_000 : 40_000 + r.nextLong(30_000)));
                }
                if (kind != 4) {
                    q.add(Math.min(u + r.nextLong(0, 3), (k + 1) * width - 1), // inside the bucket's span
                            line - (kind == 2 ? 50_000 : 50_000 + r.nextLong(30_000)));
                }
            }
            out.add(new Bucket(k, p.us(), p.vs(), q.us(), q.vs()));
        }
        return out;
    }

    /** The hulls of pushing every vertex of buckets [first, last], moved margin inward. */
    static HalfHull[] pushed(List<Bucket> b, int first, int last, long margin) {
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        for (int k = first; k <= last; k++) {
            Bucket bucket = b.get(k);
            for (int i = 0; i < bucket.pu().length; i++) {
                p.add(bucket.pu()[i], bucket.pv()[i] - margin);
            }
            for (int i = 0; i < bucket.qu().length; i++) {
                q.add(bucket.qu()[i], bucket.qv()[i] + margin);
            }
        }
        return new HalfHull[] {p, q};
    }

    /** The a → b hull (pu, pv) and the b → a hull (qu, qv) are {@code expected}'s, vertex for vertex. */
    private static void assertSameHulls(String what, long[] pu, long[] pv, long[] qu, long[] qv, HalfHull[] expected) {
        assertThat(pu).as("%s a → b u", what).containsExactly(expected[0].us());
        assertThat(pv).as("%s a → b v", what).containsExactly(expected[0].vs());
        assertThat(qu).as("%s b → a u", what).containsExactly(expected[1].us());
        assertThat(qv).as("%s b → a v", what).containsExactly(expected[1].vs());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void aRangesHullsFromBlocksAreThePushedHulls(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int m = 1 + r.nextInt(600);
        List<Bucket> b = buckets(r, m);
        BucketBlocks blocks = new BucketBlocks(b);
        for (int trial = 0; trial < 200; trial++) {
            int first = r.nextInt(m);
            int last = trial == 0 ? m - 1 : first + r.nextInt(m - first);
            if (trial == 0) {
                first = 0;
            }
            long margin = r.nextInt(3) == 0 ? 0 : r.nextLong(1, 5_000);
            HalfHull p = new HalfHull(HalfHull.Side.LOWER);
            HalfHull q = new HalfHull(HalfHull.Side.UPPER);
            blocks.addRange(p, q, first, last, margin);
            HalfHull[] expected = pushed(b, first, last, margin);
            assertSameHulls(String.format("[%d, %d]", first, last), p.us(), p.vs(), q.us(), q.vs(), expected);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void everyBlockHoldsTheHullsOfItsBuckets(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Bucket> b = buckets(r, 300);
        BucketBlocks blocks = new BucketBlocks(b);
        int checked = 0;
        for (int i = 0; i < b.size(); i++) {
            for (int l = blocks.largestLevelAt(i, b.size() - 1); l >= 0; l--) {
                Bucket block = blocks.block(l, i);
                HalfHull[] expected = pushed(b, i, i + BucketBlocks.size(l) - 1, 0);
                assertThat(block.key()).isEqualTo(b.get(i).key());
                assertSameHulls("block " + l + " at " + i, block.pu(), block.pv(), block.qu(), block.qv(), expected);
                checked++;
            }
        }
        // 300 buckets: 75 blocks of 4, 37 of 8, 18 of 16, 9 of 32, 4 of 64, 2 of 128, 1 of 256
        assertThat(checked).isEqualTo(75 + 37 + 18 + 9 + 4 + 2 + 1);
    }

    /**
     * A long pair's blocks (from {@link PiecewiseEstimator#PARALLEL_BUCKETS} buckets on: the later
     * part's levels up to {@link BucketBlocks#SPLIT_LEVELS} on a second thread, the parts meeting
     * at a multiple of 2^SPLIT_LEVELS level-0 blocks, the larger levels after) each hold the
     * hulls of their buckets, at every level, on both sides of where the parts meet.
     */
    @ParameterizedTest
    @ValueSource(ints = {PiecewiseEstimator.PARALLEL_BUCKETS, 3 * PiecewiseEstimator.PARALLEL_BUCKETS + 37})
    void aLongPairsBlocksBuiltInTwoPartsHoldTheHullsOfTheirBuckets(int m) {
        SplittableRandom r = new SplittableRandom(m);
        List<Bucket> b = buckets(r, m);
        BucketBlocks blocks = new BucketBlocks(b);
        int checked = 0;
        int expected = 0;
        for (int l = 0; (long) BucketBlocks.SMALLEST << l <= m; l++) {
            int size = BucketBlocks.size(l);
            expected += m / BucketBlocks.SMALLEST >> l;
            for (int i = 0; i + size <= m; i += size) {
                Bucket block = blocks.block(l, i);
                assertThat(block.key()).isEqualTo(b.get(i).key());
                assertSameHulls("block " + l + " at " + i, block.pu(), block.pv(), block.qu(), block.qv(),
                        pushedBlock(b, blocks, l, i));
                checked++;
            }
        }
        assertThat(checked).isEqualTo(expected).isGreaterThan(2 * m / BucketBlocks.SMALLEST - 20);
        // and a range across the parts' meeting point, from the blocks
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        blocks.addRange(p, q, 3, m - 2, 0);
        assertSameHulls("range", p.us(), p.vs(), q.us(), q.vs(), pushed(b, 3, m - 2, 0));
    }

    /** The hulls of block (l, i): its buckets' vertices pushed, or for l > 0 its two halves' blocks' (checked before). */
    private static HalfHull[] pushedBlock(List<Bucket> b, BucketBlocks blocks, int l, int i) {
        if (l == 0) {
            return pushed(b, i, i + BucketBlocks.SMALLEST - 1, 0);
        }
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        int half = BucketBlocks.size(l - 1);
        for (Bucket h : new Bucket[] {blocks.block(l - 1, i), blocks.block(l - 1, i + half)}) {
            for (int k = 0; k < h.pu().length; k++) {
                p.add(h.pu()[k], h.pv()[k]);
            }
            for (int k = 0; k < h.qu().length; k++) {
                q.add(h.qu()[k], h.qv()[k]);
            }
        }
        return new HalfHull[] {p, q};
    }

    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void vertexCountsAreThoseOfEveryBucketInTheRange(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int m = 1 + r.nextInt(400);
        List<Bucket> b = buckets(r, m);
        BucketBlocks blocks = new BucketBlocks(b);
        for (int trial = 0; trial < 300; trial++) {
            int first = r.nextInt(m);
            int last = first + r.nextInt(m - first);
            long np = 0;
            long nq = 0;
            long minU = Long.MAX_VALUE;
            long maxU = Long.MIN_VALUE;
            for (int k = first; k <= last; k++) {
                Bucket bucket = b.get(k);
                np += bucket.pu().length;
                nq += bucket.qu().length;
                for (long u : bucket.pu()) {
                    minU = Math.min(minU, u);
                    maxU = Math.max(maxU, u);
                }
                for (long u : bucket.qu()) {
                    minU = Math.min(minU, u);
                    maxU = Math.max(maxU, u);
                }
            }
            assertThat(blocks.vertexCounts(first, last)).as("[%d, %d]", first, last).containsExactly(np, nq, minU, maxU);
        }
    }

    @Test
    void theLargestBlockIsAlignedAndEndsInsideTheRange() {
        SplittableRandom r = new SplittableRandom(5);
        BucketBlocks blocks = new BucketBlocks(buckets(r, 100));
        assertThat(blocks.largestLevelAt(0, 99)).isEqualTo(4); // 64 buckets; 128 is more than the list
        assertThat(blocks.largestLevelAt(0, 62)).isEqualTo(3); // 32
        assertThat(blocks.largestLevelAt(32, 99)).isEqualTo(3); // 32 at 32
        assertThat(blocks.largestLevelAt(64, 99)).isEqualTo(3); // 32 at 64: [64, 95]
        assertThat(blocks.largestLevelAt(96, 99)).isEqualTo(0); // 4 at 96
        assertThat(blocks.largestLevelAt(4, 99)).isEqualTo(0);
        assertThat(blocks.largestLevelAt(8, 10)).isEqualTo(-1); // too short
        assertThat(blocks.largestLevelAt(6, 99)).isEqualTo(-1); // not aligned
        assertThat(new BucketBlocks(buckets(r, 3)).largestLevelAt(0, 2)).isEqualTo(-1);
    }
}
