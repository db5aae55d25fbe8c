package org.tracesync.core.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;

/**
 * Chain latencies around a clock step (issue #13 item 4): node b's clock reads a's + 1 s and steps
 * back by 4 ms at a-time C; the messages place the step within [C − 50 ms, C + 30 ms]. A step of
 * b there has two readings; the chain's other step (it happened before, or after) picks the one
 * that keeps the chain in order, as {@code eval} does for a message
 * ({@link org.tracesync.core.transform.MessageEnds}).
 */
class LatencyAroundAStepTest {

    private static final long C = 1_700_000_100_000_000_000L;
    private static final long MS = 1_000_000L;

    private static LatencyBars bars() {
        ClockTransform b = new ClockTransform(List.of(new LinearSegment(null, C, C, 1e9, 0),
                new LinearSegment(C, null, C, 1e9 - 4 * MS, 0, C - 50 * MS, C + 30 * MS + 1))).inverse();
        NodeResult a = new NodeResult("a", "sim", "a", Quality.REFERENCE, ClockTransform.identity(C), NodeBounds.NONE,
                List.of(), C - 1_000 * MS, C + 1_000 * MS, "");
        NodeResult nb = new NodeResult("b", "sim", "a", Quality.PIECEWISE, b, NodeBounds.NONE, List.of("b", "a"),
                C - 1_000 * MS, C + 1_000 * MS, "");
        return new LatencyBars(new SyncResult("a", List.of(a, nb), List.of(), Map.of(), List.of()), List.of(), 0);
    }

    @Test
    void aChainStepAroundAStepTakesTheReadingThatKeepsTheChainInOrder() {
        LatencyBars bars = bars();
        long[] out = new long[3];
        // a → b: b's step at b-time C + 990 ms reads a-time C − 10 ms before the step, C − 6 ms after;
        // local time alone takes before (the cut is at b-time C + 996 ms). a's step at C − 8 ms came
        // first: b's came after the step, 2 ms later
        bars.measure(0, C - 8 * MS, 1, C + 990 * MS, out);
        assertThat(out[0]).isEqualTo(2 * MS);
        // b → a: b's step at b-time C + 998 ms, read twice (C − 2 ms before the step, C + 2 ms
        // after; local time alone: after); a's next step at C − 1 ms: b's came before the step
        bars.measure(1, C + 998 * MS, 0, C - MS, out);
        assertThat(out[0]).isEqualTo(MS);
        // away from the step nothing changes
        bars.measure(0, C + 500 * MS, 1, C + 1_500 * MS, out);
        assertThat(out[0]).isEqualTo(4 * MS);
    }
}
