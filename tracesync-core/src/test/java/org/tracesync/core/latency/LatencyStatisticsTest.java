package org.tracesync.core.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statistics and their bars: nearest-rank percentiles, and the property that when every true
 * latency lies inside its instance's bar, every true statistic lies inside the statistic's bar.
 */
class LatencyStatisticsTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void trueStatisticsLieInsideTheBarsOfTheMeasuredOnes(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 1 + r.nextInt(5_000);
        long[] truth = new long[n];
        long[] latency = new long[n];
        long[] minus = new long[n];
        long[] plus = new long[n];
        for (int i = 0; i < n; i++) {
            truth[i] = 1_000 + r.nextLong(1_000_000);
            minus[i] = r.nextLong(50_000);
            plus[i] = r.nextLong(50_000);
            latency[i] = truth[i] - plus[i] + r.nextLong(minus[i] + plus[i] + 1); // truth in [L - minus, L + plus]
        }
        LatencyStatistics s = LatencyStatistics.of(latency, minus, plus, n, true);
        long[] t = truth.clone();
        Arrays.sort(t);
        assertThat(s.count()).isEqualTo(n);
        inside(s.min(), t[0]);
        inside(s.max(), t[n - 1]);
        inside(s.p50(), t[(int) Math.ceil(0.5 * n) - 1]);
        inside(s.p90(), t[(int) Math.ceil(0.9 * n) - 1]);
        inside(s.p99(), t[(int) Math.ceil(0.99 * n) - 1]);
        double mean = Arrays.stream(truth).average().orElseThrow();
        assertThat(mean).isBetween((double) s.mean().value() - s.mean().minus(), (double) s.mean().value() + s.mean().plus());
        long[] v = latency.clone();
        Arrays.sort(v);
        assertThat(s.p90().value()).isEqualTo(v[(int) Math.ceil(0.9 * n) - 1]);
    }

    private static void inside(LatencyStatistics.Figure f, long truth) {
        assertThat(truth).isBetween(f.value() - f.minus(), f.value() + f.plus());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 10, 100})
    void withoutBarsTheFiguresHaveNone(int n) {
        long[] v = new long[n];
        for (int i = 0; i < n; i++) {
            v[i] = 10L * (n - i);
        }
        LatencyStatistics s = LatencyStatistics.of(v, new long[n], new long[n], n, false);
        assertThat(s.min().value()).isEqualTo(10);
        assertThat(s.max().value()).isEqualTo(10L * n);
        assertThat(s.p50().minus()).isNull();
        assertThat(s.mean().value()).isEqualTo(Math.round(5.0 * (n + 1)));
    }
}
