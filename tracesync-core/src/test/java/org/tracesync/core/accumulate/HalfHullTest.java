package org.tracesync.core.accumulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import java.math.BigInteger;

class HalfHullTest {

    /** Brute-force check: every point lies on the correct side of every hull edge, vertices are in the set. */
    static void assertIsHalfHull(HalfHull h, long[] u, long[] v) {
        long[] hu = h.us();
        long[] hv = h.vs();
        boolean lower = h.side() == HalfHull.Side.LOWER;
        for (int k = 1; k < hu.length; k++) {
            assertThat(hu[k]).isGreaterThan(hu[k - 1]);
        }
        for (int k = 0; k + 1 < hu.length; k++) {
            for (int i = 0; i < u.length; i++) {
                if (u[i] < hu[k] || u[i] > hu[k + 1]) {
                    continue;
                }
                // side of point i against edge k (exact, BigInteger)
                BigInteger cross = BigInteger.valueOf(hu[k + 1] - hu[k]).multiply(BigInteger.valueOf(v[i] - hv[k]))
                        .subtract(BigInteger.valueOf(hv[k + 1] - hv[k]).multiply(BigInteger.valueOf(u[i] - hu[k])));
                assertThat(lower ? cross.signum() >= 0 : cross.signum() <= 0)
                        .as("point %d (%d,%d) on the wrong side of edge %d", i, u[i], v[i], k).isTrue();
            }
        }
        // the extremes are the extreme abscissas, and each vertex is an input point
        long minU = Long.MAX_VALUE;
        long maxU = Long.MIN_VALUE;
        for (long x : u) {
            minU = Math.min(minU, x);
            maxU = Math.max(maxU, x);
        }
        assertThat(hu[0]).isEqualTo(minU);
        assertThat(hu[hu.length - 1]).isEqualTo(maxU);
        for (int k = 0; k < hu.length; k++) {
            boolean found = false;
            for (int i = 0; i < u.length && !found; i++) {
                found = u[i] == hu[k] && v[i] == hv[k];
            }
            assertThat(found).isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10})
    void anyArrivalOrderGivesTheSameHull(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 50 + r.nextInt(3000);
        long[] u = new long[n];
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            u[i] = r.nextLong(3_600_000_000_000L); // an hour of ns
            v[i] = 80_000_000L + u[i] / 100_000 + (long) (-Math.log(1 - r.nextDouble()) * 50_000) + 20_000;
            if (i % 17 == 0 && i > 0) {
                u[i] = u[i - 1]; // duplicate abscissas
            }
        }
        for (HalfHull.Side side : HalfHull.Side.values()) {
            HalfHull shuffled = new HalfHull(side);
            for (int i = 0; i < n; i++) {
                shuffled.add(u[i], v[i]);
            }
            long[][] sorted = sortedCopy(u, v);
            HalfHull inOrder = new HalfHull(side);
            for (int i = 0; i < n; i++) {
                inOrder.add(sorted[0][i], sorted[1][i]);
            }
            assertThat(shuffled.us()).containsExactly(inOrder.us());
            assertThat(shuffled.vs()).containsExactly(inOrder.vs());
            assertIsHalfHull(shuffled, u, v);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15})
    void mergingEqualsAccumulatingOnce(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 5000;
        HalfHull all = new HalfHull(HalfHull.Side.LOWER);
        HalfHull[] parts = {new HalfHull(HalfHull.Side.LOWER), new HalfHull(HalfHull.Side.LOWER), new HalfHull(HalfHull.Side.LOWER)};
        for (int i = 0; i < n; i++) {
            long u = r.nextLong(1_000_000_000_000L);
            long v = (long) (1e6 * Math.sin(u / 1e11)) + r.nextLong(100_000);
            all.add(u, v);
            parts[r.nextInt(3)].add(u, v);
        }
        HalfHull merged = new HalfHull(HalfHull.Side.LOWER);
        for (HalfHull p : parts) {
            merged.addAll(p);
        }
        assertThat(merged.us()).containsExactly(all.us());
        assertThat(merged.vs()).containsExactly(all.vs());
    }

    @ParameterizedTest
    @ValueSource(longs = {41, 42, 43, 44})
    void aShiftedHullMergedIntoAnEmptyOneIsThePushedShiftedHull(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (HalfHull.Side side : HalfHull.Side.values()) {
            HalfHull h = new HalfHull(side);
            int n = r.nextInt(2000);
            for (int i = 0; i < n; i++) {
                long u = r.nextLong(1_000_000);
                h.add(u, r.nextInt(3) == 0 ? 5 * u : (long) (1e5 * Math.cos(u / 1e5)) + r.nextLong(1000));
            }
            long du = r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
            long dv = r.nextLong(-1_000_000_000_000L, 1_000_000_000_000L);
            HalfHull copied = new HalfHull(side);
            copied.addAllShifted(h, du, dv);
            HalfHull pushed = new HalfHull(side);
            long[] us = h.us();
            long[] vs = h.vs();
            for (int i = 0; i < us.length; i++) {
                pushed.add(us[i] + du, vs[i] + dv);
            }
            assertThat(copied.us()).containsExactly(pushed.us());
            assertThat(copied.vs()).containsExactly(pushed.vs());
            copied.add(2_000_000 + du, dv); // and it grows on from there
            pushed.add(2_000_000 + du, dv);
            assertThat(copied.us()).containsExactly(pushed.us());
        }
    }

    @Test
    void aCopyHasTheSameVerticesAndGrowsAlone() {
        HalfHull h = new HalfHull(HalfHull.Side.LOWER);
        for (long x = 0; x < 100; x++) {
            h.add(x, x * x);
        }
        h.add(-5, 1_000); // pending: folded in by the copy
        HalfHull c = new HalfHull(HalfHull.Side.LOWER);
        c.add(7, 7);
        c.copyOf(h);
        assertThat(c.us()).containsExactly(h.us());
        assertThat(c.vs()).containsExactly(h.vs());
        c.add(200, 0);
        assertThat(c.size()).isLessThan(h.size() + 1);
        assertThat(h.us()[h.size() - 1]).isEqualTo(99);
    }

    @Test
    void collinearAndDuplicatePointsAreNotVertices() {
        HalfHull h = new HalfHull(HalfHull.Side.LOWER);
        h.add(0, 0);
        h.add(10, 10);
        h.add(5, 5); // collinear, out of order
        h.add(10, 12); // same abscissa, higher: dominated
        h.add(20, 20);
        assertThat(h.us()).containsExactly(0, 20);
        h.add(10, 9);
        assertThat(h.us()).containsExactly(0, 10, 20);
        assertThat(h.vs()).containsExactly(0, 9, 20);
    }

    @Test
    void millionPointsOnAConvexCurveAllStayOnTheHull() {
        // h ≈ n: every point is a vertex. Must stay O(n log n) overall, in and out of order.
        int n = 1_000_000;
        HalfHull lower = new HalfHull(HalfHull.Side.LOWER);
        for (int i = 0; i < n; i++) {
            long u = (long) i * 1_000;
            lower.add(u, (long) i * i); // v = u²/1e6: convex
        }
        assertThat(lower.size()).isEqualTo(n);
        HalfHull reversed = new HalfHull(HalfHull.Side.LOWER);
        for (int i = n - 1; i >= 0; i--) {
            reversed.add((long) i * 1_000, (long) i * i);
        }
        assertThat(reversed.size()).isEqualTo(n);
        assertThat(reversed.v(n - 1)).isEqualTo((long) (n - 1) * (n - 1));
    }

    /**
     * The insertion's turn test against BigInteger on operands of every magnitude, from 1 bit to
     * 63 (products up to 2^126, the two sides' high words equal and the low words differing only
     * in their top bit), both signs, and exact ties.
     */
    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void leftTurnIsExactAtEveryMagnitude(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int n = 0; n < 300_000; n++) {
            long du1 = operand(r);
            long dv1 = operand(r);
            long du2 = operand(r);
            long dv2 = operand(r);
            if (n % 5 == 0) { // a tie: (du2, dv2) a multiple of (du1, dv1)
                long k = 1 + r.nextInt(3);
                if (Math.abs(du1) < Long.MAX_VALUE / 4 && Math.abs(dv1) < Long.MAX_VALUE / 4) {
                    du2 = du1 * k;
                    dv2 = dv1 * k;
                }
            }
            BigInteger cross = BigInteger.valueOf(du1).multiply(BigInteger.valueOf(dv2))
                    .subtract(BigInteger.valueOf(dv1).multiply(BigInteger.valueOf(du2)));
            assertThat(HalfHull.leftTurn(du1, dv1, du2, dv2)).as("(%d, %d) then (%d, %d)", du1, dv1, du2, dv2)
                    .isEqualTo(cross.signum() > 0);
        }
    }

    /** A random long of 1 to 63 significant bits, either sign. */
    private static long operand(SplittableRandom r) {
        int bits = 1 + r.nextInt(63);
        long x = r.nextLong() >>> (64 - bits);
        return r.nextBoolean() ? x : -x;
    }

    /**
     * Both sides at epoch-scale offsets and hour-long spans (cross products beyond 64 bits), in
     * order, shuffled and merged from shifted parts: the same hull, and the brute-force check
     * holds (upper hulls are stored negated: what is read is what was added).
     */
    @ParameterizedTest
    @ValueSource(longs = {31, 32, 33, 34})
    void bothSidesAtLargeMagnitudesMergeShiftedAsAccumulatedOnce(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 2000 + r.nextInt(2000);
        long[] u = new long[n];
        long[] v = new long[n];
        long base = r.nextLong(-4_000_000_000_000_000L, 4_000_000_000_000_000L);
        for (int i = 0; i < n; i++) {
            u[i] = base + r.nextLong(3_600_000_000_000L);
            v[i] = -base / 3 + (long) (3e9 * Math.sin((u[i] - base) / 4e11)) + r.nextLong(5_000_000_000L);
        }
        for (HalfHull.Side side : HalfHull.Side.values()) {
            HalfHull once = new HalfHull(side);
            HalfHull[] parts = {new HalfHull(side), new HalfHull(side)};
            long[] du = {r.nextLong(-1_000_000_000L, 1_000_000_000L), r.nextLong(-1_000_000_000L, 1_000_000_000L)};
            long[] dv = {r.nextLong(-1_000_000_000L, 1_000_000_000L), r.nextLong(-1_000_000_000L, 1_000_000_000L)};
            for (int i = 0; i < n; i++) {
                once.add(u[i], v[i]);
                int k = r.nextInt(2);
                parts[k].add(u[i] - du[k], v[i] - dv[k]); // the part's own origin
            }
            HalfHull merged = new HalfHull(side);
            merged.addAllShifted(parts[0], du[0], dv[0]);
            merged.addAllShifted(parts[1], du[1], dv[1]);
            assertThat(merged.us()).containsExactly(once.us());
            assertThat(merged.vs()).containsExactly(once.vs());
            assertIsHalfHull(once, u, v);
            for (int k = 0; k < once.size(); k++) {
                assertThat(once.v(k)).isEqualTo(once.vs()[k]);
            }
        }
    }

    private static long[][] sortedCopy(long[] u, long[] v) {
        long[] su = u.clone();
        long[] sv = v.clone();
        HalfHull.sortByU(su, sv, su.length);
        return new long[][] {su, sv};
    }
}
