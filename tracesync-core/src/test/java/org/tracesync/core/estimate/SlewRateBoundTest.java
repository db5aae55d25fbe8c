package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.TruthScore;

/**
 * The piecewise fit with a bound on a slew's rate ({@link Synchronizer.Options#withMaxSlewRate},
 * {@code sync --max-slew-rate}): issue #13's acceptance grid's NTP-like clocks (two slews per
 * clock, seed 1), scored against the true clocks. With the clocks' own slew rate as the bound, the
 * chains that slew faster than any clock does are excluded (a smaller error; a slew no longer
 * taken for a step); with a bound the clocks break, the fit keeps what it takes without the bound
 * there, says so, and inverts nothing; without a bound, the fit is the default one.
 */
class SlewRateBoundTest {

    private static final long HOUR = 3_600_000_000_000L;
    private static final double PPM = 1e-6;

    /** The grid's NTP + slews clocks, seed 1 ({@link PiecewiseEstimatorTest#ntpSlews}). */
    private static SimulationConfig ntpSlews(long hours, double rate, long minLatency, double slewRate) {
        return PiecewiseEstimatorTest.ntpSlews(1, hours * HOUR, rate, minLatency, slewRate);
    }

    private static SyncResult sync(SimulationConfig config, double maxSlewRate) throws Exception {
        return Synchronizer.synchronize(ClusterSimulator.input(config),
                Synchronizer.Options.defaults().withReference("0").withMaxSlewRate(maxSlewRate)).result();
    }

    /**
     * 12 h at 2 messages/s, 30 µs: without a bound the chain taken at a's first slew (3.7 s at
     * 500 ppm) slews at 721 ppm and errs by 332 µs, a chain the messages allow as well as the
     * truth (docs/PERFORMANCE.md, acceptance grid, eleventh session); under the clocks' 500 ppm it
     * is excluded and the fit stays within the minimum latency of the truth (29 µs).
     */
    @Test
    void theClocksSlewRateKeepsTheSlewsNearTheTruth() throws Exception {
        SimulationConfig config = ntpSlews(12, 2.0, 30_000, 500 * PPM);
        SyncResult bounded = sync(config, 500 * PPM);
        PairResult pair = bounded.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.steps()).isEmpty();
        TruthScore.Score s = PiecewiseEstimatorTest.assertNoInversionTruthInside(config, bounded);
        assertThat(s.maxError()).as("max error (ns)").isLessThan(30_000);
        assertThat(bounded.stats()).containsEntry("max_slew_rate_ppm", 500.0).containsEntry("slews_beyond_bound", 0);
        assertThat(bounded.warnings()).noneMatch(w -> w.contains("slew-rate bound"));
        assertThat(pair.note()).contains("slews at most 500.0 ppm from the line before").doesNotContain("none that slow fits");
        TruthScore.Score unbounded = PiecewiseEstimatorTest.score(config, sync(config, PiecewiseEstimator.NO_SLEW_RATE_BOUND));
        assertThat(unbounded.maxError()).as("max error without the bound (ns)").isGreaterThan(300_000);
    }

    /**
     * 6 h at 2 messages/s, 30 µs: a 0.74-s slew between two pieces that meet is a −374 µs step
     * without a bound (a step and a slew of 1,000 ppm with no message inside look the same); under
     * the clocks' 500 ppm a slew is tried there first, and it fits.
     */
    @Test
    void aShortSlewBetweenPiecesThatMeetIsNoLongerAStep() throws Exception {
        SimulationConfig config = ntpSlews(6, 2.0, 30_000, 500 * PPM);
        assertThat(sync(config, PiecewiseEstimator.NO_SLEW_RATE_BOUND).pairs().get(0).steps()).hasSize(1);
        SyncResult bounded = sync(config, 500 * PPM);
        assertThat(bounded.pairs().get(0).steps()).isEmpty();
        TruthScore.Score s = PiecewiseEstimatorTest.assertNoInversionTruthInside(config, bounded);
        assertThat(s.maxError()).as("max error (ns)").isLessThan(60_000);
    }

    /**
     * Clocks that slew at 900 ppm, fitted under a 500 ppm bound: where no slew within the bound
     * fits the messages the fit keeps the faster slew it takes without the bound, counts it, and
     * warns; no message is inverted and the bounds hold the truth.
     */
    @Test
    void slewsFasterThanTheBoundAreFittedAsWithoutItAndSaid() throws Exception {
        SimulationConfig config = ntpSlews(2, 5.0, 60_000, 900 * PPM);
        SyncResult bounded = sync(config, 500 * PPM);
        PairResult pair = bounded.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.steps()).isEmpty();
        assertThat((Integer) bounded.stats().get("slews_beyond_bound")).isPositive();
        assertThat(bounded.warnings()).anyMatch(w -> w.startsWith("pair 0/1: ")
                && w.contains("faster than the slew-rate bound of 500.0 ppm"));
        PiecewiseEstimatorTest.assertNoInversionTruthInside(config, bounded);
    }

    /** Without a bound (the default options) the result is the default fit's: no bound said, none counted. */
    @Test
    void withoutABoundTheFitIsTheDefault() throws Exception {
        assertThat(Synchronizer.Options.defaults().maxSlewRate()).isEqualTo(PiecewiseEstimator.NO_SLEW_RATE_BOUND);
        SimulationConfig config = ntpSlews(2, 2.0, 60_000, 500 * PPM);
        SyncResult r = Synchronizer.synchronize(ClusterSimulator.input(config),
                Synchronizer.Options.defaults().withReference("0")).result();
        assertThat(r.stats()).doesNotContainKeys("max_slew_rate_ppm", "slews_beyond_bound");
        assertThat(r.pairs().get(0).quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(r.pairs().get(0).note()).doesNotContain("slews at most");
    }
}
