package org.tracesync.global;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.reduce.SyncResult;

class GlobalReductionTest {

    private static final long MINUTE = 60_000_000_000L;

    /**
     * The triangle: links 0–1 and 0–2 slow and asymmetric (300 µs one way, 100 µs the
     * other, opposite on the two links), link 1–2 fast (5 µs) and sparse.
     */
    static MessageSimulation triangle(long seed) {
        return new MessageSimulation(seed, 3, MINUTE)
                .clock(1, 30e6, 20e-6)
                .clock(2, -45e6, -15e-6)
                .link(0, 1, 200, 300_000, 100_000, 5_000)
                .link(0, 2, 200, 100_000, 300_000, 5_000)
                .link(1, 2, 6, 5_000, 5_000, 2_000);
    }

    @Test
    void triangleHasInversionsWithPathCompositionAndNoneGlobally() {
        MessageSimulation sim = triangle(1);
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        SyncResult global = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");

        assertThat(path.node("n1").path()).containsExactly("n1", "n0");
        assertThat(path.node("n2").path()).containsExactly("n2", "n0");
        assertThat(sim.inversions(path, 1, 2)).isGreaterThan(0);
        assertThat(sim.inversions(global)).isZero();
        assertThat(global.stats()).containsEntry("reduction", "global");
        for (int n = 1; n <= 2; n++) {
            assertThat(global.nodes().get(n).quality()).isEqualTo(Quality.ACCURATE);
            assertThat(sim.boundsMisses(global, n, 0, 200)).isZero();
        }
        // the misplacement: path puts 1 and 2 ~200 µs apart relative to each other, global within the 5 µs link's corridor
        double pathRel = relativeError(sim, path, 1, 2);
        double globalRel = relativeError(sim, global, 1, 2);
        assertThat(Math.abs(pathRel)).isBetween(150e3, 250e3);
        assertThat(Math.abs(globalRel)).isLessThan(10e3);
    }

    @Test
    void recentredPathBoundsKeepTheSameAbsoluteIntervals() {
        MessageSimulation sim = triangle(2);
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        SyncResult global = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        NodeResult p = path.node("n1");
        NodeResult g = global.node("n1");
        var rows = GlobalReduction.recentred(p, g.transform());
        assertThat(rows.size()).isEqualTo(p.bounds().size());
        for (long t = p.start(); t <= p.end(); t += (p.end() - p.start()) / 7) {
            double[] before = p.bounds().at(t);
            double[] after = rows.at(t);
            assertThat(g.transform().correction(t) - after[0]).isCloseTo(p.transform().correction(t) - before[0], within(1e-3));
            assertThat(g.transform().correction(t) + after[1]).isCloseTo(p.transform().correction(t) + before[1], within(1e-3));
        }
        // the global transform lies inside the path bounds (the joint feasible set is a subset)
        assertThat(rows.rows()).allSatisfy(r -> assertThat(Math.min(r.minus(), r.plus())).isGreaterThan(-1.0));
    }

    /** Error (ns) of node x relative to node y at the middle of the trace. */
    private static double relativeError(MessageSimulation sim, SyncResult r, int x, int y) {
        long tx = sim.local(x, sim.duration() / 2.0);
        long ty = sim.local(y, sim.duration() / 2.0);
        double ex = r.nodes().get(x).transform().correction(tx) - sim.trueCorrection(x, 0, tx);
        double ey = r.nodes().get(y).transform().correction(ty) - sim.trueCorrection(y, 0, ty);
        return ex - ey;
    }

    /**
     * A chain n0 – n1 – n2 – n3 (three hops from the reference n0), a one-way pair n0 → n2 inside
     * it, an island n4 – n5, and n6 that only ever receives from n0.
     */
    static MessageSimulation chain(long seed) {
        return new MessageSimulation(seed, 7, MINUTE)
                .randomClocks(80e6, 60e-6)
                .link(0, 1, 100, 120_000, 40_000, 8_000)
                .link(1, 2, 100, 30_000, 90_000, 8_000)
                .link(2, 3, 100, 50_000, 50_000, 8_000)
                .send(0, 2, 40, 20_000, 4_000)
                .link(4, 5, 100, 70_000, 20_000, 8_000)
                .send(0, 6, 50, 60_000, 5_000);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void chainWithAnIslandAndAOneWayNode(long seed) {
        MessageSimulation sim = chain(seed);
        SyncResult r = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");

        // n6 is placed on n0 by its one-way pair (path composition), so the program sees both one-way pairs
        assertThat(r.stats()).containsEntry("reduction", "global").containsEntry("global_groups", 2)
                .containsEntry("global_one_way_pairs", 2);
        for (int n = 1; n <= 3; n++) {
            NodeResult node = r.nodes().get(n);
            assertThat(node.reference()).isEqualTo("n0");
            assertThat(node.quality()).isEqualTo(Quality.ACCURATE);
            assertThat(sim.boundsMisses(r, n, 0, 100)).as("bounds of n%d contain the truth", n).isZero();
        }
        assertThat(r.node("n3").path()).containsExactly("n3", "n2", "n1", "n0");
        NodeResult island = r.node("n5").reference().equals("n4") ? r.node("n5") : r.node("n4");
        int islandNode = island.name().equals("n5") ? 5 : 4;
        assertThat(sim.boundsMisses(r, islandNode, 9 - islandNode, 100)).isZero();
        NodeResult oneWay = r.node("n6");
        assertThat(oneWay.reference()).isEqualTo("n0");
        assertThat(oneWay.quality()).isEqualTo(Quality.ONE_WAY);
        // the program's joint bounds are two-sided or none: the node keeps its one-sided path bound,
        // re-centred on the program's transform, and the truth lies on its side
        assertThat(oneWay.bounds().isEmpty()).isFalse();
        assertThat(oneWay.bounds().rows()).noneMatch(row -> Double.isFinite(row.minus()) && Double.isFinite(row.plus()))
                .anyMatch(row -> Double.isFinite(row.minus()) || Double.isFinite(row.plus()));
        assertThat(sim.boundsMisses(r, 6, 0, 100)).isZero();
        assertThat(sim.inversions(r)).isZero();
        assertThat(r.warnings()).anyMatch(w -> w.contains("n6 is tied one way only (to n0)"));
    }

    @Test
    void whereRedundantSolvesOnlyGroupsWithRedundantLinks() {
        MessageSimulation sim = chain(4);
        SyncResult r = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0",
                GlobalReduction.Mode.WHERE_REDUNDANT, 0.0, GlobalReduction.MAX_BOUND_INSTANTS);
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");

        // the chain has 3 two-way pairs and a one-way one among 4 nodes: redundant; the island has 1 pair among 2
        assertThat(r.stats()).containsEntry("reduction", "global").containsEntry("global_groups", 1);
        assertThat(r.node("n4").transform()).isEqualTo(path.node("n4").transform());
        assertThat(r.node("n5").transform()).isEqualTo(path.node("n5").transform());
        assertThat(r.node("n3").transform()).isNotEqualTo(path.node("n3").transform());
    }

    @Test
    void infeasibleProgramFallsBackToPathComposition() {
        // every pair on its own is consistent with linear clocks, the cycle is not: n1 → n2 messages
        // "arrive" 1 ms before they leave while links to n0 pin both clocks within ~10 µs
        MessageSimulation sim = new MessageSimulation(5, 3, MINUTE)
                .link(0, 1, 100, 10_000, 10_000, 1_000)
                .link(0, 2, 100, 10_000, 10_000, 1_000)
                .link(1, 2, 100, -1_000_000, 1_010_000, 1_000);
        SyncResult r = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");

        assertThat(r.stats()).containsEntry("reduction", "path (global infeasible)");
        assertThat(r.warnings()).anyMatch(w -> w.startsWith("global program infeasible for the group of 3 nodes (reference n0)"));
        assertThat(r.nodes()).isEqualTo(path.nodes());
    }

    @ParameterizedTest
    @ValueSource(longs = {11})
    void randomMeshOfTwentyNodes(long seed) {
        MessageSimulation sim = mesh(seed, 20, 2);
        SyncResult r = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0",
                GlobalReduction.Mode.EVERY_GROUP, 0.0, GlobalReduction.MAX_BOUND_INSTANTS);
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        assertThat(sim.inversions(path)).isGreaterThan(0);

        assertThat(r.stats()).containsEntry("reduction", "global");
        assertThat(sim.inversions(r)).isZero();
        for (int n = 1; n < 20; n++) {
            assertThat(r.nodes().get(n).reference()).isEqualTo("n0");
            assertThat(sim.boundsMisses(r, n, 0, 50)).as("bounds of n%d contain the truth", n).isZero();
        }
    }

    @Test
    void defaultModeSolvesLargeGroupsWithJointBounds() {
        // 60 nodes: above the caps that apply when only ojAlgo is available (30 by default, 50 for joint bounds)
        MessageSimulation sim = mesh(12, 60, 2);
        SyncResult r = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0",
                GlobalReduction.Mode.WHERE_REDUNDANT, 0.0, GlobalReduction.MAX_BOUND_INSTANTS);
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        assertThat(sim.inversions(path)).isGreaterThan(0);

        assertThat(r.stats()).containsEntry("reduction", "global").containsEntry("global_solver", "glop")
                .containsEntry("global_joint_bounds", 59);
        assertThat(r.warnings()).noneMatch(w -> w.contains("path composition, not the global program"));
        assertThat(sim.inversions(r)).isZero();
        for (int n = 1; n < 60; n++) {
            assertThat(r.nodes().get(n).quality()).isEqualTo(Quality.ACCURATE);
            assertThat(r.nodes().get(n).note()).contains("joint bounds");
            assertThat(sim.boundsMisses(r, n, 0, 30)).as("bounds of n%d contain the truth", n).isZero();
        }
    }

    /**
     * Local joint bounds (groups above the joint-bound cap, here forced with a cap of 0): each node's
     * program holds only the 32 of 60 nodes nearest its route to the reference. Dropping rows only
     * enlarges the feasible set, so the local intervals contain the joint ones (up to the sampling
     * tolerance of both) and the truth; on average they are narrower than path composition's.
     */
    @ParameterizedTest
    @ValueSource(longs = {12, 14})
    void localBoundsContainTheJointBoundsAndTheTruth(long seed) {
        MessageSimulation sim = mesh(seed, 60, 2);
        SyncResult joint = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0",
                GlobalReduction.Mode.EVERY_GROUP, 0.0, GlobalReduction.MAX_BOUND_INSTANTS, Integer.MAX_VALUE);
        SyncResult local = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0",
                GlobalReduction.Mode.EVERY_GROUP, 0.0, GlobalReduction.MAX_BOUND_INSTANTS, 0);
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");

        assertThat(local.stats()).containsEntry("global_local_bounds", 59).containsEntry("global_joint_bounds", 0);
        assertThat(joint.stats()).containsEntry("global_joint_bounds", 59).containsEntry("global_local_bounds", 0);
        assertThat(sim.inversions(local)).isZero();
        double localWidths = 0;
        double jointWidths = 0;
        double pathWidths = 0;
        for (int n = 1; n < 60; n++) {
            NodeResult l = local.nodes().get(n);
            NodeResult j = joint.nodes().get(n);
            NodeResult p = path.nodes().get(n);
            assertThat(l.quality()).isEqualTo(Quality.ACCURATE);
            assertThat(l.note()).contains("local joint bounds");
            assertThat(l.transform()).isEqualTo(j.transform());
            assertThat(sim.boundsMisses(local, n, 0, 50)).as("local bounds of n%d contain the truth", n).isZero();
            for (int k = 0; k <= 20; k++) {
                long t = l.start() + Math.round(k / 20.0 * (l.end() - l.start()));
                double[] lb = l.bounds().at(t);
                double[] jb = j.bounds().at(t);
                double[] pb = p.bounds().at(t);
                double c = l.transform().correction(t);
                double tol = 2 * Math.max(10.0, 0.005 * (jb[0] + jb[1])) + 2;
                // local ⊇ joint
                assertThat(c - lb[0]).isLessThanOrEqualTo(c - jb[0] + tol);
                assertThat(c + lb[1]).isGreaterThanOrEqualTo(c + jb[1] - tol);
                localWidths += lb[0] + lb[1];
                jointWidths += jb[0] + jb[1];
                pathWidths += pb[0] + pb[1];
            }
        }
        // looser than the joint bounds, but not by much on a mesh this size, and tighter than path composition's
        assertThat(localWidths).isGreaterThanOrEqualTo(jointWidths * 0.99).isLessThan(jointWidths * 1.5)
                .isLessThan(pathWidths);
        System.out.printf("seed %d: mean width joint %.0f, local %.0f, path %.0f ns%n", seed,
                jointWidths / 59 / 21, localWidths / 59 / 21, pathWidths / 59 / 21);
    }

    @Test
    void jointBoundsDoNotDependOnTheNumberOfThreads() {
        MessageSimulation sim = mesh(13, 12, 2);
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        org.tracesync.core.transform.ClockTransform[] transforms = new org.tracesync.core.transform.ClockTransform[12];
        for (int i = 0; i < 12; i++) {
            transforms[i] = path.nodes().get(i).transform();
        }
        int[] members = java.util.stream.IntStream.range(0, 12).toArray();
        int[] others = java.util.stream.IntStream.range(1, 12).toArray();
        GlobalProgram one = new GlobalProgram(members, 0, transforms, sim.estimates(), sim.accumulators());
        GlobalProgram four = new GlobalProgram(members, 0, transforms, sim.estimates(), sim.accumulators());
        assertThat(one.solve(0.0)).isTrue();
        assertThat(four.solve(0.0)).isTrue();
        var serial = one.allBounds(others, GlobalReduction.MAX_BOUND_INSTANTS, 0.0, 1);
        var parallel = four.allBounds(others, GlobalReduction.MAX_BOUND_INSTANTS, 0.0, 4);
        assertThat(parallel).isEqualTo(serial);
        assertThat(serial).hasSize(11).allSatisfy((node, rows) -> assertThat(rows.size()).isGreaterThan(2));
    }

    /**
     * Row generation (the transforms' programs start from a few hull rows per pair and direction
     * and add the violated ones) reaches the optimum of the whole program: same minimax and
     * weighted L1 optima, transforms that satisfy every hull vertex, and the same transforms up to
     * the solver's tolerance on these meshes (an optimum may tie; none does here).
     */
    @ParameterizedTest
    @ValueSource(longs = {21, 22, 23})
    void rowGenerationReachesTheWholeProgramsOptimum(long seed) {
        MessageSimulation sim = mesh(seed, 40, 3);
        org.tracesync.core.transform.ClockTransform[] transforms = pathTransforms(sim, 40);
        int[] members = java.util.stream.IntStream.range(0, 40).toArray();
        GlobalProgram whole = new GlobalProgram(members, 0, transforms, sim.estimates(), sim.accumulators());
        whole.rowGeneration(0);
        GlobalProgram generated = new GlobalProgram(members, 0, transforms, sim.estimates(), sim.accumulators());
        generated.rowGeneration(1); // one row per pair and direction to start with: rounds add the rest
        assertThat(whole.solve(0.0)).isTrue();
        assertThat(generated.solve(0.0)).isTrue();
        // fewer rows handed to the solver (on these meshes the starting rows already hold the optimum:
        // one round per stage; the 1,000-node mesh adds rows over several rounds)
        assertThat(generated.activeRows()).isLessThan(whole.constraintCount() / 2);
        assertThat(generated.rowGenerationRounds()).isGreaterThanOrEqualTo(2);
        double[] a = whole.objectiveValues();
        double[] b = generated.objectiveValues();
        assertThat(b[0]).isCloseTo(a[0], within(1e-6 * (1 + Math.abs(a[0]))));
        assertThat(b[1]).isCloseTo(a[1], within(1e-4 * (1 + Math.abs(a[1]))));
        for (int n = 1; n < 40; n++) {
            var tw = whole.transform(n).linearSegment();
            var tg = generated.transform(n).linearSegment();
            long t = sim.accumulators().first(n);
            assertThat(generated.transform(n).correction(t)).as("n%d", n)
                    .isCloseTo(whole.transform(n).correction(t), within(1.0));
            assertThat(tg.drift()).isCloseTo(tw.drift(), within(1e-9));
        }
        SyncResult r = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0",
                GlobalReduction.Mode.EVERY_GROUP, 0.0, GlobalReduction.MAX_BOUND_INSTANTS);
        assertThat(sim.inversions(r)).isZero();
    }

    /**
     * The bounds' LPs run while the transforms are solved ({@link GlobalProgram#solveWithBounds}):
     * the same rows as solving first and computing the bounds after, local and whole-program.
     */
    @Test
    void boundsComputedDuringTheSolveEqualThoseComputedAfter() {
        MessageSimulation sim = mesh(24, 30, 3);
        org.tracesync.core.transform.ClockTransform[] transforms = pathTransforms(sim, 30);
        int[] members = java.util.stream.IntStream.range(0, 30).toArray();
        int[] others = java.util.stream.IntStream.range(1, 30).toArray();
        for (boolean local : new boolean[] {false, true}) {
            GlobalProgram after = new GlobalProgram(members, 0, transforms, sim.estimates(), sim.accumulators());
            assertThat(after.solve(0.0)).isTrue();
            var expected = local
                    ? after.allLocalBounds(others, 12, GlobalReduction.MAX_BOUND_INSTANTS, 0.0, 2, () -> { })
                    : after.allBounds(others, GlobalReduction.MAX_BOUND_INSTANTS, 0.0, 2);
            GlobalProgram during = new GlobalProgram(members, 0, transforms, sim.estimates(), sim.accumulators());
            java.util.concurrent.atomic.AtomicInteger nodes = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger solved = new java.util.concurrent.atomic.AtomicInteger();
            var actual = during.solveWithBounds(0.0, others, local, 12, GlobalReduction.MAX_BOUND_INSTANTS, 2,
                    nodes::incrementAndGet, solved::incrementAndGet);
            assertThat(actual).as(local ? "local" : "joint").isEqualTo(expected).hasSize(29);
            assertThat(nodes).hasValue(29);
            assertThat(solved).hasValue(1);
        }
    }

    private static org.tracesync.core.transform.ClockTransform[] pathTransforms(MessageSimulation sim, int n) {
        SyncResult path = PathReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        org.tracesync.core.transform.ClockTransform[] transforms = new org.tracesync.core.transform.ClockTransform[n];
        for (int i = 0; i < n; i++) {
            transforms[i] = path.nodes().get(i).transform();
        }
        return transforms;
    }

    @Test
    void ojAlgoStillSolvesWhereGlopIsMissing() {
        // the portable fallback: same guarantees (no inversion, truth inside the bounds), slower
        String before = System.getProperty("tracesync.lp");
        System.setProperty("tracesync.lp", "ojalgo");
        try {
            MessageSimulation sim = triangle(3);
            SyncResult global = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
            assertThat(global.stats()).containsEntry("reduction", "global").containsEntry("global_solver", "ojalgo");
            assertThat(sim.inversions(global)).isZero();
            for (int n = 1; n <= 2; n++) {
                assertThat(global.nodes().get(n).quality()).isEqualTo(Quality.ACCURATE);
                assertThat(sim.boundsMisses(global, n, 0, 200)).isZero();
            }
        } finally {
            if (before == null) {
                System.clearProperty("tracesync.lp");
            } else {
                System.setProperty("tracesync.lp", before);
            }
        }
    }

    /** n nodes, a random spanning tree plus about (extraPerNode·n) random extra links, asymmetric latencies. */
    static MessageSimulation mesh(long seed, int n, int extraPerNode) {
        MessageSimulation sim = new MessageSimulation(seed, n, MINUTE).randomClocks(100e6, 50e-6);
        java.util.Set<Long> links = new java.util.HashSet<>();
        for (int i = 1; i < n; i++) {
            int j = sim.random().nextInt(i);
            links.add((long) j * n + i);
        }
        while (links.size() < n - 1 + extraPerNode * n) {
            int a = sim.random().nextInt(n);
            int b = sim.random().nextInt(n);
            if (a != b) {
                links.add((long) Math.min(a, b) * n + Math.max(a, b));
            }
        }
        for (long l : links.stream().sorted().toList()) {
            int a = (int) (l / n);
            int b = (int) (l % n);
            sim.link(a, b, 40, sim.random().nextDouble(5_000, 400_000), sim.random().nextDouble(5_000, 400_000), 10_000);
        }
        return sim;
    }

    /** Issue #12 item 16: the reduction names its phases (group k of n, joint bounds node k of n) for a progress line. */
    @Test
    void progressNamesEachGroupAndEachNodesJointBounds() {
        MessageSimulation sim = triangle(3);
        java.util.List<String> phases = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        SyncResult global = GlobalReduction.reducer(GlobalReduction.Mode.EVERY_GROUP, 0.0, phases::add)
                .reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        assertThat(global.stats()).containsEntry("reduction", "global");
        assertThat(phases).startsWith("global program: solving group 1 of 1 (3 nodes)",
                "global program: joint bounds of group 1 of 1, node 0 of 2");
        // the bounds' LPs run while the transforms are solved: their messages and this one interleave
        assertThat(phases).contains("global program: joint bounds of group 1 of 1, node 1 of 2",
                "global program: joint bounds of group 1 of 1, node 2 of 2",
                "global program: transforms of group 1 of 1 solved").hasSize(5);
    }

}
