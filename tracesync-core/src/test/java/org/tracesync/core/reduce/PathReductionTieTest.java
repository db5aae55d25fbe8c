package org.tracesync.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;

/** Issue #11 item 10: a child whose distance ties its parent's must still come after it. */
class PathReductionTieTest {

    private static final long T = 1_700_000_000_000_000_000L;

    @Test
    void aZeroWidthPairAfterTwoFallbackHopsIsComposedAfterItsParent() {
        // same clocks everywhere; n0 - n2 and n2 - n3 are fallback (every message arrives 10 ns
        // before it left), n3 - n1 has zero width (latency exactly 0 both ways at two instants):
        // in doubles 2e13 + 20 + 1e-3 == 2e13 + 20, so n1 ties n3, and n1 comes first in input order
        List<NodeInfo> nodes = List.of(new NodeInfo("n0", "t"), new NodeInfo("n1", "t"), new NodeInfo("n2", "t"),
                new NodeInfo("n3", "t"));
        PairAccumulators acc = new PairAccumulators(4);
        for (int[] p : new int[][] {{0, 2}, {2, 3}}) {
            for (long t = 0; t < 4; t++) {
                acc.message(p[0], p[1], T + 100 * t, T + 100 * t - 10);
                acc.message(p[1], p[0], T + 100 * t + 50, T + 100 * t + 40);
            }
        }
        acc.message(3, 1, T, T);
        acc.message(1, 3, T, T);
        acc.message(3, 1, T + 1000, T + 1000);
        acc.message(1, 3, T + 1000, T + 1000);
        List<PairEstimate> pairs = new ArrayList<>();
        for (PairAccumulator p : acc.nonEmptyPairs()) {
            pairs.add(ConvexHullEstimator.estimate(p));
        }
        assertThat(pairs).extracting(PairEstimate::quality)
                .containsExactlyInAnyOrder(Quality.FALLBACK, Quality.FALLBACK, Quality.ACCURATE);
        assertThat(PathReduction.weight(pairs.get(0)) * 2 + PathReduction.weight(pairs.stream()
                .filter(p -> p.quality() == Quality.ACCURATE).findFirst().orElseThrow()))
                .isEqualTo(PathReduction.weight(pairs.get(0)) * 2);
        SyncResult r = PathReduction.reduce(nodes, acc, pairs, "n0");
        NodeResult n1 = r.node("n1");
        assertThat(n1.path()).containsExactly("n1", "n3", "n2", "n0");
        assertThat(n1.quality()).isEqualTo(Quality.FALLBACK);
        assertThat(n1.transform().correction(T + 500)).isEqualTo(r.node("n3").transform().correction(T + 500));
    }
}
