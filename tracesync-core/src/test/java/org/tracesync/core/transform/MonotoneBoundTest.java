package org.tracesync.core.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class MonotoneBoundTest {

    /** A concave lower bound: slopes 2, 1, 0.5 on [0, 10], [10, 20], [20, 40]; 3 left, 0.25 right. */
    private static MonotoneBound concave() {
        return new MonotoneBound(MonotoneBound.Kind.LOWER, new long[] {0, 10, 20, 40}, new long[] {100, 120, 130, 140},
                3.0, 0.25);
    }

    @Test
    void valuesFollowTheSamplesAndTheEndSlopes() {
        MonotoneBound f = concave();
        assertThat(f.deltaAt(0)).isEqualTo(100.0);
        assertThat(f.deltaAt(5)).isEqualTo(110.0 - 5); // f(5) = 110
        assertThat(f.deltaAt(30)).isEqualTo(135.0 - 30);
        assertThat(f.deltaAt(-10)).isEqualTo(70.0 + 10); // f(−10) = 100 − 30
        assertThat(f.deltaAt(80)).isEqualTo(150.0 - 80); // f(80) = 140 + 10
    }

    @Test
    void aFractionalOffsetSpanningSeveralSamplesLandsInTheRightSegment() {
        // the point 0 + 15.5 lies in the second segment: f(15.5) = 125.5; the segment of x = 0
        // extended to 15.5 would give 131 (too high for a lower bound: not strict)
        MonotoneBound f = concave();
        assertThat(f.deltaAt(0, 15.5)).isCloseTo(125.5 - 15.5, within(1e-9));
        assertThat(f.deltaAt(30, -25.0)).isCloseTo(110.0 - 5, within(1e-9));
        assertThat(f.deltaAt(-100, 130.0)).isCloseTo(135.0 - 30, within(1e-9));
    }

    @Test
    void inverseSwapsTheAxesAndTheKind() {
        MonotoneBound g = concave().inverse();
        assertThat(g.kind()).isEqualTo(MonotoneBound.Kind.UPPER);
        assertThat(g.deltaAt(125)).isCloseTo(15.0 - 125, within(1e-9));
        assertThat(g.slopeLeft()).isCloseTo(1 / 3.0, within(1e-15));
        assertThat(g.deltaAt(150)).isCloseTo(80.0 - 150, within(1e-9));
    }

    /** compose(outer, inner) at random points: never inside the exact composition, within 1 ns of it. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void compositionIsStrictAndTight(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int iter = 0; iter < 200; iter++) {
            boolean lower = r.nextBoolean();
            MonotoneBound inner = random(r, lower, 0, 1_000_000);
            // outer lives on inner's value axis, offset by a large amount (another clock)
            MonotoneBound outer = random(r, lower, inner.r(0) - 5_000, 3_000_000);
            MonotoneBound c = MonotoneBound.compose(outer, inner);
            for (int k = 0; k < 50; k++) {
                long x = r.nextLong(-200_000, 1_200_000);
                double d1 = inner.deltaAt(x);
                double exact = d1 + outer.deltaAt(x, d1);
                double got = c.deltaAt(x);
                if (lower) {
                    assertThat(got).as("seed %d iter %d x %d", seed, iter, x).isLessThanOrEqualTo(exact + 1e-6)
                            .isGreaterThan(exact - 1.0 - 1e-6 * Math.abs(x));
                } else {
                    assertThat(got).as("seed %d iter %d x %d", seed, iter, x).isGreaterThanOrEqualTo(exact - 1e-6)
                            .isLessThan(exact + 1.0 + 1e-6 * Math.abs(x));
                }
            }
        }
    }

    /** A random concave (lower) or convex (upper) increasing bound with slopes in [0.8, 1.2]. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void deltasAtSweepGivesDeltaAtAtEveryTime(long seed) {
        // ascending times before, at, between and after the samples, repeats included: the
        // sweep's values are deltaAt's, bit for bit (meanWidth and NodeBounds.of rely on it)
        SplittableRandom r = new SplittableRandom(seed);
        MonotoneBound f = random(r, seed % 2 == 0, 1_700_000_000_000_000_000L, 600_000_000_000L);
        int n = 200;
        long[] xs = new long[n];
        for (int i = 0; i < n; i++) {
            int pick = r.nextInt(3);
            xs[i] = pick == 0 ? f.t(r.nextInt(f.size()))
                    : f.t(0) - 1_000_000_000L + r.nextLong(f.t(f.size() - 1) - f.t(0) + 2_000_000_000L);
        }
        java.util.Arrays.sort(xs);
        double[] swept = f.deltasAt(xs, n);
        for (int i = 0; i < n; i++) {
            assertThat(Double.doubleToRawLongBits(swept[i])).as("x = %d", xs[i])
                    .isEqualTo(Double.doubleToRawLongBits(f.deltaAt(xs[i])));
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void samplesUpToCountsTheSamplesAtOrBeforeATimeAndCopySamplesCopiesThem(long seed) {
        // the piecewise fit joins its pieces' bounds by these two instead of a loop per sample
        SplittableRandom r = new SplittableRandom(seed);
        MonotoneBound f = random(r, seed % 2 == 0, 1_700_000_000_000_000_000L, 600_000_000_000L);
        for (int i = 0; i < 100; i++) {
            long x = i % 3 == 0 ? f.t(r.nextInt(f.size())) + r.nextInt(-1, 2)
                    : f.t(0) - 1_000L + r.nextLong(f.t(f.size() - 1) - f.t(0) + 2_000L);
            int counted = 0;
            for (int k = 0; k < f.size(); k++) {
                if (f.t(k) <= x) {
                    counted++;
                }
            }
            assertThat(f.samplesUpTo(x)).as("x = %d", x).isEqualTo(counted);
        }
        assertThat(f.samplesUpTo(Long.MIN_VALUE)).isZero();
        assertThat(f.samplesUpTo(Long.MAX_VALUE)).isEqualTo(f.size());
        int from = r.nextInt(f.size());
        int to = from + r.nextInt(f.size() - from + 1);
        long[] ts = new long[f.size() + 3];
        long[] rs = new long[f.size() + 3];
        f.copySamples(from, to, ts, rs, 2);
        for (int k = from; k < to; k++) {
            assertThat(ts[2 + k - from]).isEqualTo(f.t(k));
            assertThat(rs[2 + k - from]).isEqualTo(f.r(k));
        }
    }

    private static MonotoneBound random(SplittableRandom r, boolean lower, long start, long span) {
        int n = 1 + r.nextInt(8);
        double[] slopes = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            slopes[k] = 0.8 + 0.4 * r.nextDouble();
        }
        java.util.Arrays.sort(slopes);
        if (lower) { // concave: decreasing slopes
            for (int k = 0; k < (n + 1) / 2; k++) {
                double s = slopes[k];
                slopes[k] = slopes[n - k];
                slopes[n - k] = s;
            }
        }
        long[] t = new long[n];
        long[] v = new long[n];
        t[0] = start;
        v[0] = start + r.nextInt(-1000, 1000);
        for (int k = 1; k < n; k++) {
            long dt = 1 + r.nextLong(span / n);
            t[k] = t[k - 1] + dt;
            // integer values on a strictly concave/convex chain: the slope between samples is slopes[k]
            v[k] = v[k - 1] + (long) Math.floor(slopes[k] * dt);
        }
        // end slopes: the extreme ones, so that the function stays concave/convex
        double left = slopes[0];
        double right = slopes[n];
        return new MonotoneBound(lower ? MonotoneBound.Kind.LOWER : MonotoneBound.Kind.UPPER, t, v, left, right);
    }
}
