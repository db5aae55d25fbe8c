package org.tracesync.core.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.NodeBounds;

class TruthScoreTest {

    private static final long T0 = SimulationConfig.DEFAULT_START;

    /** b runs 1 ms ahead of a (no drift); the result says so with the given error and bounds. */
    private static TruthScore.Score score(double offsetError, double minus, double plus, long... messages) {
        Map<String, ClockModel> truth = Map.of("a", ClockModel.perfect("a", T0),
                "b", new ClockModel("b", T0, 1_000_000, 0.0, 0.0));
        NodeResult a = new NodeResult("a", "", "a", Quality.REFERENCE, ClockTransform.identity(T0), NodeBounds.NONE,
                List.of("a"), T0, T0 + 1000, "");
        NodeResult b = new NodeResult("b", "", "a", Quality.ACCURATE,
                ClockTransform.linear(T0, -1_000_000 + offsetError, 0.0),
                NodeBounds.ofRows(List.of(new BoundRow(T0, minus, plus), new BoundRow(T0 + 2_000_000_000L, minus, plus))),
                List.of("b", "a"), T0, T0 + 1000, "");
        SyncResult r = new SyncResult("a", List.of(a, b), List.of(), Map.of(), List.of());
        TruthScore s = new TruthScore(r, List.of("a", "b"), truth, 2.0);
        for (int i = 0; i < messages.length; i += 4) {
            s.message((int) messages[i], (int) messages[i + 1], messages[i + 2], messages[i + 3]);
        }
        return s.score();
    }

    @Test
    void exactResultHolds() {
        // a → b: sent at T0 + 100 (a), arrives 50 ns later: b reads T0 + 1 ms + 150
        TruthScore.Score s = score(0, 10, 10, 0, 1, T0 + 100, T0 + 1_000_150, 1, 0, T0 + 1_000_300, T0 + 400);
        assertThat(s.holds()).isTrue();
        assertThat(s.checks()).isEqualTo(2); // only b's ends are checked; a is the reference
        assertThat(s.maxError()).isZero();
        assertThat(s.maxBoundWidth()).isEqualTo(20);
    }

    @Test
    void errorOutsideTheBoundsIsAViolation() {
        // the estimate is 30 ns late; bounds only allow 10 ns below / 50 above
        TruthScore.Score s = score(30, 10, 50, 0, 1, T0 + 100, T0 + 1_000_150);
        assertThat(s.violations()).isEqualTo(1);
        assertThat(s.firstViolation()).contains("node b", "true error -30.0 ns outside [-10.0, +50.0]");
        assertThat(score(30, 40, 0, 0, 1, T0 + 100, T0 + 1_000_150).violations()).isZero();
    }

    @Test
    void inversionIsCounted() {
        // the estimate is 100 ns early; a message b → a with 50 ns latency now arrives before it left
        TruthScore.Score s = score(100, 200, 200, 1, 0, T0 + 1_000_300, T0 + 350);
        assertThat(s.inversions()).isEqualTo(1);
        assertThat(s.holds()).isFalse();
    }
}
