package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.model.Quality;

/**
 * Issue #11 item 4: an incomplete pair's estimate lies strictly inside the corridor where a line
 * strictly inside exists — no message at corrected latency 0.
 */
class IncompleteEstimateTest {

    private static final long T = 1_700_000_000_000_000_000L;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void incompleteEstimatesKeepEveryMessageStrictlyForward(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int incomplete = 0;
        for (int iter = 0; iter < 1000; iter++) {
            // a → b messages early, b → a late: the drift is unbounded on one side
            double drift = r.nextDouble(-50e-6, 50e-6);
            double offset = r.nextDouble(-1e6, 1e6);
            PairAccumulator acc = new PairAccumulator(0, 1);
            int n1 = 1 + r.nextInt(20);
            int n2 = 1 + r.nextInt(20);
            long[][] ab = new long[n1][];
            long[][] ba = new long[n2][];
            boolean early = r.nextBoolean();
            for (int k = 0; k < n1; k++) {
                long x = T + (early ? 0 : 600_000_000L) + r.nextLong(400_000_000L);
                long y = x + Math.round(offset + drift * (x - T)) + 10_000 + r.nextInt(50_000);
                acc.addAToB(x, y);
                ab[k] = new long[] {x, y};
            }
            for (int k = 0; k < n2; k++) {
                long x = T + (early ? 600_000_000L : 0) + r.nextLong(400_000_000L);
                long y = x + Math.round(offset + drift * (x - T)) - 10_000 - r.nextInt(50_000);
                acc.addBToA(y, x);
                ba[k] = new long[] {x, y};
            }
            PairEstimate e = ConvexHullEstimator.estimate(acc);
            if (e.quality() != Quality.INCOMPLETE) {
                continue;
            }
            incomplete++;
            double minClearance = Double.POSITIVE_INFINITY;
            for (long[] m : ab) { // y above the line
                minClearance = Math.min(minClearance, (m[1] - m[0] - e.v0()) - (e.c() + e.d() * (m[0] - e.x0())));
            }
            for (long[] m : ba) { // y below the line
                minClearance = Math.min(minClearance, (e.c() + e.d() * (m[0] - e.x0())) - (m[1] - m[0] - e.v0()));
            }
            assertThat(minClearance).as("seed %d iter %d: %s", seed, iter, e.note()).isGreaterThan(0.5);
        }
        assertThat(incomplete).isGreaterThan(900);
    }
}
