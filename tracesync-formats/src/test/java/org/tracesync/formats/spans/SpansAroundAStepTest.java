package org.tracesync.formats.spans;

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
 * Span readers of a result around a clock step (issue #13 item 4): host b's clock reads a's + 1 s
 * and steps back by 4 ms at a-time C; the messages place the step within [C − 50 ms, C + 30 ms].
 * An event of b there has two readings; its local time alone cannot tell which is its own, its
 * position can (for a constraint, its other end: {@link org.tracesync.core.transform.MessageEnds}).
 */
class SpansAroundAStepTest {

    static final long C = 1_700_000_100_000_000_000L; // the step, on a's clock (the reference)
    static final long MS = 1_000_000L;

    /** b's transform onto a: the inverse of a → b (b = a + 1 s, back 4 ms at C), with the either-side times. */
    static ClockTransform bOntoA() {
        return new ClockTransform(List.of(new LinearSegment(null, C, C, 1e9, 0),
                new LinearSegment(C, null, C, 1e9 - 4 * MS, 0, C - 50 * MS, C + 30 * MS + 1))).inverse();
    }

    static SyncResult result() {
        NodeResult a = new NodeResult("a", "spans.json", "a", Quality.REFERENCE, ClockTransform.identity(C),
                NodeBounds.NONE, List.of(), C - 1_000 * MS, C + 1_000 * MS, "");
        NodeResult b = new NodeResult("b", "spans.json", "a", Quality.PIECEWISE, bOntoA(), NodeBounds.NONE,
                List.of("b", "a"), C - 1_000 * MS, C + 1_000 * MS, "");
        return new SyncResult("a", List.of(a, b), List.of(), Map.of(), List.of());
    }

    @Test
    void aConstraintWhoseEndLiesInsideTheStepsIntervalIsJudgedByTheReadingOfItsSide() {
        // b's server span started at b-time C + 990 ms: before the step that reads a-time C − 10 ms,
        // after it C − 6 ms; local time alone takes the line before (the cut is at C + 996 ms).
        // Its client started on a at C − 8 ms: the start came after the step, and is not inverted.
        SpanViolations v = new SpanViolations(List.of("a", "b"), result());
        v.constraint(ConstraintSink.Kind.CALL_START, 0, 1, C - 8 * MS, C + 990 * MS, 1_000, 0, 1);
        // b's server span ended at b-time C + 998 ms, read twice: a-time C − 2 ms before the step,
        // C + 2 ms after; local time alone takes after. Its client ended on a at C − 1 ms: the end
        // came before the step, and is not inverted either.
        v.constraint(ConstraintSink.Kind.CALL_END, 1, 0, C + 998 * MS, C - MS, 1_000, 0, 1);
        assertThat(v.totalAfter()).isZero();
        assertThat(v.totalWithinResolution()).isZero();
        // one neither reading keeps forward is still counted (a-time C − 20 ms: both readings later)
        v.constraint(ConstraintSink.Kind.CALL_START, 0, 1, C - 5 * MS, C + 985 * MS, 1_000, 0, 1);
        assertThat(v.totalAfter()).isEqualTo(1);
    }
}
