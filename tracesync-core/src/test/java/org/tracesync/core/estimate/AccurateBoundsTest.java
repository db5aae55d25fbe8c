package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.MonotoneBound;

/**
 * {@link ConvexHullEstimator#accurateBounds}, which the piecewise fit's bound pieces read instead
 * of a whole estimate: the same two bound functions as {@link ConvexHullEstimator#estimateLinear}
 * when that estimate is accurate, and null when it is not (one way, hulls crossing, a drift
 * unbounded by too few messages).
 */
class AccurateBoundsTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void sameBoundsAsTheLinearEstimateWhenAccurate(int seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        PairAccumulator acc = new PairAccumulator(0, 1);
        long offset = rnd.nextLong(-5_000_000_000L, 5_000_000_000L);
        double drift = (rnd.nextDouble() - 0.5) * 1e-4;
        double bend = seed % 3 == 0 ? 1e-12 : 0; // a curving clock: the hulls may cross
        int messages = seed % 4 == 1 ? 2 + rnd.nextInt(3) : 200 + rnd.nextInt(2_000); // few: maybe unbounded
        boolean oneWay = seed == 7;
        long x0 = 1_700_000_000_000_000_000L;
        long x = x0;
        for (int k = 0; k < messages; k++) {
            x += 1_000_000 + rnd.nextInt(50_000_000);
            double dx = x - x0;
            long b = x + offset + Math.round(drift * dx + bend * dx * dx);
            long lat = 40_000 + rnd.nextInt(100_000);
            if (oneWay || rnd.nextBoolean()) {
                acc.addAToB(x, b + lat);
            } else {
                acc.addBToA(b, x + lat);
            }
        }
        PairEstimate linear = ConvexHullEstimator.estimateLinear(acc);
        MonotoneBound[] bounds = ConvexHullEstimator.accurateBounds(acc);
        if (linear.quality() == Quality.ACCURATE && linear.hasBounds()) {
            assertThat(bounds).isNotNull();
            BoundAssertions.assertSameBound(bounds[0], linear.lowerAToB());
            BoundAssertions.assertSameBound(bounds[1], linear.upperAToB());
        } else {
            assertThat(bounds).as("quality %s", linear.quality()).isNull();
        }
    }
}
