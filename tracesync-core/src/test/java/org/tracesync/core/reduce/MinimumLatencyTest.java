package org.tracesync.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.MinimumLatency;
import org.tracesync.core.model.Quality;

/**
 * Issue #11 item 8: per-direction τmin narrows the pair hulls and path composition, the bounds
 * still contain the truth, and a τmin above a real latency is detected and reported.
 */
class MinimumLatencyTest {

    /** A chain n0 – n1 – n2 with minimum latencies 35/90 µs and 60/20 µs on its two links. */
    private static LinearClusterSimulation chain(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        LinearClusterSimulation sim = new LinearClusterSimulation(3, r);
        sim.link(r, 0, 1, 500, 10_000_000_000L, 35_000, 90_000, 30_000);
        sim.link(r, 1, 2, 500, 10_000_000_000L, 60_000, 20_000, 30_000);
        return sim;
    }

    private static MinimumLatency tau(long ab01, long ba01, long ab12, long ba12) {
        return new MinimumLatency(3, "test").set(0, 1, ab01).set(1, 0, ba01).set(1, 2, ab12).set(2, 1, ba12);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void perDirectionTauNarrowsPathBoundsWhichStillHoldTheTruth(long seed) throws Exception {
        LinearClusterSimulation sim = chain(seed);
        Synchronizer.Options base = Synchronizer.Options.defaults().withReference("n0");
        SyncResult plain = Synchronizer.synchronize(sim, base).result();
        SyncResult narrowed = Synchronizer.synchronize(sim, base.withLatency(tau(30_000, 85_000, 55_000, 18_000))).result();
        assertThat(narrowed.warnings()).noneMatch(w -> w.contains("tau ignored"));
        for (int node = 1; node <= 2; node++) {
            NodeResult a = plain.nodes().get(node);
            NodeResult b = narrowed.nodes().get(node);
            assertThat(b.quality()).isEqualTo(Quality.ACCURATE);
            double widthPlain = 0;
            double widthTau = 0;
            for (int k = 0; k <= 20; k++) {
                long t = b.start() - (b.end() - b.start()) / 2 + (b.end() - b.start()) / 10 * k; // also outside the data
                double truth = sim.trueCorrection(node, 0, t);
                double est = b.transform().correction(t);
                assertThat(truth).as("node %d at %d", node, t)
                        .isBetween(est - b.bounds().minus(t) - 2, est + b.bounds().plus(t) + 2);
                widthPlain += a.bounds().minus(t) + a.bounds().plus(t);
                widthTau += b.bounds().minus(t) + b.bounds().plus(t);
            }
            // each hop's corridor loses τ both ways: 115 µs on the first link, 73 µs more on the second
            double narrowing = (widthPlain - widthTau) / 21;
            assertThat(narrowing).as("node %d", node).isGreaterThan(node == 1 ? 100_000 : 170_000);
        }
    }

    @Test
    void aTauAboveARealLatencyIsDetectedAndDropped() throws Exception {
        LinearClusterSimulation sim = chain(4);
        // 200 µs + 200 µs: more than any round trip on the first link (35 + 90 µs minimum)
        MinimumLatency tooLarge = MinimumLatency.uniform(3, 200_000, "--min-latency 200000 ns");
        Synchronizer.Synchronization s = Synchronizer.synchronize(sim,
                Synchronizer.Options.defaults().withReference("n0").withLatency(tooLarge));
        PairEstimate p01 = s.pairs().get(0);
        assertThat(p01.note()).startsWith("tau ignored").contains("200000 ns a to b");
        assertThat(p01.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(s.result().warnings()).anyMatch(w -> w.startsWith("pair n0/n1: tau ignored"));
        assertThat(s.result().stats()).containsEntry("min_latency_ignored_pairs", 2L);
        NodeResult n2 = s.result().node("n2");
        long t = (n2.start() + n2.end()) / 2;
        double est = n2.transform().correction(t);
        assertThat(sim.trueCorrection(2, 0, t)).isBetween(est - n2.bounds().minus(t) - 2, est + n2.bounds().plus(t) + 2);
    }
}
