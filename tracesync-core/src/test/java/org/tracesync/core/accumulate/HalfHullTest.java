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

    private static long[][] sortedCopy(long[] u, long[] v) {
        long[] su = u.clone();
        long[] sv = v.clone();
        HalfHull.sortByU(su, sv, su.length);
        return new long[][] {su, sv};
    }
}
