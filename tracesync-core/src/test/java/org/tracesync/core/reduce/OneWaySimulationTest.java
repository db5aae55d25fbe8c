package org.tracesync.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.Quality;

/**
 * Seeded simulations of nodes tied one way only (issue #11 item 3, #15): linear clocks at epoch
 * magnitudes (offsets up to seconds, ±100 ppm), n0 – n1 two-way, n2 one way with n1 (either
 * direction), and n3 receiving from both n0 and n1. The one-way nodes are placed on the reference
 * with the smallest correction that removes every violation (no message inverted, and one at
 * corrected latency 0 when the correction is not 0), flagged one-way, and the truth lies on the
 * right side of their one-sided bound at every message instant and at random instants far
 * inside and outside the data.
 */
class OneWaySimulationTest {

    /**
     * Node 2 receives from n0 and sends to n1 (n0 and n1 two-way, clocks equal): each pair is one
     * way, and together they bound its shift on both sides. Consistent (σ ≥ 50, σ ≤ ~200): the value
     * closest to 0, 50 ns, quality one-way. Contradictory (σ ≥ 100, σ ≤ ~−100): the middle, quality
     * fallback, and the note says violations remain.
     */
    @org.junit.jupiter.api.Test
    void oneWayPairsWithSeveralPlacedNodesBoundTheShiftOnBothSides() {
        for (boolean consistent : new boolean[] {true, false}) {
            PairAccumulators acc = new PairAccumulators(3);
            for (long t = 1_000; t <= 100_000; t += 5_000) { // n0, n1: equal clocks, 100 ns each way
                acc.message(0, 1, t, t + 100);
                acc.message(1, 0, t + 2_000, t + 2_100);
            }
            acc.message(0, 2, 50_000, consistent ? 49_950 : 49_900); // σ ≥ 50 (100)
            acc.message(2, 1, 51_000, consistent ? 51_200 : 50_900); // σ ≤ ~200 (~−100)
            List<org.tracesync.core.model.NodeInfo> nodes = List.of(new org.tracesync.core.model.NodeInfo("n0", "t"),
                    new org.tracesync.core.model.NodeInfo("n1", "t"), new org.tracesync.core.model.NodeInfo("n2", "t"));
            List<org.tracesync.core.estimate.PairEstimate> pairs = acc.nonEmptyPairs().stream()
                    .map(org.tracesync.core.estimate.ConvexHullEstimator::estimate).toList();
            SyncResult r = PathReduction.reduce(nodes, acc, pairs, "n0");
            NodeResult n2 = r.node("n2");
            assertThat(n2.reference()).isEqualTo("n0");
            assertThat(n2.note()).contains("from 2 hull points of 2 one-way pairs");
            if (consistent) {
                assertThat(n2.quality()).isEqualTo(Quality.ONE_WAY);
                assertThat(n2.transform().correction(50_000)).isEqualTo(50.0);
                assertThat(n2.note()).contains("50 ns <= shift <=").contains("the smallest shift that removes every violation");
            } else {
                assertThat(n2.quality()).isEqualTo(Quality.FALLBACK);
                assertThat(Math.abs(n2.transform().correction(50_000))).isLessThan(5.0);
                assertThat(n2.note()).contains("no constant shift removes every violation");
            }
        }
    }

    static Stream<Arguments> seeds() {
        return LongStream.range(0, 16).mapToObj(Arguments::of);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void oneWayNodesGetTheSmallestCorrectionAndABoundThatHoldsTheTruth(long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 3 + (int) (seed % 2);
        LinearClusterSimulation sim = new LinearClusterSimulation(n, r);
        long duration = 600_000_000_000L; // ten minutes
        sim.link(r, 0, 1, 300, duration, 50_000, 50_000, 40_000);
        boolean toN2 = seed % 4 < 2;
        sim.send(r, toN2 ? 1 : 2, toN2 ? 2 : 1, 100 + r.nextInt(400), duration, 30_000 + r.nextInt(100_000), 50_000);
        if (n == 4) {
            sim.send(r, 0, 3, 50 + r.nextInt(200), duration, 30_000, 60_000);
            sim.send(r, 1, 3, 50 + r.nextInt(200), duration, 30_000, 60_000);
        }
        SyncResult result = Synchronizer.synchronize(sim, Synchronizer.Options.defaults()).result();
        int ref = SimulatedClusterSyncTest.indexOf(result, result.reference());
        assertThat(ref).isIn(0, 1);
        for (NodeResult node : result.nodes()) {
            assertThat(node.reference()).isEqualTo(result.reference());
        }
        // no message inverted, the one-way nodes' included
        double[] smallest = new double[n];
        java.util.Arrays.fill(smallest, Double.POSITIVE_INFINITY);
        for (Message m : sim.messages) {
            NodeResult s = result.nodes().get(m.sender());
            NodeResult d = result.nodes().get(m.receiver());
            double gap = (double) (m.recvTime() - m.sendTime()) + d.transform().correction(m.recvTime())
                    - s.transform().correction(m.sendTime());
            assertThat(gap).as("corrected latency of %s", m).isGreaterThanOrEqualTo(0);
            int oneWayNode = m.sender() >= 2 ? m.sender() : m.receiver() >= 2 ? m.receiver() : -1;
            if (oneWayNode >= 0) {
                smallest[oneWayNode] = Math.min(smallest[oneWayNode], gap);
            }
        }
        int checked = 0;
        for (int i = 2; i < n; i++) {
            NodeResult node = result.nodes().get(i);
            assertThat(node.quality()).isEqualTo(Quality.ONE_WAY);
            assertThat(node.note()).contains("tied one way only");
            double shift = node.transform().correction(node.start());
            assertThat(node.transform().correction(node.end())).isEqualTo(shift); // offset only
            if (shift != 0) {
                // the smallest correction: a smaller one would invert a message
                assertThat(smallest[i]).as("node %s shifted by %f", node.name(), shift).isLessThan(1.0);
            }
            assertThat(node.bounds().isEmpty()).isFalse();
            assertThat(node.bounds().twoSided()).isFalse();
            long span = node.end() - node.start();
            long[] instants = new long[400];
            int k = 0;
            for (Message m : sim.messages) {
                if (k < 200 && (m.sender() == i || m.receiver() == i)) {
                    instants[k++] = m.sender() == i ? m.sendTime() : m.recvTime();
                }
            }
            while (k < instants.length) {
                instants[k++] = node.start() - span + r.nextLong(3 * span);
            }
            int finiteSide = 0;
            for (long t : instants) {
                double truth = sim.trueCorrection(i, ref, t);
                double est = node.transform().correction(t);
                double[] mp = node.bounds().at(t);
                assertThat(truth).as("seed %d node %s at %d: truth vs [%f, %f]", seed, node.name(), t, est - mp[0], est + mp[1])
                        .isBetween(est - mp[0] - 1.0, est + mp[1] + 1.0);
                finiteSide += Double.isFinite(mp[0]) || Double.isFinite(mp[1]) ? 1 : 0;
                checked++;
            }
            assertThat(finiteSide).as("instants where the one side is finite").isGreaterThan(200);
        }
        assertThat(checked).isGreaterThanOrEqualTo(400);
        assertThat(result.warnings()).anyMatch(w -> w.contains("n2 is tied one way only"));
    }
}
