package org.tracesync.core.reduce;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MonotoneBound;
import org.tracesync.core.transform.NodeBounds;

/**
 * Reduction to one reference per connected group by path composition (DESIGN §4).
 *
 * <p>Graph: nodes = traces; an edge for every pair with an estimate (accurate, piecewise,
 * incomplete, fallback) or a one-sided bound (one-way). Edge weight = the pair's uncertainty: the
 * mean bound width over the pair's span (ns) for accurate pairs; {@value #INCOMPLETE_WEIGHT} ns for incomplete ones (no
 * finite width); {@value #ONE_WAY_WEIGHT} ns for one-way ones (one side only);
 * {@value #FALLBACK_WEIGHT} ns plus the largest violation for fallback ones, so that a path avoids
 * them when it can.
 *
 * <p><b>Nodes reached by a one-way pair</b> (messages one way only: no estimate of their own) get
 * the smallest correction that removes every violation: their own clock shifted by the constant
 * σ closest to 0 that puts every hull point of their one-way pairs with nodes placed before them
 * (parents first) on the right side of the corrected clocks (0 when nothing is violated; the
 * middle, and quality fallback, when the points ask for σ ≥ lo and σ ≤ hi with lo &gt; hi). Hull
 * vertices suffice while the placed nodes' transforms are linear (the extreme of y − k·x over the
 * points, k &gt; 0, is a hull vertex); for a piecewise placed node it is checked at the vertices
 * only. Their bounds are the one-sided bound of the tree pair, composed as any other; the quality
 * stays {@code one-way}. Per group the reference is the node with the smallest sum
 * of shortest-path distances (Clément/Dagenais), ties to the first in input order, unless the
 * user names one. Transforms compose along the shortest paths; bounds compose as monotone bound
 * functions (t_C ∈ [L2(L1(t_A)), U2(U1(t_A))]). Nodes with no usable pair are reported
 * unsynchronized (reference = itself), never guessed.
 *
 * <p>Cost: O(N · (N + E) log N) for the reference choice (one Dijkstra per node), plus the
 * composition, O(total bound samples along each path).
 */
public final class PathReduction {

    static final double INCOMPLETE_WEIGHT = 1e12;
    static final double ONE_WAY_WEIGHT = 5e12;
    static final double FALLBACK_WEIGHT = 1e13;

    private PathReduction() {
    }

    /** One oriented tree edge: how to go from {@code child}'s clock to {@code parent}'s. */
    record Edge(int from, int to, PairEstimate pair, double weight) {
    }

    public static SyncResult reduce(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs,
                                    String requestedReference) {
        int n = nodes.size();
        List<List<Edge>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            adj.add(new ArrayList<>());
        }
        for (PairEstimate p : pairs) {
            if (!p.placesNodes() || p.quality() == Quality.INVALID) {
                continue;
            }
            double w = weight(p);
            adj.get(p.a()).add(new Edge(p.a(), p.b(), p, w));
            adj.get(p.b()).add(new Edge(p.b(), p.a(), p, w));
        }
        int requested = -1;
        if (requestedReference != null) {
            for (int i = 0; i < n; i++) {
                if (nodes.get(i).name().equals(requestedReference)) {
                    requested = i;
                }
            }
            if (requested < 0) {
                throw new IllegalArgumentException("--reference " + requestedReference + ": no such node (nodes: "
                        + nodes.stream().map(NodeInfo::name).toList() + ")");
            }
        }
        int[] group = components(n, adj);
        NodeResult[] results = new NodeResult[n];
        List<String> warnings = new ArrayList<>();
        int groups = 0; // a loop, not a stream: a first stream links its classes and lambdas (the CLI's start)
        for (int g : group) {
            groups = Math.max(groups, g + 1);
        }
        int mainReference = -1;
        int mainSize = -1;
        int synced = 0;
        for (int g = 0; g < groups; g++) {
            List<Integer> members = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (group[i] == g) {
                    members.add(i);
                }
            }
            if (members.size() == 1) {
                int i = members.get(0);
                results[i] = unsynchronized(nodes, acc, pairs, i);
                if (n > 1) {
                    warnings.add("node " + nodes.get(i).name() + " is not synchronized: " + results[i].note());
                }
                if (mainSize < 1) {
                    mainSize = 1;
                    mainReference = i;
                }
                continue;
            }
            int ref = requested >= 0 && group[requested] == g ? requested : chooseReference(members, adj, n);
            if (members.size() > mainSize) {
                mainSize = members.size();
                mainReference = ref;
            }
            Edge[] parent = new Edge[n];
            dijkstra(ref, adj, n, parent);
            List<Integer> order = parentsFirst(ref, members, parent, n);
            ClockTransform[] transform = new ClockTransform[n];
            MonotoneBound[] lower = new MonotoneBound[n];
            MonotoneBound[] upper = new MonotoneBound[n];
            Quality[] quality = new Quality[n];
            boolean[] bounded = new boolean[n];
            boolean[] placed = new boolean[n];
            for (int i : order) {
                placed[i] = true;
                if (i == ref) {
                    results[i] = new NodeResult(nodes.get(i).name(), nodes.get(i).source(), nodes.get(i).name(),
                            Quality.REFERENCE, ClockTransform.identity(origin(acc, i)), NodeBounds.NONE,
                            List.of(nodes.get(i).name()), start(acc, i), end(acc, i),
                            "reference of a group of " + members.size() + " nodes");
                    quality[i] = Quality.ACCURATE;
                    bounded[i] = true;
                    continue;
                }
                Edge e = parent[i]; // e.from = parent, e.to = i
                PairEstimate p = e.pair();
                ClockTransform step; // null for a one-way pair: the node is placed by its shift below
                MonotoneBound lo;
                MonotoneBound hi;
                if (i == p.a()) {
                    step = p.hasEstimate() ? p.transformAToB() : null;
                    lo = p.lowerAToB();
                    hi = p.upperAToB();
                } else {
                    step = p.hasEstimate() ? p.transformAToB().inverse() : null;
                    lo = p.upperAToB() == null ? null : p.upperAToB().inverse();
                    hi = p.lowerAToB() == null ? null : p.lowerAToB().inverse();
                }
                int par = e.from();
                boolean parentIsRef = par == ref;
                quality[i] = worse(parentIsRef ? Quality.ACCURATE : quality[par], p.quality());
                String oneWay = "";
                if (p.quality() == Quality.ONE_WAY) {
                    OneWayShift shift = oneWayShift(i, pairs, placed, transform, ref);
                    transform[i] = ClockTransform.linear(origin(acc, i), shift.sigma(), 0.0);
                    if (shift.contradicted()) {
                        quality[i] = worse(quality[i], Quality.FALLBACK);
                    }
                    oneWay = shift.describe(nodes.get(par).name());
                    warnings.add("node " + nodes.get(i).name() + " " + oneWay);
                } else {
                    transform[i] = parentIsRef ? step : step.then(transform[par]);
                }
                bounded[i] = (parentIsRef || bounded[par]) && (lo != null || hi != null);
                if (bounded[i]) {
                    // a side unbounded everywhere (null) stays so down the path
                    lower[i] = lo == null ? null : parentIsRef ? lo : lower[par] == null ? null : MonotoneBound.compose(lower[par], lo);
                    upper[i] = hi == null ? null : parentIsRef ? hi : upper[par] == null ? null : MonotoneBound.compose(upper[par], hi);
                    bounded[i] = lower[i] != null || upper[i] != null;
                }
                List<String> path = new ArrayList<>();
                for (int k = i; k != ref; k = parent[k].from()) {
                    path.add(nodes.get(k).name());
                }
                path.add(nodes.get(ref).name());
                NodeBounds rows = bounded[i] ? NodeBounds.of(transform[i], lower[i], upper[i]) : NodeBounds.NONE;
                String note = "via " + String.join(" -> ", path) + (oneWay.isEmpty() ? "" : "; " + oneWay)
                        + (bounded[i] ? (lower[i] == null ? "; upper bound only (plus)" : upper[i] == null
                                ? "; lower bound only (minus)" : "")
                                : "; no strict bounds (" + boundlessReason(path, parent, i, ref) + ")");
                results[i] = new NodeResult(nodes.get(i).name(), nodes.get(i).source(), nodes.get(ref).name(),
                        quality[i], transform[i], rows, path, start(acc, i), end(acc, i), note);
                synced++;
            }
        }
        List<PairResult> pairResults = new ArrayList<>();
        for (PairEstimate p : pairs) {
            pairResults.add(pairResult(nodes, p));
            if (p.quality() == Quality.FALLBACK) {
                warnings.add("pair " + nodes.get(p.a()).name() + "/" + nodes.get(p.b()).name() + " is fallback: " + p.note());
            } else if (p.quality() == Quality.PIECEWISE) {
                String pair = nodes.get(p.a()).name() + "/" + nodes.get(p.b()).name();
                for (ClockStep st : p.piecewise().steps()) {
                    warnings.add(stepWarning(pair, nodes.get(p.a()).name(), nodes.get(p.b()).name(), st));
                }
                if (p.piecewise().unresolved() > 0 || p.piecewise().breaks() > 0) {
                    warnings.add("pair " + pair + " is piecewise (" + p.piecewise().pieces() + " pieces): " + p.note());
                }
            } else if (p.quality() == Quality.INVALID) {
                warnings.add("pair " + nodes.get(p.a()).name() + "/" + nodes.get(p.b()).name() + " is invalid: " + p.note());
            }
        }
        if (groups > 1 && n > 1) {
            long multi = Arrays.stream(results).filter(r -> r.synchronizedToOther()).map(NodeResult::reference).distinct().count();
            if (multi > 1) {
                warnings.add(multi + " groups of nodes are not connected to each other; each has its own reference");
            }
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("nodes", n);
        stats.put("synchronized", synced);
        stats.put("groups", groups);
        stats.put("messages", acc.messages());
        stats.put("self_messages_dropped", acc.selfMessages());
        stats.put("pairs", pairs.size());
        stats.put("reduction", "path");
        return new SyncResult(n == 0 ? "" : nodes.get(Math.max(0, mainReference)).name(),
                Arrays.asList(results), pairResults, stats, warnings);
    }

    /** "pair a/b: clock step of +5.000 ms [4.990, 5.010] at a-time T (between T1 and T2)". */
    static String stepWarning(String pair, String a, String b, ClockStep st) {
        String bounds = Double.isNaN(st.sizeMin()) ? "" : String.format(java.util.Locale.ROOT, " [%+.3f, %+.3f] ms",
                st.sizeMin() / 1e6, st.sizeMax() / 1e6);
        return String.format(java.util.Locale.ROOT,
                "pair %s: clock step: %s's clock jumps by %+.3f ms%s relative to %s's at %s-time %d (between %d and %d); "
                        + "the transform is cut there", pair, b, st.size() / 1e6, bounds, a, a, st.at(), st.earliest(), st.latest());
    }

    /**
     * The members in breadth-first order of the shortest-path tree: every parent before its
     * children. Not by distance: distances can tie in doubles (two fallback hops weigh 2e13 ns, and
     * a zero-width pair's 1e-3 ns vanishes next to them), and a child sorted before its parent
     * would be composed from nothing.
     */
    static List<Integer> parentsFirst(int ref, List<Integer> members, Edge[] parent, int n) {
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            children.add(new ArrayList<>());
        }
        for (int m : members) {
            if (m != ref && parent[m] != null) {
                children.get(parent[m].from()).add(m);
            }
        }
        List<Integer> order = new ArrayList<>(members.size());
        order.add(ref);
        for (int k = 0; k < order.size(); k++) {
            order.addAll(children.get(order.get(k)));
        }
        if (order.size() != members.size()) {
            throw new IllegalStateException("shortest-path tree does not reach every member of the group: "
                    + order.size() + " of " + members.size());
        }
        return order;
    }

    private static String boundlessReason(List<String> path, Edge[] parent, int i, int ref) {
        for (int k = i; k != ref; k = parent[k].from()) {
            PairEstimate p = parent[k].pair();
            if (!p.hasAnyBound()) {
                return "pair quality " + p.quality().label() + " on the path";
            }
            if (!p.hasBounds()) {
                return "one-sided pairs on the path bound opposite sides";
            }
        }
        return "bounds unknown";
    }

    static double weight(PairEstimate p) {
        return switch (p.quality()) {
            case ACCURATE, PIECEWISE -> Double.isNaN(p.meanAccuracy()) ? INCOMPLETE_WEIGHT : Math.max(p.meanAccuracy(), 1e-3);
            case INCOMPLETE -> INCOMPLETE_WEIGHT;
            case ONE_WAY -> ONE_WAY_WEIGHT;
            case FALLBACK -> FALLBACK_WEIGHT + p.maxViolation();
            default -> Double.POSITIVE_INFINITY;
        };
    }

    private static Quality worse(Quality x, Quality y) {
        return rank(x) >= rank(y) ? x : y;
    }

    private static int rank(Quality q) {
        return switch (q) {
            case ACCURATE -> 0;
            case PIECEWISE -> 1;
            case INCOMPLETE -> 2;
            case ONE_WAY -> 3;
            case FALLBACK -> 4;
            default -> 5;
        };
    }

    /**
     * The constant shift σ of a node's own clock (reference ns) closest to 0 within [lo, hi], the
     * range that every hull point of its one-way pairs with placed nodes allows (see the class
     * comment); the middle when lo &gt; hi.
     */
    record OneWayShift(double sigma, double lo, double hi, int points, int pairs) {

        boolean contradicted() {
            return lo > hi;
        }

        String describe(String parent) {
            String range = Double.isInfinite(lo) && Double.isInfinite(hi) ? "no constraint"
                    : Double.isInfinite(hi) ? String.format(java.util.Locale.ROOT, "one-sided bound: shift >= %.0f ns", lo)
                    : Double.isInfinite(lo) ? String.format(java.util.Locale.ROOT, "one-sided bound: shift <= %.0f ns", hi)
                    : String.format(java.util.Locale.ROOT, "%.0f ns <= shift <= %.0f ns", lo, hi);
            String what = contradicted()
                    ? "no constant shift removes every violation: the middle taken, violations remain"
                    : sigma == 0 ? "nothing violated, so no shift"
                    : "the smallest shift that removes every violation";
            return String.format(java.util.Locale.ROOT, "is tied one way only (to %s): its own clock shifted by %+.0f ns "
                    + "(%s; %s, from %d hull points of %d one-way pairs); one-sided bound", parent, sigma, range, what,
                    points, pairs);
        }
    }

    static OneWayShift oneWayShift(int i, List<PairEstimate> pairs, boolean[] placed, ClockTransform[] transform, int ref) {
        double lo = Double.NEGATIVE_INFINITY;
        double hi = Double.POSITIVE_INFINITY;
        int points = 0;
        int used = 0;
        for (PairEstimate p : pairs) {
            if (p.quality() != Quality.ONE_WAY || (p.a() != i && p.b() != i)) {
                continue;
            }
            int j = p.a() == i ? p.b() : p.a();
            if (!placed[j] || j == i) {
                continue;
            }
            ClockTransform tj = j == ref ? null : transform[j];
            used++;
            boolean iIsB = p.b() == i;
            // P: a → b messages, T_b(y) ≥ T_a(x); Q: b → a, T_a(x) ≥ T_b(y); x on a, y on b
            for (int side = 0; side < 2; side++) {
                long[] us = side == 0 ? p.pu() : p.qu();
                long[] vs = side == 0 ? p.pv() : p.qv();
                boolean aToB = side == 0;
                for (int k = 0; k < us.length; k++) {
                    long x = p.x0() + us[k];
                    long y = x + p.v0() + vs[k];
                    points++;
                    if (iIsB) { // σ vs T_a(x) − y
                        double bound = (double) (x - y) + (tj == null ? 0.0 : tj.correction(x));
                        if (aToB) {
                            lo = Math.max(lo, bound);
                        } else {
                            hi = Math.min(hi, bound);
                        }
                    } else { // σ vs T_b(y) − x
                        double bound = (double) (y - x) + (tj == null ? 0.0 : tj.correction(y));
                        if (aToB) {
                            hi = Math.min(hi, bound);
                        } else {
                            lo = Math.max(lo, bound);
                        }
                    }
                }
            }
        }
        // whole ns, rounded inward, so that rounding a corrected time never inverts a message
        double inLo = Math.ceil(lo);
        double inHi = Math.floor(hi);
        double sigma = lo > hi ? Math.rint(0.5 * (lo + hi)) : inLo > inHi ? 0.5 * (lo + hi)
                : Math.min(Math.max(0.0, inLo), inHi);
        return new OneWayShift(sigma, lo, hi, points, used);
    }

    private static NodeResult unsynchronized(List<NodeInfo> nodes, PairAccumulators acc, List<PairEstimate> pairs, int i) {
        Quality best = Quality.ABSENT;
        String why = "no messages with any other node";
        for (PairEstimate p : pairs) {
            if (p.a() != i && p.b() != i) {
                continue;
            }
            String other = nodes.get(p.a() == i ? p.b() : p.a()).name();
            if (p.quality() == Quality.ONE_WAY) {
                best = Quality.ONE_WAY;
                why = "messages with " + other + " in one direction only";
            } else if (p.quality() == Quality.INVALID && best != Quality.ONE_WAY) {
                best = Quality.INVALID;
                why = "the pair with " + other + " is invalid (" + p.note() + ")";
            }
        }
        NodeInfo node = nodes.get(i);
        return new NodeResult(node.name(), node.source(), node.name(), best,
                ClockTransform.identity(origin(acc, i)), NodeBounds.NONE, List.of(), start(acc, i), end(acc, i), why);
    }

    private static long origin(PairAccumulators acc, int i) {
        return acc.first(i) == Long.MAX_VALUE ? 0 : acc.first(i);
    }

    private static long start(PairAccumulators acc, int i) {
        return acc.first(i) == Long.MAX_VALUE ? 0 : acc.first(i);
    }

    private static long end(PairAccumulators acc, int i) {
        return acc.last(i) == Long.MIN_VALUE ? 0 : acc.last(i);
    }

    private static PairResult pairResult(List<NodeInfo> nodes, PairEstimate p) {
        return new PairResult(nodes.get(p.a()).name(), nodes.get(p.b()).name(), p.quality(),
                p.countAToB(), p.countBToA(), p.pu().length, p.qu().length, p.driftMin(), p.driftMax(),
                p.hasEstimate() ? p.v0() + p.c() : Double.NaN, p.d(), p.x0(), p.meanAccuracy(),
                p.violations(), p.maxViolation(), p.note(), p.pieceCount(),
                p.piecewise() == null ? List.of() : p.piecewise().steps(),
                p.line() == null ? null : p.line().regression());
    }

    private static int[] components(int n, List<List<Edge>> adj) {
        int[] group = new int[n];
        Arrays.fill(group, -1);
        int g = 0;
        for (int s = 0; s < n; s++) {
            if (group[s] >= 0) {
                continue;
            }
            ArrayDeque<Integer> queue = new ArrayDeque<>();
            queue.add(s);
            group[s] = g;
            while (!queue.isEmpty()) {
                int x = queue.poll();
                for (Edge e : adj.get(x)) {
                    if (group[e.to()] < 0) {
                        group[e.to()] = g;
                        queue.add(e.to());
                    }
                }
            }
            g++;
        }
        return group;
    }

    private static int chooseReference(List<Integer> members, List<List<Edge>> adj, int n) {
        int best = -1;
        double bestSum = Double.POSITIVE_INFINITY;
        for (int m : members) {
            double[] d = dijkstra(m, adj, n, new Edge[n]);
            double sum = 0;
            for (int k : members) {
                sum += d[k];
            }
            if (sum < bestSum) {
                bestSum = sum;
                best = m;
            }
        }
        return best;
    }

    /**
     * Queue entries {distance, node} by distance, then node. A class, not a lambda: every sync
     * runs this, and a lambda's call site is linked at its first use, about a millisecond of the
     * CLI's start (docs/PERFORMANCE.md, "Start").
     */
    private static final java.util.Comparator<double[]> BY_DISTANCE = new java.util.Comparator<double[]>() {
        @Override
        public int compare(double[] x, double[] y) {
            return x[0] != y[0] ? Double.compare(x[0], y[0]) : Double.compare(x[1], y[1]);
        }
    };

    /** Shortest paths from {@code source}; {@code parent[v]} is the edge (parent → v). */
    static double[] dijkstra(int source, List<List<Edge>> adj, int n, Edge[] parent) {
        double[] dist = new double[n];
        Arrays.fill(dist, Double.POSITIVE_INFINITY);
        dist[source] = 0;
        PriorityQueue<double[]> pq = new PriorityQueue<>(BY_DISTANCE);
        pq.add(new double[] {0, source});
        while (!pq.isEmpty()) {
            double[] top = pq.poll();
            int x = (int) top[1];
            if (top[0] > dist[x]) {
                continue;
            }
            for (Edge e : adj.get(x)) {
                double nd = dist[x] + e.weight();
                if (nd < dist[e.to()]) {
                    dist[e.to()] = nd;
                    parent[e.to()] = e;
                    pq.add(new double[] {nd, e.to()});
                }
            }
        }
        return dist;
    }
}
