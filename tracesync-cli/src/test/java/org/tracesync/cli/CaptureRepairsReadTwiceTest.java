package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;

/**
 * {@code apply} for captures writes the controlled logical clock's moves per event: a capture
 * whose clock stepped back by 4 ms at local time 10 ms (so it read [10, 14) ms twice) holds a
 * packet at local 12 ms before the step and another at 12 ms after it, and the repair moved both.
 * Keyed by local time the copy gave both the first one's repaired time; each now gets its own,
 * found by its reading in file order.
 */
class CaptureRepairsReadTwiceTest {

    private static final long MS = 1_000_000L;
    private static final long T0 = 1_700_000_000_000_000_000L;

    @Test
    void eachOfTwoPacketsAtATimeReadTwiceGetsItsOwnRepairedTime() {
        // before the step ref = local + 1 ms; after it ref = local + 5 ms (the clock went back 4 ms)
        ClockTransform stepped = new ClockTransform(List.of(
                new LinearSegment(null, T0 + 10 * MS, T0, 1 * MS, 0.0),
                new LinearSegment(T0 + 10 * MS, null, T0 + 10 * MS, 5 * MS, 0.0)));
        assertThat(stepped.readTwiceEnd(1)).isEqualTo(T0 + 14 * MS);
        NodeResult node = new NodeResult("h2", "h2.pcapng", "h1", Quality.PIECEWISE, stepped, NodeBounds.NONE, List.of("h1", "h2"),
                T0, T0 + 20 * MS, "");
        long x = T0 + 12 * MS;
        long early = x + 1 * MS;
        long late = x + 5 * MS;
        long[][] repairs = {{x, early + 300_000, early}, {x, late + 200_000, late}};
        LongUnaryOperator time = TraceApplier.timesInOrder(node, repairs);
        // file order: 11 ms and 12 ms before the step, then 10.5 ms (the clock went back) and 12 ms again
        assertThat(time.applyAsLong(T0 + 11 * MS)).isEqualTo(T0 + 12 * MS);
        assertThat(time.applyAsLong(x)).isEqualTo(early + 300_000);
        assertThat(time.applyAsLong(T0 + 10 * MS + 500_000)).isEqualTo(T0 + 15 * MS + 500_000);
        assertThat(time.applyAsLong(x)).isEqualTo(late + 200_000);
        // rows written before the reading was listed ({t, r}) still match any event at t
        LongUnaryOperator old = TraceApplier.timesInOrder(node, new long[][] {{x, early + 300_000}});
        old.applyAsLong(T0 + 11 * MS);
        assertThat(old.applyAsLong(x)).isEqualTo(early + 300_000);
    }
}
