package org.tracesync.global;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.ClockTransform;

/** The global program with piecewise transforms ({@link PiecewiseProgram}) on clocks that wander. */
class PiecewiseGlobalReductionTest {

    private static final long HOUR = 3_600_000_000_000L;

    /**
     * The triangle (links 0–1 and 0–2 slow and asymmetric, 300 µs one way and 100 µs the
     * other, opposite on the two links; link 1–2 fast, 5 µs) over three hours, with clocks whose
     * drift changes by 2 ppm per hour in opposite directions on nodes 1 and 2: every pair's hulls
     * cross, every pair is piecewise (over a hundred pieces each).
     */
    static MessageSimulation wanderingTriangle(long seed) {
        return wanderingTriangle(seed, Double.NaN, 0);
    }

    /** The same, node 1's clock stepping {@code stepNs} ahead at true time {@code stepAt} (NaN: no step). */
    static MessageSimulation wanderingTriangle(long seed, double stepAt, double stepNs) {
        MessageSimulation sim = new MessageSimulation(seed, 3, 3 * HOUR)
                .clock(1, 30e6, 20e-6)
                .clock(2, -45e6, -15e-6)
                .wander(1, 2.0)
                .wander(2, -2.0);
        if (!Double.isNaN(stepAt)) {
            sim.step(1, stepAt, stepNs);
        }
        return sim.sendInOrder(0, 1, 27_000, 300_000, 5_000).sendInOrder(1, 0, 27_000, 100_000, 5_000)
                .sendInOrder(0, 2, 27_000, 100_000, 5_000).sendInOrder(2, 0, 27_000, 300_000, 5_000)
                .sendInOrder(1, 2, 10_800, 5_000, 2_000).sendInOrder(2, 1, 10_800, 5_000, 2_000);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void wanderingTriangleHasInversionsWithPathCompositionAndNoneGlobally(long seed) {
        MessageSimulation sim = wanderingTriangle(seed);
        List<PairEstimate> pairs = sim.estimates();
        assertThat(pairs).extracting(PairEstimate::quality).containsOnly(Quality.PIECEWISE);

        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), pairs, "n0");
        SyncResult global = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), pairs, "n0");

        assertThat(path.node("n1").path()).containsExactly("n1", "n0");
        assertThat(path.node("n2").path()).containsExactly("n2", "n0");
        assertThat(sim.inversions(path, 1, 2)).isGreaterThan(100);
        assertThat(sim.inversions(global)).isZero();
        assertThat(global.stats()).containsEntry("reduction", "global").containsEntry("global_piecewise_groups", 1);
        assertThat(global.warnings()).noneMatch(w -> w.contains("global program"));
        for (int n = 1; n <= 2; n++) {
            NodeResult node = global.nodes().get(n);
            assertThat(node.quality()).isEqualTo(Quality.PIECEWISE);
            assertThat(node.transform().isLinear()).isFalse();
            assertThat(node.note()).contains("global program with piecewise transforms");
            assertThat(missesWithinData(sim, global, n, 500)).isZero();
        }
        // path puts 1 and 2 ~400 µs apart relative to each other; global within the fast link's corridor
        assertThat(maxRelativeError(sim, path, 1, 2)).isGreaterThan(150e3);
        assertThat(maxRelativeError(sim, global, 1, 2)).isLessThan(15e3);
    }

    /**
     * The wandering triangle with node 1's clock stepping 5 ms ahead half-way: pairs 0–1 and 1–2
     * report the step, path composition carries it into node 1's transform, and the window program
     * leaves the messages next to it to the repair pass instead of becoming infeasible.
     */
    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void aClockStepLeavesOnlyTheMessagesAtTheStepToTheRepairPass(long seed) {
        MessageSimulation sim = wanderingTriangle(seed, 1.5 * HOUR, 5e6);
        List<PairEstimate> pairs = sim.estimates();
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), pairs, "n0");
        SyncResult global = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), pairs, "n0");
        assertThat(pairs).extracting(PairEstimate::quality).containsOnly(Quality.PIECEWISE);
        assertThat(pairs.stream().mapToInt(p -> p.piecewise().steps().size()).sum()).isEqualTo(2); // 0–1 and 1–2

        assertThat(sim.inversions(path, 1, 2)).isEqualTo(10_800);
        assertThat(global.stats()).containsEntry("reduction", "global").containsEntry("global_piecewise_groups", 1);
        NodeResult n1 = global.node("n1");
        Matcher left = Pattern.compile("(\\d+) left out at steps and breaks \\(left to the repair pass\\)").matcher(n1.note());
        assertThat(left.find()).as(n1.note()).isTrue();
        // only messages at the step can stay inverted (at most those left out); none elsewhere
        assertThat(sim.inversions(global)).isLessThanOrEqualTo(Integer.parseInt(left.group(1)));
        assertThat(sim.inversionsAwayFrom(global, 1.5 * HOUR, 3e9)).isZero();
        // the step stays in node 1's transform: its correction drops by 5 ms across it
        long before = sim.local(1, 1.5 * HOUR - 1e9);
        long after = sim.local(1, 1.5 * HOUR + 1e9);
        assertThat(n1.transform().correction(before) - n1.transform().correction(after)).isBetween(4.9e6, 5.1e6);
        for (int n = 1; n <= 2; n++) {
            assertThat(missesWithinData(sim, global, n, 500)).isZero();
        }
    }

    @Test
    void aGroupWithTooManyBucketHullVerticesIsNotSolved() {
        MessageSimulation sim = wanderingTriangle(1);
        List<PairEstimate> pairs = sim.estimates();
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), pairs, "n0");
        ClockTransform[] transforms = path.nodes().stream().map(NodeResult::transform).toArray(ClockTransform[]::new);
        PiecewiseProgram all = new PiecewiseProgram(new int[] {0, 1, 2}, 0, transforms, pairs, sim.accumulators());
        assertThat(all.tooLarge()).isFalse();
        int rows = all.candidateRows();
        assertThat(rows).isGreaterThan(10_000);

        PiecewiseProgram capped = new PiecewiseProgram(new int[] {0, 1, 2}, 0, transforms, pairs, sim.accumulators(),
                LinearPrograms.factory(), rows - 1);
        assertThat(capped.tooLarge()).isTrue();
        assertThat(capped.candidateRows()).isZero();
        assertThat(capped.solve(0)).isFalse();
        PiecewiseProgram exact = new PiecewiseProgram(new int[] {0, 1, 2}, 0, transforms, pairs, sim.accumulators(),
                LinearPrograms.factory(), rows);
        assertThat(exact.tooLarge()).isFalse();
        assertThat(exact.solve(0)).isTrue();
        assertThat(sim.inversions(path, 1, 2)).isGreaterThan(0);
    }

    /** Instants of node n's data span (not beyond: the clocks curve) where its bounds miss the truth. */
    static int missesWithinData(MessageSimulation sim, SyncResult r, int n, int samples) {
        NodeResult node = r.nodes().get(n);
        assertThat(node.bounds().isEmpty()).isFalse();
        int misses = 0;
        for (int k = 0; k < samples; k++) {
            long t = node.start() + Math.round((double) k / (samples - 1) * (node.end() - node.start()));
            double est = node.transform().correction(t);
            double[] mp = node.bounds().at(t);
            double truth = sim.trueCorrection(n, 0, t);
            if (truth < est - mp[0] || truth > est + mp[1]) {
                misses++;
            }
        }
        return misses;
    }

    /** Largest |error of x relative to y| (ns) over 200 instants of the trace. */
    static double maxRelativeError(MessageSimulation sim, SyncResult r, int x, int y) {
        double worst = 0;
        for (int k = 0; k <= 200; k++) {
            double t = sim.duration() * k / 200.0;
            long lx = sim.local(x, t);
            long ly = sim.local(y, t);
            double ex = r.nodes().get(x).transform().correction(lx) - sim.trueCorrection(x, 0, lx);
            double ey = r.nodes().get(y).transform().correction(ly) - sim.trueCorrection(y, 0, ly);
            worst = Math.max(worst, Math.abs(ex - ey));
        }
        return worst;
    }
}
