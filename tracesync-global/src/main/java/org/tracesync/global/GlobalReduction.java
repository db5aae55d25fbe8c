package org.tracesync.global;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.NodeBounds;

/**
 * Reduction to one reference per connected group by one global linear program (DESIGN §4):
 * no message of <em>any</em> pair inverted, and joint accuracy bounds.
 *
 * <p>Path composition ({@link PathReduction}) protects only the pairs on its spanning tree: with
 * two slow asymmetric links to the reference (300 µs one way, 100 µs the other, opposite on the
 * two links), each neighbour is misplaced by ~100 µs in opposite directions, and the 5 µs link
 * between them sees its messages arrive before they leave. The global program (see
 * {@link GlobalProgram}) solves every non-reference node's transform at once, subject to every
 * pair's hull points in both directions, staying as close as it can to the pairwise estimates
 * (minimax, then weighted L1).
 *
 * <p>How it runs: path composition first — it chooses the groups and references exactly as before
 * and gives the starting point the program is rebased on. Then, per group of two nodes or more
 * (all of them, or in {@link Mode#WHERE_REDUNDANT} only those with redundant links: more pairs
 * than nodes − 1, counting one-way pairs between members, whose messages path composition cannot
 * protect either), the program replaces the transforms and the bounds. A group with a piecewise
 * pair (clocks not linear over the trace) gets {@link PiecewiseProgram} instead: a continuous
 * piecewise-linear correction per node on 64 s windows, every bucket's hull vertices as
 * constraints; its bounds stay path composition's, re-centred (GLOP only; with ojAlgo such groups
 * keep path composition, with a warning). A group with a fallback pair (hulls cross and no pieces
 * fit), or whose program is infeasible (no linear clocks satisfy every message: the clocks were
 * not linear over the trace), keeps its path-composition result; the result says so in a warning
 * and in {@code stats.reduction = "path (global infeasible)"}.
 *
 * <p>Nodes connected to the group only by one-way pairs stay unsynchronized (their transform is
 * unbounded on one side: nothing to estimate), but one-way pairs <em>between</em> members are
 * constraints of the program.
 *
 * <p>Cost: two LPs for the transforms (minimax, then weighted L1), then per non-reference node
 * at most {@link #MAX_BOUND_INSTANTS} + 2 LPs for the joint bounds (sandwich method; typically
 * ~20 on large meshes), spread over the cores. Each LP has 2·(N − 1) unknowns (plus two per
 * estimated pair in the L1 stage) and one row per kept hull vertex; every one is solved by GLOP
 * (OR-Tools) and checked ({@link GlopLinearProgram}). Where GLOP's native library does not load
 * (it ships for Linux x86-64 and aarch64), ojAlgo solves instead ({@link DualLinearProgram}), two
 * orders of magnitude slower on large groups, and the caps {@link #OJALGO_MAX_JOINT_BOUND_NODES}
 * and {@link #OJALGO_MAX_DEFAULT_GLOBAL_NODES} apply. Measured in docs/PERFORMANCE.md ("Global
 * reduction"): 100 nodes × 10 links in seconds with GLOP. Above
 * {@link #GLOP_MAX_JOINT_BOUND_NODES} non-reference nodes, each node's bounds come from a local
 * program over the {@link #LOCAL_BOUND_NODES} nodes nearest its route to the reference
 * ({@link GlobalProgram#localBounds}: still strict, a little looser), at a cost per node that
 * does not grow with the group.
 */
public final class GlobalReduction {

    /** Cap on the instants at which each node's joint bounds are computed (2 LPs each). */
    public static final int MAX_BOUND_INSTANTS = 32;

    /**
     * With ojAlgo only (no GLOP on this platform): joint bounds are computed for groups of at most
     * this many non-reference nodes; beyond, local joint bounds (see {@link #LOCAL_BOUND_NODES}).
     * Why: with ojAlgo each bound LP of a 100-node group takes seconds (docs/PERFORMANCE.md).
     */
    public static final int OJALGO_MAX_JOINT_BOUND_NODES = 50;

    /**
     * With ojAlgo only: {@link Mode#WHERE_REDUNDANT} (the CLI default) leaves groups larger than
     * this to path composition, with a warning; ojAlgo took 9 min for the transforms of 100 nodes ×
     * 10 links (docs/PERFORMANCE.md), 20 nodes take seconds. With GLOP there is no cap.
     */
    public static final int OJALGO_MAX_DEFAULT_GLOBAL_NODES = 30;

    /**
     * With GLOP: joint bounds over the whole program for groups of at most this many
     * non-reference nodes; beyond, local joint bounds (see {@link #LOCAL_BOUND_NODES}). Why: the
     * whole program's bounds cost grows about as N^2.5 — ~20 LPs per node, each over a program
     * that grows with N — measured on 2 cores at 9–14 s for 100 nodes, 44 s for 200 and 128 s for
     * 300 (docs/PERFORMANCE.md), most of an hour at 1,000; local bounds cost the same per node
     * whatever N, and on meshes of 60 nodes were within 0.5 % of the joint widths.
     */
    public static final int GLOP_MAX_JOINT_BOUND_NODES = 100;

    /**
     * Members of each node's local bound program in groups above the joint-bound cap (see
     * {@link GlobalProgram#localBounds}): the node, the reference and the nodes nearest the route
     * between them.
     */
    public static final int LOCAL_BOUND_NODES = 32;

    /** The default cap on joint bounds over the whole program (local joint bounds above it). */
    public static int maxJointBoundNodes() {
        return "glop".equals(LinearPrograms.solverName()) ? GLOP_MAX_JOINT_BOUND_NODES : OJALGO_MAX_JOINT_BOUND_NODES;
    }

    private static int maxDefaultGlobalNodes() {
        return "glop".equals(LinearPrograms.solverName()) ? Integer.MAX_VALUE : OJALGO_MAX_DEFAULT_GLOBAL_NODES;
    }

    /** Which groups get the global program. */
    public enum Mode {
        /** Every group of two nodes or more ({@code --reduction global}). */
        EVERY_GROUP,
        /** Only groups with redundant links (the CLI default). */
        WHERE_REDUNDANT
    }

    private GlobalReduction() {
    }

    /** The reducer for {@link Synchronizer.Options#withReducer}. */
    public static Synchronizer.Reducer reducer(Mode mode) {
        return reducer(mode, 0.0);
    }

    /** Same, with τmin: every message is known to take at least {@code minLatencyNs}. */
    public static Synchronizer.Reducer reducer(Mode mode, double minLatencyNs) {
        return reducer(mode, minLatencyNs, NO_PROGRESS);
    }

    /**
     * Same, telling {@code progress} what it is doing as it goes, for a progress display: "global
     * program: solving group g of G (N nodes)", then "global program: joint bounds of group g of G,
     * node k of n" after each node's bounds (from the solving threads).
     */
    public static Synchronizer.Reducer reducer(Mode mode, double minLatencyNs, java.util.function.Consumer<String> progress) {
        return new GlobalReducer(mode, minLatencyNs, progress);
    }

    // Classes, not lambdas, on the path of every sync (its default reduction): a lambda's call site
    // is linked at its first use, about a millisecond of the CLI's start (docs/PERFORMANCE.md, "Start").

    /** No progress display. */
    private static final java.util.function.Consumer<String> NO_PROGRESS = new java.util.function.Consumer<String>() {
        @Override
        public void accept(String phase) {
        }
    };

    /** {@link #reducer(Mode, double, java.util.function.Consumer)}. */
    private static final class GlobalReducer implements Synchronizer.Reducer {
        private final Mode mode;
        private final double minLatencyNs;
        private final java.util.function.Consumer<String> progress;

        GlobalReducer(Mode mode, double minLatencyNs, java.util.function.Consumer<String> progress) {
            this.mode = mode;
            this.minLatencyNs = minLatencyNs;
            this.progress = progress;
        }

        @Override
        public SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs, String reference) {
            return GlobalReduction.reduce(nodes, acc, pairs, reference, mode, minLatencyNs, MAX_BOUND_INSTANTS, progress);
        }
    }

    /** The global program on every group (same signature and output as {@link PathReduction#reduce}). */
    public static SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs,
                                    String requestedReference) {
        return reduce(nodes, acc, pairs, requestedReference, Mode.EVERY_GROUP, 0.0, MAX_BOUND_INSTANTS);
    }

    /**
     * @param minLatencyNs τmin: every message takes at least this long (0 when unknown)
     * @param maxInstants  cap on the bound instants per node (≥ 2)
     */
    public static SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs,
                                    String requestedReference, Mode mode, double minLatencyNs, int maxInstants) {
        return reduce(nodes, acc, pairs, requestedReference, mode, minLatencyNs, maxInstants, -1, NO_PROGRESS);
    }

    /** As above, reporting its phases to {@code progress} (see {@link #reducer(Mode, double, java.util.function.Consumer)}). */
    public static SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs,
                                    String requestedReference, Mode mode, double minLatencyNs, int maxInstants,
                                    java.util.function.Consumer<String> progress) {
        return reduce(nodes, acc, pairs, requestedReference, mode, minLatencyNs, maxInstants, -1, progress);
    }

    /**
     * @param jointBoundNodes groups of more non-reference nodes than this get local joint bounds
     *                        ({@link GlobalProgram#localBounds}) instead of the whole program's;
     *                        −1 for the solver's default ({@link #maxJointBoundNodes()}), looked up
     *                        only when a group is solved (it loads the solver's native library)
     */
    public static SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs,
                                    String requestedReference, Mode mode, double minLatencyNs, int maxInstants,
                                    int jointBoundNodes) {
        return reduce(nodes, acc, pairs, requestedReference, mode, minLatencyNs, maxInstants, jointBoundNodes, NO_PROGRESS);
    }

    /** The same, with the joint-bound cap and a progress consumer. */
    public static SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs,
                                    String requestedReference, Mode mode, double minLatencyNs, int maxInstants,
                                    int jointBoundNodes, java.util.function.Consumer<String> progress) {
        if (maxInstants < 2) {
            throw new IllegalArgumentException("need at least 2 bound instants, got " + maxInstants);
        }
        SyncResult path = PathReduction.reduce(nodes, acc, pairs, requestedReference);
        int n = nodes.size();
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(nodes.get(i).name(), i);
        }
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            NodeResult r = path.nodes().get(i);
            if (r.synchronizedToOther()) {
                List<Integer> group = groups.get(r.reference());
                if (group == null) {
                    group = new ArrayList<>(List.of(index.get(r.reference())));
                    groups.put(r.reference(), group);
                }
                group.add(i);
            }
        }
        ClockTransform[] pathTransforms = new ClockTransform[n];
        for (int i = 0; i < n; i++) {
            pathTransforms[i] = path.nodes().get(i).transform();
        }
        List<NodeResult> results = new ArrayList<>(path.nodes());
        List<String> warnings = new ArrayList<>(path.warnings());
        int solved = 0;
        int groupsStarted = 0;
        int infeasible = 0;
        long constraints = 0;
        long lps = 0;
        long retries = 0;
        int minimaxSkipped = 0;
        int jointBounds = 0;
        int localBounds = 0;
        int oneWayUsed = 0;
        int piecewiseGroups = 0;
        for (Map.Entry<String, List<Integer>> g : groups.entrySet()) {
            int ref = index.get(g.getKey());
            int[] members = new int[g.getValue().size()];
            for (int k = 0; k < members.length; k++) {
                members[k] = g.getValue().get(k);
            }
            boolean[] in = new boolean[n];
            for (int m : members) {
                in[m] = true;
            }
            int links = 0;
            PairEstimate fallback = null;
            PairEstimate piecewise = null;
            for (PairEstimate p : pairs) {
                if (in[p.a()] && in[p.b()] && p.quality() != Quality.INVALID && p.quality() != Quality.ABSENT) {
                    links++;
                    if (p.hullsCross() && fallback == null) {
                        fallback = p;
                    }
                    if (p.quality() == Quality.PIECEWISE && piecewise == null) {
                        piecewise = p;
                    }
                }
            }
            if (mode == Mode.WHERE_REDUNDANT && links <= members.length - 1) {
                continue;
            }
            if (mode == Mode.WHERE_REDUNDANT && members.length > maxDefaultGlobalNodes()) {
                warnings.add("group of " + members.length + " nodes (reference " + g.getKey() + "): path composition, "
                        + "not the global program (GLOP is not available on this platform and ojAlgo is slow above "
                        + maxDefaultGlobalNodes() + " nodes; --reduction global forces it); "
                        + "messages between nodes not on a path may be inverted");
                continue;
            }
            String groupName = "group of " + members.length + " nodes (reference " + g.getKey() + ")";
            if (fallback != null) {
                infeasible++;
                warnings.add("global program infeasible for the " + groupName + ": pair "
                        + nodes.get(fallback.a()).name() + "/" + nodes.get(fallback.b()).name()
                        + " is fallback (hulls cross: clocks not linear over the trace); used path composition");
                continue;
            }
            if (piecewise != null) {
                if (!"glop".equals(LinearPrograms.solverName())) {
                    warnings.add("global program not used for the " + groupName + ": pair "
                            + nodes.get(piecewise.a()).name() + "/" + nodes.get(piecewise.b()).name()
                            + " is piecewise and the piecewise program needs GLOP (not available on this platform); "
                            + "used path composition of the piecewise transforms: messages between nodes not on a path may be inverted");
                    continue;
                }
                int groupNumber = ++groupsStarted;
                progress.accept("global program: solving group " + groupNumber + " of " + groups.size() + " ("
                        + members.length + " nodes, piecewise)");
                PiecewiseProgram program = new PiecewiseProgram(members, ref, pathTransforms, pairs, acc);
                boolean ok = program.solve(minLatencyNs);
                lps += program.lpCount();
                retries += program.solverRetries();
                if (program.tooLarge()) {
                    warnings.add("global program not used for the " + groupName + ": more than "
                            + PiecewiseProgram.MAX_CANDIDATE_ROWS + " bucket hull vertices for the program with piecewise "
                            + "transforms; used path composition of the piecewise transforms: messages between nodes not on a "
                            + "path may be inverted");
                    continue;
                }
                if (!ok) {
                    infeasible++;
                    warnings.add("global program infeasible for the " + groupName + ": no continuous corrections on "
                            + "windows of " + program.windowWidth(ref) / 1_000_000_000L + " s satisfy all "
                            + program.candidateRows() + " bucket hull constraints" + (minLatencyNs > 0
                            ? " with a minimum latency of " + Math.round(minLatencyNs) + " ns" : "")
                            + "; used path composition of the piecewise transforms: messages between nodes not on a path may be inverted");
                    continue;
                }
                solved++;
                piecewiseGroups++;
                constraints += program.constraintCount();
                oneWayUsed += program.oneWayPairs();
                if (program.minimaxSkipped()) {
                    minimaxSkipped++;
                }
                String how = "global program with piecewise transforms over " + members.length + " nodes, "
                        + program.pairsUsed() + " pairs (" + program.oneWayPairs() + " one-way), windows of "
                        + program.windowWidth(ref) / 1_000_000_000L + " s, " + program.constraintCount() + " of "
                        + program.candidateRows() + " bucket hull constraints (" + program.rounds() + " rounds)"
                        + (program.excludedRows() > 0 ? ", " + program.excludedRows() + " left out at steps and breaks (left to the repair pass)" : "");
                for (int m : members) {
                    NodeResult old = results.get(m);
                    if (m == ref) {
                        results.set(m, old.withNoteAdded(how));
                        continue;
                    }
                    ClockTransform transform = program.transform(m);
                    NodeBounds rows = containing(old, transform);
                    results.set(m, new NodeResult(old.name(), old.source(), old.reference(), old.quality(),
                            transform, rows, old.path(), old.start(), old.end(),
                            how + "; bounds: path composition's (" + old.note() + "), re-centred"));
                }
                continue;
            }
            int groupNumber = ++groupsStarted;
            String ofGroups = groupNumber + " of " + groups.size();
            progress.accept("global program: solving group " + ofGroups + " (" + members.length + " nodes)");
            GlobalProgram program = new GlobalProgram(members, ref, pathTransforms, pairs, acc);
            int cap = jointBoundNodes >= 0 ? jointBoundNodes : maxJointBoundNodes();
            boolean joint = members.length - 1 <= cap;
            int[] others = java.util.Arrays.stream(members).filter(m -> m != ref).toArray();
            int threads = Runtime.getRuntime().availableProcessors();
            java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
            String what = joint ? "joint bounds" : "local joint bounds";
            progress.accept("global program: " + what + " of group " + ofGroups + ", node 0 of " + others.length);
            Runnable nodeDone = () -> progress.accept("global program: " + what + " of group " + ofGroups
                    + ", node " + done.incrementAndGet() + " of " + others.length);
            // the bounds' LPs run while the transforms are solved (they need only the feasible set)
            Map<Integer, NodeBounds> jointRows = program.solveWithBounds(minLatencyNs, others, !joint, LOCAL_BOUND_NODES,
                    maxInstants, threads, nodeDone, () -> progress.accept("global program: transforms of group "
                            + ofGroups + " solved"));
            if (jointRows == null) {
                infeasible++;
                lps += program.lpCount();
                warnings.add("global program infeasible for the " + groupName + ": no linear clocks satisfy all "
                        + program.constraintCount() + " hull constraints" + (minLatencyNs > 0
                        ? " with a minimum latency of " + Math.round(minLatencyNs) + " ns (too large, or clocks not linear over the trace)"
                        : " (clocks not linear over the trace)") + "; used path composition");
                continue;
            }
            solved++;
            constraints += program.constraintCount();
            oneWayUsed += program.oneWayPairs();
            String how = "global program over " + members.length + " nodes, " + program.pairsUsed() + " pairs ("
                    + program.oneWayPairs() + " one-way), " + program.constraintCount() + " hull constraints";
            for (int m : members) {
                NodeResult old = results.get(m);
                if (m == ref) {
                    results.set(m, old.withNoteAdded(how));
                    continue;
                }
                ClockTransform transform = program.transform(m);
                NodeBounds rows = jointRows.get(m);
                Quality q;
                String note;
                if (joint && rows.isEmpty() && old.quality() == Quality.ONE_WAY && !old.bounds().isEmpty()) {
                    // joint bounds are two-sided or none: a one-way node keeps its one-sided path
                    // bound, re-centred (and widened where needed) to contain the program's transform
                    rows = containing(old, transform);
                    q = Quality.ONE_WAY;
                    note = how + "; bounds: its one-sided path bound, re-centred (joint bounds are two-sided or none)";
                } else if (joint) {
                    q = rows.isEmpty() ? (old.quality() == Quality.ACCURATE ? Quality.INCOMPLETE : old.quality())
                            : Quality.ACCURATE;
                    note = how + (rows.isEmpty()
                            ? "; no joint bounds (the feasible set is unbounded for this node)"
                            : "; joint bounds (" + rows.size() + " rows)");
                    jointBounds += rows.isEmpty() ? 0 : 1;
                } else if (!rows.isEmpty()) {
                    q = Quality.ACCURATE;
                    note = how + "; local joint bounds (" + rows.size() + " rows, over the " + LOCAL_BOUND_NODES
                            + " nodes nearest its route to the reference: group above " + cap + " nodes)";
                    localBounds++;
                } else {
                    rows = recentred(old, transform);
                    q = old.quality();
                    note = how + "; bounds: path composition's, re-centred (the local program of "
                            + LOCAL_BOUND_NODES + " nodes leaves this node unbounded)";
                }
                results.set(m, new NodeResult(old.name(), old.source(), old.reference(), q,
                        transform, rows, old.path(), old.start(), old.end(), note));
            }
            lps += program.lpCount();
            retries += program.solverRetries();
            if (program.minimaxSkipped()) {
                minimaxSkipped++;
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>(path.stats());
        if (solved == 0 && infeasible == 0) {
            stats.put("reduction", "path");
        } else if (solved == 0) {
            stats.put("reduction", "path (global infeasible)");
        } else if (infeasible > 0) {
            stats.put("reduction", "global (path for " + infeasible + " groups: global infeasible)");
        } else {
            stats.put("reduction", "global");
        }
        if (solved + infeasible > 0) {
            stats.put("global_solver", LinearPrograms.solverName());
            if (LinearPrograms.loadFailure() != null) {
                warnings.add("GLOP (OR-Tools) could not be loaded (" + LinearPrograms.loadFailure()
                        + "); the global program was solved with ojAlgo, which is much slower on large groups");
            }
            stats.put("global_groups", solved);
            stats.put("global_constraints", constraints);
            stats.put("global_one_way_pairs", oneWayUsed);
            stats.put("global_lps", lps);
            stats.put("global_solver_retries", retries);
            stats.put("global_minimax_skipped", minimaxSkipped);
            stats.put("global_joint_bounds", jointBounds);
            stats.put("global_local_bounds", localBounds);
            if (piecewiseGroups > 0) {
                stats.put("global_piecewise_groups", piecewiseGroups);
            }
        }
        return new SyncResult(path.reference(), results, path.pairs(), stats, warnings);
    }

    /**
     * Path bounds (relative to the path transform) re-expressed around {@code transform}: the
     * same absolute intervals at every instant, end rows included ({@link NodeBounds#recentred}).
     */
    static NodeBounds recentred(NodeResult path, ClockTransform transform) {
        return path.bounds().recentred(path.transform(), transform);
    }

    /**
     * Path bounds re-centred on {@code transform} and widened, where the transform left them, just
     * enough to contain it (minus and plus ≥ 0): still bounds, and since max(0, ·) of a linear
     * function is convex, linear interpolation between the rows stays conservative.
     */
    static NodeBounds containing(NodeResult path, ClockTransform transform) {
        NodeBounds r = recentred(path, transform);
        if (r.isEmpty()) {
            return r;
        }
        List<org.tracesync.core.transform.BoundRow> rows = new ArrayList<>();
        for (org.tracesync.core.transform.BoundRow row : r.rows()) {
            rows.add(new org.tracesync.core.transform.BoundRow(row.t(), Math.max(0.0, row.minus()), Math.max(0.0, row.plus())));
        }
        return NodeBounds.ofRows(rows);
    }
}
