package org.tracesync.cli.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;

/** What the report draws of a piecewise transform: pieces, knots, steps. */
class PiecewisePlotTest {

    private static final long T0 = 1_700_000_000_000_000_000L;
    private static final long S = 1_000_000_000L;

    /** Three pieces: continuous at T0 + 10 s, a +2 ms jump at T0 + 20 s. */
    private static ClockTransform threePieces() {
        return new ClockTransform(List.of(
                new LinearSegment(null, T0 + 10 * S, T0, 1_000.0, 1e-6),
                new LinearSegment(T0 + 10 * S, T0 + 20 * S, T0 + 10 * S, 11_000.0, -2e-6),
                new LinearSegment(T0 + 20 * S, null, T0 + 20 * S, 2_000_000.0 - 9_000.0, 0.0)));
    }

    @Test
    void knotsInsideTheRangeAndStepsWithTheirJump() {
        HtmlReport.Knots k = HtmlReport.Knots.of(threePieces(), T0, T0 + 30 * S, T0);
        assertThat(k.knots()).containsExactly(10.0, 20.0);
        assertThat(k.steps()).containsExactly(20.0);
        assertThat(k.labels()).containsExactly("jump +2.000 ms");
        // a range that holds only the first knot
        HtmlReport.Knots first = HtmlReport.Knots.of(threePieces(), T0, T0 + 15 * S, T0 + 5 * S);
        assertThat(first.knots()).containsExactly(5.0);
        assertThat(first.steps()).isEmpty();
    }

    @Test
    void pieceLineHasBothSidesOfEveryKnot() {
        double[][] l = HtmlReport.pieceLine(threePieces(), T0, 0.0, 30.0);
        assertThat(l[0]).containsExactly(0.0, 10.0, 10.0, 20.0, 20.0, 30.0);
        // v in µs: 1 µs at the start, 11 µs at the continuous knot (both sides), then the jump
        assertThat(l[1][0]).isCloseTo(1.0, within(1e-9));
        assertThat(l[1][1]).isCloseTo(11.0, within(1e-9));
        assertThat(l[1][2]).isCloseTo(11.0, within(1e-9));
        assertThat(l[1][3]).isCloseTo(-9.0, within(1e-9));
        assertThat(l[1][4]).isCloseTo(1_991.0, within(1e-9));
        assertThat(l[1][5]).isCloseTo(1_991.0, within(1e-9));
    }

    @Test
    void correctionLineAddsTheKnotsToTheSamples() {
        double[][] l = HtmlReport.correctionLine(threePieces(), T0, T0 + 30 * S, 3);
        assertThat(l[0]).containsExactly(0.0, 10.0, 10.0, 20.0, 20.0, 30.0);
        assertThat(l[1][4]).isCloseTo(1.991, within(1e-12)); // ms
    }

    @Test
    void stepLabelGivesTheSizeAndItsBounds() {
        assertThat(HtmlReport.stepLabel(new ClockStep(T0, T0 - S, T0 + S, 4_274_000, 4_198_000, 4_352_000)))
                .isEqualTo("step +4.274 ms [+4.198, +4.352]");
        assertThat(HtmlReport.stepLabel(new ClockStep(T0, T0 - S, T0 + S, -3e6, Double.NaN, Double.NaN)))
                .isEqualTo("step -3.000 ms");
    }
}
