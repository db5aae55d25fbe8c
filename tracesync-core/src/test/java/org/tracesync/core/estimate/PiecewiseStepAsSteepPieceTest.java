package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockEvent;
import org.tracesync.core.transform.LinearSegment;

/**
 * Issue #13, "Clock steps": a step of b's clock small enough (2.36 ms) that the greedy scan fitted
 * it as one short ordinary piece at about −3,662 ppm, with no step, break or warning, although a
 * jump that only a line faster than {@link PiecewiseEstimator#MAX_SLEW_RATE} could bridge is a
 * step (USER_GUIDE). The trace is {@link PiecewiseBoundsLpOracleTest}'s generator, Bend.STEP,
 * seed 6, 4 messages/s each way, 10 minutes (found by helper slewtest, thirteenth session), and
 * seed 29 (a 7,104 ppm piece), with and without {@code --max-slew-rate 500}: the only ones of 40
 * seeds at 2, 4 and 10 messages/s, each with and without the bound, that missed their step.
 */
class PiecewiseStepAsSteepPieceTest {

    private static final double PPM = 1e-6;

    @ParameterizedTest(name = "seed {0}, max slew rate {1} ppm")
    @CsvSource({"6, 0", "6, 500", "29, 0", "29, 500"})
    void aSmallStepIsReportedNotFittedAsASteepPiece(long seed, double maxSlewRatePpm) throws Exception {
        PiecewiseBoundsLpOracleTest.Case c = new PiecewiseBoundsLpOracleTest.Case(PiecewiseBoundsLpOracleTest.Bend.STEP,
                seed, 4, maxSlewRatePpm == 0 ? PiecewiseEstimator.NO_SLEW_RATE_BOUND : maxSlewRatePpm * PPM);
        SplittableRandom r = new SplittableRandom(c.seed() * 31 + c.bend().ordinal() - 1);
        PiecewiseBoundsLpOracleTest.Trace trace = PiecewiseBoundsLpOracleTest.generated(c, r);
        List<ClockEvent> steps = trace.b().steps();
        assertThat(steps).hasSize(1);
        ClockEvent truth = steps.get(0); // a reads true time: the step's a-time is its true time
        SyncResult result = PiecewiseBoundsLpOracleTest.sync(trace.msgs(), c.maxSlewRate());
        PairResult pair = result.pairs().get(0);
        List<LinearSegment> segs = result.nodes().get(1).transform().segments();
        StringBuilder desc = new StringBuilder(pair.note());
        for (LinearSegment s : segs) {
            desc.append(String.format("%n  [%s, %s) drift %.1f ppm", s.from(), s.to(), s.drift() / PPM));
        }
        desc.append(String.format("%n  true step %d ns at %d; found %s", truth.step(), truth.at(), pair.steps()));
        // the step is reported, at its true time, with size bounds that hold the true size
        assertThat(pair.steps()).as(desc.toString()).hasSize(1);
        ClockStep step = pair.steps().get(0);
        assertThat(truth.at()).as(desc.toString()).isBetween(step.earliest(), step.latest());
        assertThat((double) truth.step()).as(desc.toString()).isBetween(step.sizeMin(), step.sizeMax());
        // and no piece departs from its neighbours' drift by more than a slew could
        for (int k = 1; k < segs.size(); k++) {
            assertThat(Math.abs(segs.get(k).drift() - segs.get(k - 1).drift())).as(desc.toString())
                    .isLessThanOrEqualTo(PiecewiseEstimator.MAX_SLEW_RATE + PiecewiseEstimator.SLEW_RATE_SLACK);
        }
    }
}
