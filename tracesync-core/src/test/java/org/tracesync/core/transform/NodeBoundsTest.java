package org.tracesync.core.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class NodeBoundsTest {

    private static final long T = 1_700_000_000_000_000_000L;

    @Test
    void rowsInterpolateBetweenAndExtrapolateBeyond() {
        NodeBounds b = NodeBounds.ofRows(List.of(new BoundRow(100, 10, 20), new BoundRow(200, 30, 20)));
        assertThat(b.at(150)).containsExactly(20, 20);
        assertThat(b.at(300)).containsExactly(50, 20);
        assertThat(b.at(0)).containsExactly(-10, 20);
        assertThat(NodeBounds.NONE.at(5)[0]).isNaN();
        assertThat(NodeBounds.ofRows(List.of(new BoundRow(7, 1, 2))).at(1_000)).containsExactly(1, 2);
    }

    @Test
    void anAbsentSideIsUnboundedNextToItsRowAndBeyond() {
        NodeBounds b = NodeBounds.ofRows(List.of(new BoundRow(100, 10, Double.NaN), new BoundRow(200, 30, 5),
                new BoundRow(300, Double.POSITIVE_INFINITY, 5)));
        assertThat(b.plus(150)).isInfinite();
        assertThat(b.plus(100)).isInfinite();
        assertThat(b.plus(250)).isEqualTo(5);
        assertThat(b.minus(250)).isInfinite();
        assertThat(b.minus(150)).isEqualTo(20);
        assertThat(b.minus(400)).isInfinite();
        assertThat(b.twoSided()).isFalse();
    }

    @Test
    void rowsMustIncrease() {
        assertThatThrownBy(() -> NodeBounds.ofRows(List.of(new BoundRow(5, 1, 1), new BoundRow(5, 1, 1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strictly increasing");
    }

    /**
     * The factory's end rows follow the bound functions' end slopes: far outside the breakpoints the
     * rows give exactly lower(t) and upper(t), not the continuation of the last inner edge.
     */
    @Test
    void endRowsCarryTheExtremeSlopes() {
        // truth around ref(t) = t + 1000: lower/upper through three samples, with steep end slopes
        MonotoneBound lower = new MonotoneBound(MonotoneBound.Kind.LOWER,
                new long[] {T, T + 1_000_000, T + 2_000_000}, new long[] {T + 900, T + 1_000_950, T + 2_000_960},
                1.001, 0.999);
        MonotoneBound upper = new MonotoneBound(MonotoneBound.Kind.UPPER,
                new long[] {T + 500_000, T + 1_500_000}, new long[] {T + 501_100, T + 1_501_050}, 0.998, 1.002);
        ClockTransform ref = ClockTransform.linear(T, 1000, 0);
        NodeBounds b = NodeBounds.of(ref, lower, upper);
        assertThat(b.rows()).hasSize(5 + 2);
        assertThat(b.rows().get(0).t()).isEqualTo(T - NodeBounds.MIN_END_SPAN); // span 2 ms < 1 s
        for (long t : new long[] {T - 100_000_000_000L, T - 3_000_000, T + 750_000, T + 1_750_000, T + 9_000_000_000L}) {
            assertThat(1000 - b.minus(t)).as("lower at %d", t).isCloseTo(lower.deltaAt(t), within(1e-6));
            assertThat(1000 + b.plus(t)).as("upper at %d", t).isCloseTo(upper.deltaAt(t), within(1e-6));
        }
        // 100 s before: the steep left slope of the lower bound (1.001) widens minus by 100 ms
        assertThat(b.minus(T - 100_000_000_000L)).isCloseTo(100 + 100_000_000, within(1e-3));
    }

    @Test
    void oneSidedBoundsKeepTheOtherSideAbsent() {
        MonotoneBound upper = new MonotoneBound(MonotoneBound.Kind.UPPER, new long[] {T, T + 10}, new long[] {T + 5, T + 15},
                1.0, 1.0);
        NodeBounds b = NodeBounds.of(ClockTransform.linear(T, 0, 0), null, upper);
        assertThat(b.plus(T + 5)).isEqualTo(5.0);
        assertThat(b.minus(T + 5)).isInfinite();
        assertThat(NodeBounds.of(ClockTransform.identity(T), null, null)).isSameAs(NodeBounds.NONE);
    }

    @Test
    void recentringKeepsTheAbsoluteIntervalsEverywhere() {
        MonotoneBound lower = new MonotoneBound(MonotoneBound.Kind.LOWER, new long[] {T, T + 1_000_000},
                new long[] {T + 900, T + 1_000_950}, 1.0001, 0.9999);
        MonotoneBound upper = new MonotoneBound(MonotoneBound.Kind.UPPER, new long[] {T, T + 1_000_000},
                new long[] {T + 1_100, T + 1_001_060}, 0.9999, 1.0001);
        ClockTransform a = ClockTransform.linear(T, 1000, 0);
        ClockTransform b = ClockTransform.linear(T, 1010, 2e-6);
        NodeBounds around = NodeBounds.of(a, lower, upper);
        NodeBounds moved = around.recentred(a, b);
        for (long t : new long[] {T - 50_000_000_000L, T + 123_456, T + 70_000_000_000L}) {
            assertThat(b.correction(t) - moved.minus(t)).isCloseTo(a.correction(t) - around.minus(t), within(1e-4));
            assertThat(b.correction(t) + moved.plus(t)).isCloseTo(a.correction(t) + around.plus(t), within(1e-4));
        }
    }
}
