package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.geometry.Slope;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;

/** The one quality rule: a class is derived from the parts and cannot be written without them. */
class PairEstimateRuleTest {

    private static final long X = 1_700_000_000_000_000_000L;

    private static PairGeometry geometry(long n1, long n2) {
        return new PairGeometry(0, 1, n1, n2, X, 0, X, X + 10, new long[] {0}, new long[] {5}, new long[] {0},
                new long[] {-5});
    }

    @Test
    void theClassFollowsFromTheParts() {
        DriftRange bounded = new DriftRange(Slope.of(-1, 10), Slope.of(1, 10));
        DriftRange open = new DriftRange(Slope.of(-1, 10), Slope.POSITIVE_INFINITY);
        EstimateLine line = new EstimateLine(0, 0);
        assertThat(new PairEstimate(geometry(0, 0), "", null, null, null, null).quality()).isEqualTo(Quality.ABSENT);
        assertThat(new PairEstimate(geometry(3, 0), "", null, null, null, null).quality()).isEqualTo(Quality.ONE_WAY);
        assertThat(new PairEstimate(geometry(3, 3), "", null, line, null, new FallbackStatistics(2, 7)).quality())
                .isEqualTo(Quality.FALLBACK);
        assertThat(new PairEstimate(geometry(3, 3), "", new DriftRange(Slope.of(-3, 1), Slope.of(-2, 1)), null, null, null)
                .quality()).isEqualTo(Quality.INVALID);
        assertThat(new PairEstimate(geometry(3, 3), "", open, line, null, null).quality()).isEqualTo(Quality.INCOMPLETE);
        assertThat(new PairEstimate(geometry(3, 3), "", new DriftRange(Slope.of(-2, 1), Slope.of(1, 10)), line, null, null)
                .quality()).isEqualTo(Quality.INCOMPLETE);
        // a bounded region with a line that inverts messages is fallback, not accurate
        PairEstimate accurate = ConvexHullEstimator.estimate(pair());
        assertThat(accurate.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(accurate.withLine(new EstimateLine(1e6, 0), new FallbackStatistics(4, 1e6), "outside").quality())
                .isEqualTo(Quality.FALLBACK);
        assertThat(bounded.bounded()).isTrue();
    }

    @Test
    void aClassCannotBeWrittenWithoutWhatJustifiesIt() {
        DriftRange bounded = new DriftRange(Slope.of(-1, 10), Slope.of(1, 10));
        assertThatThrownBy(() -> new PairEstimate(geometry(3, 3), "", bounded, new EstimateLine(0, 0), null, null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("accurate without two-sided bounds");
        assertThatThrownBy(() -> new PairEstimate(geometry(3, 0), "", null, new EstimateLine(0, 0), null, null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("one-way but has a line");
        // one-way: one side of bounds at most
        PairEstimate twoSided = ConvexHullEstimator.estimate(pair());
        assertThatThrownBy(() -> new PairEstimate(geometry(3, 0), "", null, null, twoSided.bounds(), null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("one-way with two-sided bounds");
        assertThatThrownBy(() -> new PairEstimate(geometry(3, 3), "", null, null, null, null))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("fallback but has no line");
    }

    @Test
    void aPiecewiseFitMakesThePairPiecewiseAndGivesItsTransform() {
        // two pieces: offset 100 ns up to X + 5, then 300 ns (a step of +200 ns)
        ClockTransform pieces = new ClockTransform(List.of(new LinearSegment(null, X + 5, X, 100, 0),
                new LinearSegment(X + 5, null, X + 5, 300, 0)));
        PiecewiseFit fit = new PiecewiseFit(pieces, null, null, 2,
                List.of(), 1, 0, 1_000_000_000L);
        PairEstimate p = new PairEstimate(geometry(3, 3), "pieces", null, new EstimateLine(100, 0), null, null, fit);
        assertThat(p.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(p.pieceCount()).isEqualTo(2);
        assertThat(p.hullsCross()).isFalse();
        assertThat(p.transformAToB().apply(X + 1)).isEqualTo(X + 101);
        assertThat(p.transformAToB().apply(X + 7)).isEqualTo(X + 307);
        assertThat(p.withNote("other").quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(p.withNote("other").transformAToB().apply(X + 7)).isEqualTo(X + 307);
        // one-way stays one-way whatever the parts; a piecewise pair needs a line
        assertThat(new PairEstimate(geometry(3, 0), "", null, null, null, null, fit).quality()).isEqualTo(Quality.ONE_WAY);
        assertThatThrownBy(() -> new PairEstimate(geometry(3, 3), "", null, null, null, null, fit))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("piecewise but has no line");
    }

    private static PairAccumulator pair() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        acc.addAToB(X, X + 100);
        acc.addAToB(X + 1000, X + 1100);
        acc.addBToA(X + 500, X + 600);
        acc.addBToA(X + 1500, X + 1600);
        return acc;
    }
}
