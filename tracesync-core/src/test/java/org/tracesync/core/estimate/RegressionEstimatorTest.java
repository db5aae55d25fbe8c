package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Regression on simulated exchanges (request a → b, reply b → a). */
class RegressionEstimatorTest {

    static final long T0 = 1_700_000_000_000_000_000L;

    /** Simulated exchanges; b's clock = a's + offset + drift·(t − T0); returns the sample arrays. */
    static double[][] exchanges(SplittableRandom r, int n, long offset, double drift, int outliers, long[] origin) {
        long[] abSend = new long[n];
        long[] abRecv = new long[n];
        long[] baSend = new long[n];
        long[] baRecv = new long[n];
        for (int i = 0; i < n; i++) {
            long t = T0 + i * 10_000_000L; // every 10 ms
            long lat1 = 100_000 + (long) (-Math.log(1 - r.nextDouble()) * 5_000);
            long lat2 = 100_000 + (long) (-Math.log(1 - r.nextDouble()) * 5_000);
            if (i < outliers) {
                lat1 += 5_000_000; // a queueing spike on the request
            }
            long think = 20_000;
            abSend[i] = t;
            abRecv[i] = b(t + lat1, offset, drift);
            baSend[i] = b(t + lat1 + think, offset, drift);
            baRecv[i] = t + lat1 + think + lat2;
        }
        origin[0] = abSend[0];
        origin[1] = abRecv[0] - abSend[0];
        return RegressionEstimator.exchangeSamples(abSend, abRecv, baSend, baRecv, origin[0], origin[1]);
    }

    static long b(long t, long offset, double drift) {
        return t + offset + Math.round(drift * (double) (t - T0));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void recoversOffsetAndDriftFromSymmetricExchanges(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long offset = r.nextLong(-2_000_000_000L, 2_000_000_000L);
        double drift = r.nextDouble(-80e-6, 80e-6);
        long[] origin = new long[2];
        double[][] s = exchanges(r, 2000, offset, drift, 0, origin);
        assertThat(s[0]).hasSize(2000);
        RegressionEstimator.Fit fit = RegressionEstimator.fit(s[0], s[1], 0.95);
        // true v-line: y − x − v0 = offset + drift·(x − T0) − v0, at u = x − x0
        double trueC = offset + drift * (origin[0] - T0) - origin[1];
        assertThat(fit.d()).isCloseTo(drift, within(1e-7));
        assertThat(fit.c()).isCloseTo(trueC, within(1_000.0));
        assertThat(fit.residualStandardError()).isBetween(100.0, 10_000.0);
    }

    @Test
    void rejectsOutliersAtTheConfidenceLevel() {
        SplittableRandom r = new SplittableRandom(99);
        long[] origin = new long[2];
        double[][] s = exchanges(r, 1000, 50_000_000L, 10e-6, 20, origin);
        RegressionEstimator.Fit fit = RegressionEstimator.fit(s[0], s[1], 0.99);
        assertThat(fit.rejected()).isGreaterThanOrEqualTo(20);
        assertThat(fit.samples() + fit.rejected()).isEqualTo(1000);
        double trueC = 50_000_000L + 10e-6 * (origin[0] - T0) - origin[1];
        assertThat(fit.c()).isCloseTo(trueC, within(1_000.0));
        assertThat(fit.d()).isCloseTo(10e-6, within(1e-7));
    }

    @Test
    void normalQuantileMatchesKnownValues() {
        assertThat(RegressionEstimator.normalQuantile(0.975)).isCloseTo(1.959964, within(1e-6));
        assertThat(RegressionEstimator.normalQuantile(0.995)).isCloseTo(2.575829, within(1e-6));
        assertThat(RegressionEstimator.normalQuantile(0.5)).isCloseTo(0.0, within(1e-12));
    }
}
