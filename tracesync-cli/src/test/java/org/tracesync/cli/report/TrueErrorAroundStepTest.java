package org.tracesync.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.simulate.ClockEvent;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;

/**
 * The report's true-error line around a backward clock step: a local time read twice has two true
 * reference times, one on each line of the transform. The line compares the estimate's reading
 * with the truth of the same side, so an exact transform draws a true error of 0 there instead of
 * the step's size (the truth's reading of the other side).
 */
class TrueErrorAroundStepTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 1_700_000_000_000_000_000L;

    @Test
    void anExactTransformHasNoTrueErrorAtTheTimesReadTwice() {
        long stepAt = T0 + 10 * MS;
        ClockModel ref = ClockModel.perfect("r", T0);
        // own reads true + 1 ms, then its clock goes back 4 ms at true time 10 ms: true − 3 ms after
        ClockModel own = new ClockModel("n", T0, MS, 0.0, 0.0, List.of(ClockEvent.step(stepAt, -4 * MS)));
        long from = own.local(stepAt); // the first local time read after the step
        ClockTransform exact = new ClockTransform(List.of(
                new LinearSegment(null, from, T0, -1 * MS, 0.0),
                new LinearSegment(from, null, from, 3 * MS, 0.0)));
        long end = exact.readTwiceEnd(1);
        assertThat(end - from).isEqualTo(4 * MS);
        int readTwice = 0;
        for (long t = from - MS; t < end + MS; t += 100_000) {
            assertThat(own.trueTimes(t).length).isEqualTo(t >= from && t < end ? 2 : 1);
            readTwice += t >= from && t < end ? 1 : 0;
            double error = HtmlReport.trueReference(own, ref, exact, t) - exact.apply(t);
            assertThat(Math.abs(error)).as("true error at local %d", t - T0).isLessThanOrEqualTo(1.0);
        }
        assertThat(readTwice).isEqualTo(40);
    }
}
