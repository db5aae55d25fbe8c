package org.tracesync.core.accumulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-bucket hulls are mergeable (accumulating in two halves and merging gives the buckets of one
 * accumulation, at the coarser width), and their number stays bounded however long the trace.
 */
class TimeBucketsTest {

    private static final long T0 = 1_700_000_000_000_000_000L;

    private static List<TimeBuckets.Bucket> buckets(PairAccumulator acc) {
        return acc.timeBuckets().buckets();
    }

    private static void assertSame(PairAccumulator x, PairAccumulator y) {
        List<TimeBuckets.Bucket> a = buckets(x);
        List<TimeBuckets.Bucket> b = buckets(y);
        assertThat(x.timeBuckets().width()).isEqualTo(y.timeBuckets().width());
        assertThat(a).hasSameSizeAs(b);
        long du = y.x0() - x.x0();
        long dv = y.v0() - x.v0();
        for (int k = 0; k < a.size(); k++) {
            assertThat(a.get(k).key()).isEqualTo(b.get(k).key());
            long[] pu = b.get(k).pu().clone();
            long[] pv = b.get(k).pv().clone();
            for (int i = 0; i < pu.length; i++) {
                pu[i] += du;
                pv[i] += dv;
            }
            assertThat(a.get(k).pu()).containsExactly(pu);
            assertThat(a.get(k).pv()).containsExactly(pv);
            long[] qu = b.get(k).qu().clone();
            long[] qv = b.get(k).qv().clone();
            for (int i = 0; i < qu.length; i++) {
                qu[i] += du;
                qv[i] += dv;
            }
            assertThat(a.get(k).qu()).containsExactly(qu);
            assertThat(a.get(k).qv()).containsExactly(qv);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void mergingHalvesEqualsAccumulatingOnce(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator once = new PairAccumulator(0, 1);
        PairAccumulator first = new PairAccumulator(0, 1);
        PairAccumulator second = new PairAccumulator(0, 1);
        long span = (seed % 2 == 0 ? 20 : 20_000) * 1_000_000_000L; // 20 s, or 5.6 h (coarser buckets)
        int n = 40_000;
        for (int k = 0; k < n; k++) {
            long x = T0 + r.nextLong(span);
            long lat = 40_000 + r.nextLong(200_000);
            boolean ab = r.nextBoolean();
            PairAccumulator half = r.nextBoolean() ? first : second;
            for (PairAccumulator acc : new PairAccumulator[] {once, half}) {
                if (ab) {
                    acc.addAToB(x, x + 1_000_000_000L + lat);
                } else {
                    acc.addBToA(x + 1_000_000_000L - lat, x);
                }
            }
        }
        first.merge(second);
        assertSame(once, first);
        assertThat(buckets(once).size()).isLessThanOrEqualTo(TimeBuckets.MAX_BUCKETS);
    }

    @org.junit.jupiter.api.Test
    void aDayOfMessagesKeepsOneSecondBuckets() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        long day = 86_400_000_000_000L;
        for (long t = 0; t < day; t += 500_000_000L) {
            acc.addAToB(T0 + t, T0 + t + 60_000);
            acc.addBToA(T0 + t + 250_000_000L, T0 + t + 250_000_000L + 80_000);
        }
        assertThat(buckets(acc)).hasSize(86_400);
        assertThat(acc.timeBuckets().width()).isEqualTo(1_000_000_000L);
        assertThat(acc.aToB().size()).isGreaterThan(0);
    }

    @org.junit.jupiter.api.Test
    void fourDaysOfMessagesStayWithinTheBucketCap() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        long days = 4 * 86_400_000_000_000L;
        for (long t = 0; t < days; t += 500_000_000L) {
            acc.addAToB(T0 + t, T0 + t + 60_000);
            acc.addBToA(T0 + t + 250_000_000L, T0 + t + 250_000_000L + 80_000);
        }
        // 1-s buckets up to 131,072 of them (36 h), 2 s up to 72 h, then 4 s
        assertThat(acc.timeBuckets().width()).isEqualTo(4_000_000_000L);
        assertThat(buckets(acc)).hasSize(86_400);
        assertThat(buckets(acc).get(0).pu()).hasSize(2); // the first of 8 points, and the last
    }

    /**
     * Merging stays exact across coarsenings: 80 h of messages in time order (with late ones),
     * spread at random over two accumulators, give the 2-s buckets of one accumulation.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void mergingHalvesEqualsAccumulatingOnceAcrossCoarsenings(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator once = new PairAccumulator(0, 1);
        PairAccumulator first = new PairAccumulator(0, 1);
        PairAccumulator second = new PairAccumulator(0, 1);
        long hours80 = 80 * 3_600_000_000_000L;
        for (long t = 0; t < hours80; t += 400_000_000L + r.nextLong(400_000_000L)) {
            long x = T0 + Math.max(0, t - (r.nextInt(50) == 0 ? r.nextLong(5_000_000_000L) : 0));
            long lat = 40_000 + r.nextLong(200_000);
            boolean ab = r.nextBoolean();
            PairAccumulator half = r.nextBoolean() ? first : second;
            for (PairAccumulator acc : new PairAccumulator[] {once, half}) {
                if (ab) {
                    acc.addAToB(x, x + 1_000_000_000L + lat);
                } else {
                    acc.addBToA(x + 1_000_000_000L - lat, x);
                }
            }
        }
        first.merge(second);
        assertThat(once.timeBuckets().width()).isEqualTo(4_000_000_000L);
        assertSame(once, first);
        assertThat(buckets(once).size()).isLessThanOrEqualTo(TimeBuckets.MAX_BUCKETS);
    }

    /**
     * A trace read in consecutive parts (as the parallel reader cuts a file: a part may end inside
     * a bucket, a few messages come late), merged in time order, gives the buckets and hulls of
     * one accumulation.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void consecutivePartsMergedInOrderEqualAccumulatingOnce(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator once = new PairAccumulator(0, 1);
        PairAccumulator[] parts = new PairAccumulator[4];
        for (int k = 0; k < parts.length; k++) {
            parts[k] = new PairAccumulator(0, 1);
        }
        long span = (seed <= 2 ? 3_600 : 150_000) * 1_000_000_000L; // an hour, or 42 h (2-s buckets)
        int n = 200_000;
        for (int k = 0; k < n; k++) {
            long t = span / n * k;
            long x = T0 + Math.max(0, t - (r.nextInt(100) == 0 ? r.nextLong(3_000_000_000L) : 0));
            long lat = 40_000 + r.nextLong(200_000);
            boolean ab = r.nextBoolean();
            PairAccumulator part = parts[(int) ((long) k * parts.length / n)];
            for (PairAccumulator acc : new PairAccumulator[] {once, part}) {
                if (ab) {
                    acc.addAToB(x, x + 1_000_000_000L + lat);
                } else {
                    acc.addBToA(x + 1_000_000_000L - lat, x);
                }
            }
        }
        for (int k = 1; k < parts.length; k++) {
            parts[0].merge(parts[k]);
        }
        assertSame(once, parts[0]);
        long du = parts[0].x0() - once.x0();
        long dv = parts[0].v0() - once.v0();
        assertThat(shifted(parts[0].aToB().us(), du)).containsExactly(once.aToB().us());
        assertThat(shifted(parts[0].aToB().vs(), dv)).containsExactly(once.aToB().vs());
        assertThat(shifted(parts[0].bToA().us(), du)).containsExactly(once.bToA().us());
        assertThat(shifted(parts[0].bToA().vs(), dv)).containsExactly(once.bToA().vs());
        assertThat(once.timeBuckets().width()).isEqualTo(seed <= 2 ? 1_000_000_000L : 2_000_000_000L);
    }

    /**
     * The pair's half hulls, derived from its buckets' vertices, are those of every point: pushed
     * into one hull each, in any order, merged from halves, and read between additions.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void derivedHullsEqualTheHullsOfEveryPoint(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator acc = new PairAccumulator(0, 1);
        PairAccumulator first = new PairAccumulator(0, 1);
        PairAccumulator second = new PairAccumulator(0, 1);
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        long span = (seed % 3 == 0 ? 200_000 : seed % 3 == 1 ? 3_600 : 30) * 1_000_000_000L;
        boolean shuffled = seed % 2 == 0;
        long x0 = 0;
        long v0 = 0;
        int n = 50_000;
        for (int k = 0; k < n; k++) {
            long x = T0 + (shuffled ? r.nextLong(span) : span / n * k + r.nextLong(span / n));
            long lat = 40_000 + r.nextLong(2_000_000);
            long skew = 1_000_000_000L + x / 50_000 % 7_000 * (seed % 2 == 0 ? 1 : -1); // a curved clock
            boolean ab = r.nextBoolean();
            PairAccumulator half = r.nextBoolean() ? first : second;
            for (PairAccumulator a : new PairAccumulator[] {acc, half}) {
                if (ab) {
                    a.addAToB(x, x + skew + lat);
                } else {
                    a.addBToA(x + skew - lat, x);
                }
            }
            if (k == 0) {
                x0 = acc.x0();
                v0 = acc.v0();
            }
            if (ab) {
                p.add(x - x0, skew + lat - v0);
            } else {
                q.add(x - x0, skew - lat - v0);
            }
            if (k == n / 3) {
                assertThat(acc.aToB().us()).containsExactly(p.us()); // read, then add more
            }
        }
        first.merge(second);
        for (PairAccumulator a : new PairAccumulator[] {acc, first}) {
            long du = a.x0() - x0;
            long dv = a.v0() - v0;
            assertThat(shifted(a.aToB().us(), du)).containsExactly(p.us());
            assertThat(shifted(a.aToB().vs(), dv)).containsExactly(p.vs());
            assertThat(shifted(a.bToA().us(), du)).containsExactly(q.us());
            assertThat(shifted(a.bToA().vs(), dv)).containsExactly(q.vs());
        }
        assertThat(p.size()).isGreaterThan(2);
        assertThat(q.size()).isGreaterThan(2);
    }

    /**
     * The whole pair's hulls of a long trace (from {@link TimeBuckets#PARALLEL_SUB_BUCKETS}
     * sub-buckets on, the later half pushed into hulls of its own on a second thread, then merged)
     * are the hulls of every point, vertex for vertex.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aLongTracesDerivedHullsFromTwoHalvesEqualTheHullsOfEveryPoint(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator acc = new PairAccumulator(0, 1);
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        int n = 4 * TimeBuckets.PARALLEL_SUB_BUCKETS;
        long step = 300_000_000L; // more than a sub-bucket: about one point per sub-bucket
        long x0 = 0;
        long v0 = 0;
        for (int k = 0; k < n; k++) {
            long x = T0 + step * k + r.nextLong(step);
            long lat = 40_000 + r.nextLong(seed == 2 ? 2_000 : 2_000_000);
            long skew = 1_000_000_000L + (x - T0) / 1_000_000 % 9_000; // a wandering clock
            boolean ab = r.nextBoolean();
            if (ab) {
                acc.addAToB(x, x + skew + lat);
            } else {
                acc.addBToA(x + skew - lat, x);
            }
            if (k == 0) {
                x0 = acc.x0();
                v0 = acc.v0();
            }
            if (ab) {
                p.add(x - x0, skew + lat - v0);
            } else {
                q.add(x - x0, skew - lat - v0);
            }
        }
        long du = acc.x0() - x0;
        long dv = acc.v0() - v0;
        assertThat(shifted(acc.aToB().us(), du)).containsExactly(p.us());
        assertThat(shifted(acc.aToB().vs(), dv)).containsExactly(p.vs());
        assertThat(shifted(acc.bToA().us(), du)).containsExactly(q.us());
        assertThat(shifted(acc.bToA().vs(), dv)).containsExactly(q.vs());
        assertThat(p.size()).isGreaterThan(10);
        assertThat(q.size()).isGreaterThan(10);
    }

    /**
     * {@link TimeBuckets#addVerticesUnless} on a long trace asks about the hulls of every point of
     * runs of sub-buckets: on each half, its first {@link TimeBuckets#FIRST_ASK}, then twice as
     * many, and so on, within the half. Told to go on, it gives the hulls of every point
     * ({@link TimeBuckets#addVerticesTo}'s); told to stop by either half, it returns false. A
     * short trace (one-thread path) is never asked.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void theDerivationAsksAboutRunsOfEachHalfAndStopsWhenTold(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        TimeBuckets tb = new TimeBuckets(0);
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        int n = 3 * TimeBuckets.PARALLEL_SUB_BUCKETS;
        long step = 300_000_000L; // more than a sub-bucket: about one point per sub-bucket
        long sub = TimeBuckets.INITIAL_WIDTH / TimeBuckets.SUB_BUCKETS;
        long[][] points = new long[n][]; // u, v, a → b (1) or not (0), index of its sub-bucket
        int subs = 0;
        long lastKey = Long.MIN_VALUE;
        for (int k = 0; k < n; k++) {
            long u = step * k + r.nextLong(step);
            long lat = 40_000 + r.nextLong(2_000_000);
            long skew = u / 1_000_000 % 9_000; // a wandering clock
            long key = Math.floorDiv(u, sub);
            if (key != lastKey) {
                subs++;
                lastKey = key;
            }
            boolean ab = r.nextBoolean();
            long v = ab ? skew + lat : skew - lat;
            points[k] = new long[] {u, v, ab ? 1 : 0, subs - 1};
            if (ab) {
                tb.addP(u, v);
                p.add(u, v);
            } else {
                tb.addQ(u, v);
                q.add(u, v);
            }
        }
        List<long[][]> asked = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        TimeBuckets.PartStop goOn = (hp, hq) -> {
            asked.add(new long[][] {hp.us(), hp.vs(), hq.us(), hq.vs()});
            return false;
        };
        HalfHull[] h = hullPair();
        assertThat(tb.addVerticesUnless(h[0], h[1], goOn)).isTrue();
        assertThat(h[0].us()).containsExactly(p.us());
        assertThat(h[0].vs()).containsExactly(p.vs());
        assertThat(h[1].us()).containsExactly(q.us());
        assertThat(h[1].vs()).containsExactly(q.vs());
        // the runs asked about: [start, start + FIRST_ASK · 2^k) inside each half
        int mid = subs / 2;
        List<String> expected = new java.util.ArrayList<>();
        List<String> expectedRuns = new java.util.ArrayList<>();
        for (int[] half : new int[][] {{0, mid}, {mid, subs}}) {
            for (long len = TimeBuckets.FIRST_ASK; half[0] + len < half[1]; len *= 2) {
                HalfHull[] run = hullPair();
                for (long[] pt : points) {
                    if (pt[3] >= half[0] && pt[3] < half[0] + len) {
                        run[pt[2] == 1 ? 0 : 1].add(pt[0], pt[1]);
                    }
                }
                expected.add(key(run[0].us(), run[0].vs(), run[1].us(), run[1].vs()));
                expectedRuns.add(half[0] + "+" + len);
            }
        }
        List<String> got = new java.util.ArrayList<>();
        for (long[][] a : asked) {
            got.add(key(a[0], a[1], a[2], a[3]));
        }
        assertThat(expectedRuns).contains("0+2048", "0+4096", mid + "+2048");
        assertThat(got).containsExactlyInAnyOrderElementsOf(expected);

        HalfHull[] stopped = hullPair();
        assertThat(tb.addVerticesUnless(stopped[0], stopped[1], (hp, hq) -> true)).isFalse();
        // told to stop by the later half only (its points lie right of the first half's)
        long laterU = points[n - 1][0] / 4; // the first half starts near 0, the later one near the middle
        HalfHull[] byLater = hullPair();
        assertThat(tb.addVerticesUnless(byLater[0], byLater[1], (hp, hq) -> hp.u(0) > laterU)).isFalse();

        TimeBuckets small = new TimeBuckets(0);
        for (int k = 0; k < 100; k++) {
            small.addP(step * k, 1_000 + k % 7);
            small.addQ(step * k + 1, -1_000 - k % 5);
        }
        HalfHull[] s = hullPair();
        assertThat(small.addVerticesUnless(s[0], s[1], (hp, hq) -> true)).isTrue();
        assertThat(s[0].size()).isGreaterThan(1);
    }

    private static String key(long[]... arrays) {
        StringBuilder b = new StringBuilder();
        for (long[] a : arrays) {
            b.append(java.util.Arrays.toString(a)).append('|');
        }
        return b.toString();
    }

    /**
     * Each bucket read at the sub-buckets' resolution ({@link TimeBuckets#fine}) is the
     * concatenation of the half hulls of every point of each of its sub-buckets (a quarter of the
     * width), every point lies on its side of that polyline, and the polyline's hull is the
     * bucket's hull ({@link TimeBuckets#buckets}), itself the hull of every point of the bucket:
     * accumulated in order, shuffled, or in two halves merged, over 1-s and (past 36 h) 2-s buckets.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void fineBucketsAreTheSubBucketHullsOfEveryPoint(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        boolean shuffled = seed % 2 == 0 && seed <= 4;
        long span = (seed <= 4 ? 600 : 40 * 3_600) * 1_000_000_000L; // 10 min, or 40 h in order (2-s buckets)
        int n = seed <= 4 ? 60_000 : 200_000;
        PairAccumulator acc = new PairAccumulator(0, 1);
        PairAccumulator first = new PairAccumulator(0, 1);
        PairAccumulator second = new PairAccumulator(0, 1);
        long[] xs = new long[n];
        long[] ys = new long[n];
        boolean[] ab = new boolean[n];
        for (int k = 0; k < n; k++) {
            long x = T0 + (shuffled ? r.nextLong(span) : span / n * k + r.nextLong(span / n));
            long lat = 30_000 + r.nextLong(300_000);
            // a clock that slews at 500 ppm for 2 s every 5 s: corners inside the buckets
            long phase = Math.floorMod(x, 5_000_000_000L);
            long skew = 1_000_000_000L + Math.min(phase, 2_000_000_000L) / 2_000;
            ab[k] = r.nextBoolean();
            xs[k] = x;
            ys[k] = ab[k] ? x + skew + lat : x + skew - lat;
            PairAccumulator half = r.nextBoolean() ? first : second;
            for (PairAccumulator a : new PairAccumulator[] {acc, half}) {
                if (ab[k]) {
                    a.addAToB(xs[k], ys[k]);
                } else {
                    a.addBToA(ys[k], xs[k]);
                }
            }
        }
        first.merge(second);
        TimeBuckets tb = acc.timeBuckets();
        long width = tb.width();
        assertThat(width).isEqualTo(seed <= 4 ? 1_000_000_000L : 2_000_000_000L);
        long sub = width / TimeBuckets.SUB_BUCKETS;
        // every point's sub-bucket hulls and bucket hulls, computed directly
        java.util.TreeMap<Long, HalfHull[]> subHulls = new java.util.TreeMap<>();
        java.util.TreeMap<Long, HalfHull[]> bucketHulls = new java.util.TreeMap<>();
        java.util.Map<Long, java.util.List<long[]>> points = new java.util.HashMap<>();
        for (int k = 0; k < n; k++) {
            long u = xs[k] - acc.x0();
            long v = ys[k] - xs[k] - acc.v0();
            subHulls.computeIfAbsent(Math.floorDiv(xs[k], sub), key -> hullPair())[ab[k] ? 0 : 1].add(u, v);
            bucketHulls.computeIfAbsent(Math.floorDiv(xs[k], width), key -> hullPair())[ab[k] ? 0 : 1].add(u, v);
            points.computeIfAbsent(Math.floorDiv(xs[k], width), key -> new java.util.ArrayList<>())
                    .add(new long[] {u, v, ab[k] ? 1 : 0});
        }
        List<TimeBuckets.Bucket> coarse = tb.buckets();
        assertThat(coarse).hasSize(bucketHulls.size());
        long du = first.x0() - acc.x0();
        long dv = first.v0() - acc.v0();
        for (TimeBuckets.Bucket c : coarse) {
            HalfHull[] whole = bucketHulls.get(c.key());
            assertThat(c.pu()).containsExactly(whole[0].us());
            assertThat(c.pv()).containsExactly(whole[0].vs());
            assertThat(c.qu()).containsExactly(whole[1].us());
            assertThat(c.qv()).containsExactly(whole[1].vs());
            TimeBuckets.Bucket fine = tb.fine(c.key());
            long[][] expected = concatenated(subHulls.subMap(c.key() * TimeBuckets.SUB_BUCKETS,
                    (c.key() + 1) * TimeBuckets.SUB_BUCKETS).values());
            assertThat(fine.pu()).containsExactly(expected[0]);
            assertThat(fine.pv()).containsExactly(expected[1]);
            assertThat(fine.qu()).containsExactly(expected[2]);
            assertThat(fine.qv()).containsExactly(expected[3]);
            HalfHull p = new HalfHull(HalfHull.Side.LOWER);
            HalfHull q = new HalfHull(HalfHull.Side.UPPER);
            for (int i = 0; i < fine.pu().length; i++) {
                p.add(fine.pu()[i], fine.pv()[i]);
            }
            for (int i = 0; i < fine.qu().length; i++) {
                q.add(fine.qu()[i], fine.qv()[i]);
            }
            assertThat(p.us()).containsExactly(c.pu());
            assertThat(p.vs()).containsExactly(c.pv());
            assertThat(q.us()).containsExactly(c.qu());
            assertThat(q.vs()).containsExactly(c.qv());
            for (long[] pt : points.get(c.key())) {
                if (pt[2] == 1) {
                    assertThat(side(fine.pu(), fine.pv(), pt[0], pt[1])).isGreaterThanOrEqualTo(0); // on or above
                } else {
                    assertThat(side(fine.qu(), fine.qv(), pt[0], pt[1])).isLessThanOrEqualTo(0); // on or below
                }
            }
            TimeBuckets.Bucket merged = first.timeBuckets().fine(c.key());
            assertThat(shifted(merged.pu(), du)).containsExactly(fine.pu());
            assertThat(shifted(merged.pv(), dv)).containsExactly(fine.pv());
            assertThat(shifted(merged.qu(), du)).containsExactly(fine.qu());
            assertThat(shifted(merged.qv(), dv)).containsExactly(fine.qv());
        }
        assertThat(tb.fine(coarse.get(coarse.size() - 1).key() + 1)).isNull();
    }

    /**
     * Messages nearly in time order, as traces deliver them, with stragglers: most within the
     * open window (two bucket widths), some older (their sealed sub-bucket is reopened), some
     * after a gap of several widths, and reads of every bucket between them (which seal what is
     * open, so the next messages reopen sealed sub-buckets inside the window): every bucket and
     * every sub-bucket polyline is the hull of every point of it, as if accumulated in order.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void stragglersAndReadsMidStreamGiveTheHullsOfEveryPoint(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator acc = new PairAccumulator(0, 1);
        java.util.TreeMap<Long, HalfHull[]> subHulls = new java.util.TreeMap<>();
        java.util.TreeMap<Long, HalfHull[]> bucketHulls = new java.util.TreeMap<>();
        long sub = TimeBuckets.INITIAL_WIDTH / TimeBuckets.SUB_BUCKETS;
        long t = T0;
        int n = 30_000;
        for (int k = 0; k < n; k++) {
            t += r.nextInt(100) == 0 ? r.nextLong(20_000_000_000L) : r.nextLong(20_000_000L); // gaps of up to 20 s
            long x = t;
            int late = r.nextInt(50);
            if (late == 0) {
                x -= r.nextLong(30_000_000_000L); // up to 30 s late: its sub-bucket was sealed
            } else if (late < 5) {
                x -= r.nextLong(1_500_000_000L); // within the open window, mostly
            }
            long lat = 30_000 + r.nextLong(300_000);
            long skew = 1_000_000_000L + Math.floorMod(x, 5_000_000_000L) / 10_000;
            boolean ab = r.nextBoolean();
            long y = ab ? x + skew + lat : x + skew - lat;
            if (ab) {
                acc.addAToB(x, y);
            } else {
                acc.addBToA(y, x);
            }
            long u = x - acc.x0();
            long v = y - x - acc.v0();
            subHulls.computeIfAbsent(Math.floorDiv(x, sub), key -> hullPair())[ab ? 0 : 1].add(u, v);
            bucketHulls.computeIfAbsent(Math.floorDiv(x, TimeBuckets.INITIAL_WIDTH), key -> hullPair())[ab ? 0 : 1].add(u, v);
            if (r.nextInt(3_000) == 0) {
                assertThat(acc.timeBuckets().buckets()).hasSize(bucketHulls.size()); // seals what is open
            }
        }
        TimeBuckets tb = acc.timeBuckets();
        assertThat(tb.width()).isEqualTo(TimeBuckets.INITIAL_WIDTH);
        List<TimeBuckets.Bucket> coarse = tb.buckets();
        assertThat(coarse).hasSize(bucketHulls.size());
        for (TimeBuckets.Bucket c : coarse) {
            HalfHull[] whole = bucketHulls.get(c.key());
            assertThat(c.pu()).containsExactly(whole[0].us());
            assertThat(c.pv()).containsExactly(whole[0].vs());
            assertThat(c.qu()).containsExactly(whole[1].us());
            assertThat(c.qv()).containsExactly(whole[1].vs());
            TimeBuckets.Bucket fine = tb.fine(c.key());
            long[][] expected = concatenated(subHulls.subMap(c.key() * TimeBuckets.SUB_BUCKETS,
                    (c.key() + 1) * TimeBuckets.SUB_BUCKETS).values());
            assertThat(fine.pu()).containsExactly(expected[0]);
            assertThat(fine.pv()).containsExactly(expected[1]);
            assertThat(fine.qu()).containsExactly(expected[2]);
            assertThat(fine.qv()).containsExactly(expected[3]);
        }
    }

    /**
     * Sub-buckets whose latencies differ by seconds (v beyond 32 bits of a base) are stored
     * unpacked beside packed ones: accumulated once, in consecutive parts merged in order, and in
     * parts merged out of order (re-hulled), every bucket and sub-bucket polyline is the hull of
     * every point of it.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void latenciesOfSecondsInOneSubBucketGiveTheHullsOfEveryPoint(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator once = new PairAccumulator(0, 1);
        PairAccumulator[] parts = {new PairAccumulator(0, 1), new PairAccumulator(0, 1), new PairAccumulator(0, 1)};
        java.util.TreeMap<Long, HalfHull[]> subHulls = new java.util.TreeMap<>();
        long sub = TimeBuckets.INITIAL_WIDTH / TimeBuckets.SUB_BUCKETS;
        int n = 20_000;
        long span = 600_000_000_000L;
        long[] xs = new long[n];
        long[] ys = new long[n];
        boolean[] ab = new boolean[n];
        for (int k = 0; k < n; k++) {
            xs[k] = T0 + span / n * k + r.nextLong(span / n);
            long lat = 30_000 + (r.nextInt(20) == 0 ? r.nextLong(6_000_000_000L) : r.nextLong(300_000)); // some of seconds
            ab[k] = r.nextBoolean();
            ys[k] = ab[k] ? xs[k] + 1_000_000_000L + lat : xs[k] + 1_000_000_000L - lat;
        }
        for (int k = 0; k < n; k++) {
            // parts: consecutive thirds of the trace (merged in order, then the first two swapped)
            for (PairAccumulator acc : new PairAccumulator[] {once, parts[Math.min(2, 3 * k / n)]}) {
                if (ab[k]) {
                    acc.addAToB(xs[k], ys[k]);
                } else {
                    acc.addBToA(ys[k], xs[k]);
                }
            }
            long u = xs[k] - once.x0();
            long v = ys[k] - xs[k] - once.v0();
            subHulls.computeIfAbsent(Math.floorDiv(xs[k], sub), key -> hullPair())[ab[k] ? 0 : 1].add(u, v);
        }
        PairAccumulator inOrder = new PairAccumulator(0, 1);
        PairAccumulator outOfOrder = new PairAccumulator(0, 1);
        for (int i : new int[] {0, 1, 2}) {
            inOrder.merge(parts[i]);
        }
        for (int i : new int[] {1, 0, 2}) {
            outOfOrder.merge(parts[i]);
        }
        for (PairAccumulator acc : new PairAccumulator[] {once, inOrder, outOfOrder}) {
            long du = acc.x0() - once.x0();
            long dv = acc.v0() - once.v0();
            TimeBuckets tb = acc.timeBuckets();
            List<TimeBuckets.Bucket> coarse = tb.buckets();
            assertThat(coarse).hasSize((int) subHulls.keySet().stream().map(key -> Math.floorDiv(key, TimeBuckets.SUB_BUCKETS)).distinct().count());
            for (TimeBuckets.Bucket c : coarse) {
                TimeBuckets.Bucket fine = tb.fine(c.key());
                long[][] expected = concatenated(subHulls.subMap(c.key() * TimeBuckets.SUB_BUCKETS,
                        (c.key() + 1) * TimeBuckets.SUB_BUCKETS).values());
                assertThat(shifted(fine.pu(), du)).containsExactly(expected[0]);
                assertThat(shifted(fine.pv(), dv)).containsExactly(expected[1]);
                assertThat(shifted(fine.qu(), du)).containsExactly(expected[2]);
                assertThat(shifted(fine.qv(), dv)).containsExactly(expected[3]);
            }
        }
        long wide = subHulls.values().stream().filter(h -> {
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (HalfHull x : h) {
                for (long v : x.vs()) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                }
            }
            return hi - lo > 0xFFFF_FFFFL; // some vertex is 2^31 away from any base
        }).count();
        assertThat(wide).isGreaterThan(5); // the unpacked path was taken
    }

    private static HalfHull[] hullPair() {
        return new HalfHull[] {new HalfHull(HalfHull.Side.LOWER), new HalfHull(HalfHull.Side.UPPER)};
    }

    /** The sub-hulls' vertices, concatenated in key order: {pu, pv, qu, qv}. */
    private static long[][] concatenated(java.util.Collection<HalfHull[]> hulls) {
        long[][] out = new long[4][];
        for (int side = 0; side < 2; side++) {
            java.util.stream.LongStream.Builder us = java.util.stream.LongStream.builder();
            java.util.stream.LongStream.Builder vs = java.util.stream.LongStream.builder();
            for (HalfHull[] h : hulls) {
                for (int i = 0; i < h[side].size(); i++) {
                    us.add(h[side].u(i));
                    vs.add(h[side].v(i));
                }
            }
            out[2 * side] = us.build().toArray();
            out[2 * side + 1] = vs.build().toArray();
        }
        return out;
    }

    /**
     * The sign of (v − the polyline at u), exactly, for u within the polyline's span (the
     * polyline's vertices are points, so every point of the bucket is within it).
     */
    private static int side(long[] us, long[] vs, long u, long v) {
        int j = 0;
        while (j + 1 < us.length && us[j + 1] < u) {
            j++;
        }
        if (us[j] == u || j + 1 == us.length) {
            assertThat(us[j]).isEqualTo(u);
            return Long.compare(v, vs[j]);
        }
        // (v − vs[j]) · (us[j+1] − us[j]) against (vs[j+1] − vs[j]) · (u − us[j])
        java.math.BigInteger left = java.math.BigInteger.valueOf(v - vs[j]).multiply(java.math.BigInteger.valueOf(us[j + 1] - us[j]));
        java.math.BigInteger right = java.math.BigInteger.valueOf(vs[j + 1] - vs[j]).multiply(java.math.BigInteger.valueOf(u - us[j]));
        return left.compareTo(right);
    }

    private static long[] shifted(long[] values, long by) {
        long[] out = values.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += by;
        }
        return out;
    }
}
