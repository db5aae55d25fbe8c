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
        return RegressionEstimator.pairedSamples(abSend, abRecv, baSend, baRecv, origin[0], origin[1]);
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
        RegressionEstimator.Fit fit = RegressionEstimator.fit(s[0], s[1], s[2], 0.95);
        // one pass, on the margins: clean exponential tails lose a few percent, not a third
        assertThat(fit.rejected()).isLessThan(150); // of 2,000: about 5 % of a gamma tail
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
        RegressionEstimator.Fit fit = RegressionEstimator.fit(s[0], s[1], s[2], 0.99);
        // one pass on the round-trip margins: the 20 spikes and a few of the longest clean ones
        assertThat(fit.rejected()).isBetween(20, 40);
        assertThat(fit.samples() + fit.rejected()).isEqualTo(1000);
        double trueC = 50_000_000L + 10e-6 * (origin[0] - T0) - origin[1];
        assertThat(fit.c()).isCloseTo(trueC, within(1_000.0));
        assertThat(fit.d()).isCloseTo(10e-6, within(1e-7));
    }

    /**
     * A hand computation: u = 0..4, θ = 1, 3, 2, 5, 4. ū = 2, θ̄ = 3, Sxx = 10, Sxθ = 8, so
     * d = 0.8, c = 3 − 0.8·2 = 1.4; residuals −0.4, 0.8, −1.0, 1.2, −0.6, SSR = 3.6, s² = 3.6/3 = 1.2;
     * SE(d) = √(1.2/10) = 0.346410, SE(c) = √1.2·√(1/5 + 4/10) = 0.848528; t(3, 0.975) = 3.182446,
     * so the 95 % half-widths are 3.182446 · SE: 1.102431 and 2.700395.
     */
    @Test
    void standardErrorsAndConfidenceIntervalsMatchAHandComputation() {
        double[] u = {0, 1, 2, 3, 4};
        double[] theta = {1, 3, 2, 5, 4};
        double[] margin = {10, 10, 10, 10, 10};
        RegressionEstimator.Fit fit = RegressionEstimator.fit(u, theta, margin, 0.95);
        assertThat(fit.rejected()).isZero();
        assertThat(fit.d()).isCloseTo(0.8, within(1e-12));
        assertThat(fit.c()).isCloseTo(1.4, within(1e-12));
        assertThat(fit.residualStandardError()).isCloseTo(Math.sqrt(1.2), within(1e-12));
        assertThat(fit.seD()).isCloseTo(0.346410, within(1e-6));
        assertThat(fit.seC()).isCloseTo(0.848528, within(1e-6));
        assertThat(fit.ciD()).isCloseTo(1.102431, within(1e-5));
        assertThat(fit.ciC()).isCloseTo(2.700395, within(1e-5));
    }

    @Test
    void oneRejectionPassDropsTheExchangesWithTheLargestMargins() {
        // 9 exchanges with a 100 ns margin, one with 10 µs (queued): mean 1090, sd 3130 → limit at
        // 0.95: 1090 + 1.96·3130 = 7225: only the queued one goes, once
        double[] u = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        double[] theta = {0, 0, 0, 0, 0, 0, 0, 0, 0, 5000};
        double[] margin = {100, 100, 100, 100, 100, 100, 100, 100, 100, 10_000};
        RegressionEstimator.Fit fit = RegressionEstimator.fit(u, theta, margin, 0.95);
        assertThat(fit.rejected()).isEqualTo(1);
        assertThat(fit.c()).isZero();
        assertThat(fit.d()).isZero();
    }

    @Test
    void studentQuantileMatchesTables() {
        assertThat(RegressionEstimator.studentQuantile(0.975, 3)).isCloseTo(3.182446, within(1e-5));
        assertThat(RegressionEstimator.studentQuantile(0.975, 10)).isCloseTo(2.228139, within(1e-5));
        assertThat(RegressionEstimator.studentQuantile(0.995, 1)).isCloseTo(63.65674, within(1e-3));
        assertThat(RegressionEstimator.studentQuantile(0.975, 100_000)).isCloseTo(1.959986, within(1e-4));
    }

    @Test
    void normalQuantileMatchesKnownValues() {
        assertThat(RegressionEstimator.normalQuantile(0.975)).isCloseTo(1.959964, within(1e-6));
        assertThat(RegressionEstimator.normalQuantile(0.995)).isCloseTo(2.575829, within(1e-6));
        assertThat(RegressionEstimator.normalQuantile(0.5)).isCloseTo(0.0, within(1e-12));
    }
}
