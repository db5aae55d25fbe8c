package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.model.Quality;

/** Issue #11 item 2: a class matches what is written — accurate means two-sided bounds. */
class QualityMatchesBoundsTest {

    private static final long X = 1_700_000_000_000_000_000L;

    @Test
    void aRegionAllowingANonPositiveRateIsNotAccurate() {
        // P = {(0, 0), (10, 0)}, Q = {(5, −20)}: drift ∈ [−4, 4], bounded, but a slope 1 + d ≤ 0 fits
        PairAccumulator acc = new PairAccumulator(0, 1);
        acc.addAToB(X, X);
        acc.addAToB(X + 10, X + 10);
        acc.addBToA(X - 15, X + 5);
        PairEstimate e = ConvexHullEstimator.estimate(acc);
        assertThat(e.dMin().toDouble()).isEqualTo(-4.0);
        assertThat(e.dMax().toDouble()).isEqualTo(4.0);
        assertThat(e.quality()).isEqualTo(Quality.INCOMPLETE);
        assertThat(e.note()).contains("non-positive clock rate");
        assertThat(e.d()).isEqualTo(0.0);
        // the estimate is strictly inside: both a → b points above, the b → a point below
        assertThat(e.c() + e.v0()).isLessThan(0).isGreaterThan(-20);
    }

    @ParameterizedTest
    @ValueSource(longs = {7, 8})
    void everyAccuratePairHasTwoSidedBounds(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int accurate = 0;
        for (int iter = 0; iter < 2000; iter++) {
            PairAccumulator acc = new PairAccumulator(0, 1);
            double d0 = r.nextDouble(-0.5, 0.5);
            for (int k = 0; k < 1 + r.nextInt(6); k++) {
                long u = r.nextInt(100);
                acc.addAToB(X + u, X + u + (long) Math.ceil(d0 * u) + r.nextInt(40));
            }
            for (int k = 0; k < 1 + r.nextInt(6); k++) {
                long u = r.nextInt(100);
                acc.addBToA(X + u + (long) Math.floor(d0 * u) - r.nextInt(40), X + u);
            }
            PairEstimate e = ConvexHullEstimator.estimate(acc);
            if (e.quality() == Quality.ACCURATE) {
                accurate++;
                assertThat(e.hasBounds()).as("seed %d iter %d: %s", seed, iter, e.note()).isTrue();
            }
        }
        assertThat(accurate).isGreaterThan(300);
    }
}
