package org.tracesync.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.BoundRow;

/**
 * Seeded simulations: 2–6 nodes, linear clocks at epoch magnitudes, offsets up to seconds, drifts
 * up to ±100 ppm, latency = minimum + exponential tail, chains and meshes. After sync no message
 * is inverted and the true clock lies inside the bounds at every message.
 */
class SimulatedClusterSyncTest {

    static Stream<Arguments> clusters() {
        return IntStream.range(0, 40).mapToObj(seed -> Arguments.of(seed, 2 + seed % 5, seed % 2 == 0 ? "chain" : "mesh"));
    }

    @ParameterizedTest(name = "seed {0}: {1} nodes, {2}")
    @MethodSource("clusters")
    void noInversionAndBoundsContainTheTruth(long seed, int n, String topology) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        LinearClusterSimulation sim = new LinearClusterSimulation(n, r);
        long duration = 600_000_000_000L; // ten minutes
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (topology.equals("chain") && b != a + 1) {
                    continue;
                }
                long min = 20_000 + r.nextLong(200_000); // 20–220 µs, same both ways
                sim.link(r, a, b, 200 + r.nextInt(800), duration, min, min, 30_000 + r.nextInt(100_000));
            }
        }
        SyncResult result = Synchronizer.synchronize(sim, Synchronizer.Options.defaults()).result();
        int ref = indexOf(result, result.reference());
        for (NodeResult node : result.nodes()) {
            assertThat(node.reference()).isEqualTo(result.reference());
            assertThat(node.quality()).isIn(Quality.ACCURATE, Quality.REFERENCE);
        }
        for (Message m : sim.messages) {
            NodeResult s = result.nodes().get(m.sender());
            NodeResult d = result.nodes().get(m.receiver());
            double gap = (double) (m.recvTime() - m.sendTime()) + d.transform().correction(m.recvTime())
                    - s.transform().correction(m.sendTime());
            assertThat(gap).as("corrected latency of %s", m).isGreaterThan(0);
        }
        for (int i = 0; i < n; i++) {
            NodeResult node = result.nodes().get(i);
            if (i == ref) {
                continue;
            }
            assertThat(node.bounds().isEmpty()).isFalse();
            for (Message m : sim.messages) {
                long t = m.sender() == i ? m.sendTime() : m.receiver() == i ? m.recvTime() : Long.MIN_VALUE;
                if (t == Long.MIN_VALUE) {
                    continue;
                }
                double truth = sim.trueCorrection(i, ref, t);
                double est = node.transform().correction(t);
                double[] mp = node.bounds().at(t);
                assertThat(truth).as("node %s at %d: truth vs [%f, %f]", node.name(), t, est - mp[0], est + mp[1])
                        .isBetween(est - mp[0] - 1.0, est + mp[1] + 1.0);
            }
        }
    }

    static int indexOf(SyncResult r, String name) {
        for (int i = 0; i < r.nodes().size(); i++) {
            if (r.nodes().get(i).name().equals(name)) {
                return i;
            }
        }
        throw new AssertionError(name);
    }
}
