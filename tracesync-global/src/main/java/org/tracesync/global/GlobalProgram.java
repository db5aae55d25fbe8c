package org.tracesync.global;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;

/**
 * The global linear program of one connected group (DESIGN §4): every non-reference node's
 * transform, constrained by every pair's hull points, as close as possible to the pairwise
 * estimates.
 *
 * <h2>Unknowns, rebased and scaled</h2>
 * Node n's transform is written relative to its path-composition transform P_n (the starting
 * point, already within microseconds of the answer):
 * <pre>
 *   ref_n(t) = t + P_n(t) + 1000·(O_n + D_n·s_n(t))      s_n(t) = (t − T_n) / H
 * </pre>
 * with T_n the middle of n's data, H the largest half-span of the group (ns), O_n in µs and D_n
 * the drift correction expressed as µs per H (1 unit = 1000/H ns/ns; for a 100 s group, 0.02 ppm).
 * The reference has O = D = 0. Every coefficient is then O(1) (|s| ≲ 1, constraint right-hand
 * sides are path-corrected latencies in µs): a general LP solver fed raw epoch nanoseconds
 * loses every digit that matters, and misreports unbounded problems as optimal.
 *
 * <h2>Constraints (exact linear, no approximation)</h2>
 * A message sent at ts on node s and received at tr on node r needs ref_s(ts) + τ ≤ ref_r(tr):
 * <pre>
 *   O_s + D_s·s_s(ts) − O_r − D_r·s_r(tr) ≤ [(tr − ts) + P_r(tr) − P_s(ts) − τ] / 1000
 * </pre>
 * Only hull vertices can be tight (a line below the lower hull's vertices is below every a → b
 * point), so one row per hull vertex, both directions, every pair whose two nodes are in the
 * group — including one-way pairs, whose points are valid constraints too. (tr − ts) is an exact
 * long; P's corrections are small doubles.
 *
 * <h2>Objective: weighted L1 deviation from the pairwise estimates</h2>
 * For a pair (a, b) with estimate E (a-time → b-time), consistency means ref_b(E(x)) = ref_a(x).
 * The deviation δ(x) = ref_b(E(x)) − ref_a(x) is linear in x and <em>exactly</em> linear in the
 * unknowns (E is fixed), so we penalize |δ| at the pair's first and last message (two points fix
 * a line: offset and drift deviation over the span the pair has data for), weighted by
 * 1 / (pair's mean bound width): minimize Σ w_p·(|δ_p(first)| + |δ_p(last)|), with one auxiliary
 * variable e ≥ |δ| per term (two rows each). Why L1 and not least squares: it is a linear program
 * (one solver for the estimate and the bounds, exact vertex solutions), and L1 is robust — a pair
 * whose estimate disagrees with the rest (a slow asymmetric link) absorbs its disagreement alone,
 * instead of smearing it over every node as least squares would. Why these weights: a precise
 * pair (narrow corridor) is trusted more than a wide one; incomplete pairs (no finite width) get
 * the smallest weight.
 *
 * <h2>Joint bounds</h2>
 * At local time t, the range of ref_n(t) over the feasible set (τ = τmin, default 0, so that the
 * true clocks, if linear, are feasible) is [min, max] of the linear function O_n + D_n·s_n(t):
 * two LPs per instant, see {@link #bounds}.
 *
 * <p>Size: V = 2·(N − 1) + 2·(estimated pairs) variables, R = Σ hull vertices + 4·(estimated
 * pairs) rows. Not thread-safe; one instance per group.
 */
final class GlobalProgram {

    /** ns per µs: the unit of the offsets in the program. */
    static final double UNIT = 1000.0;
    /** Widening of every joint bound (ns): solver tolerance and double rounding of the sides. */
    static final double SAFETY_NS = 1.0;
    /** |value| beyond this (µs) is treated as unbounded: a scaled program never gets there honestly. */
    static final double UNBOUNDED_US = 1e12;

    /** One hull constraint: O_s + D_s·ss − O_r − D_r·sr ≤ rhs − τ/1000 (local indices; −1 = reference). */
    private record Row(int s, double ss, int r, double sr, double rhs) {
    }

    /** One objective term: δ = k + (O_b + D_b·sb) − (O_a + D_a·sa), weighted. */
    private record Term(int a, double sa, int b, double sb, double k, double weight) {
    }

    private final int[] members;     // node indices; members[local]
    private final int[] local;       // node index → local index, −1 if not in the group
    private final int refLocal;
    private final ClockTransform[] path; // by local index
    private final long[] origin;     // T_n, by local index
    private final double h;          // H, ns
    private final List<Row> rows = new ArrayList<>();
    private final List<Term> terms = new ArrayList<>();
    private final List<long[]> sampleTimes = new ArrayList<>(); // per local index: hull vertex times
    private final long[] first;
    private final long[] last;
    private int oneWayPairs;
    private int pairsUsed;

    private double[] offsetUs;   // solution O, by local index
    private double[] driftUnits; // solution D, by local index
    private long solveNanos;
    private int lpCount;

    /**
     * @param members the group's node indices
     * @param ref     the reference node index (a member)
     * @param path    path-composition transform of every node (by node index), the starting point
     * @param pairs   every pair estimate; pairs not inside the group, absent and invalid ones are skipped
     */
    GlobalProgram(int[] members, int ref, ClockTransform[] path, List<PairEstimate> pairs, PairAccumulators acc) {
        this.members = members.clone();
        this.local = new int[acc.nodes()];
        Arrays.fill(local, -1);
        for (int k = 0; k < members.length; k++) {
            local[members[k]] = k;
        }
        this.refLocal = local[ref];
        int m = members.length;
        this.path = new ClockTransform[m];
        this.origin = new long[m];
        this.first = new long[m];
        this.last = new long[m];
        long maxHalf = 1_000_000L;
        for (int k = 0; k < m; k++) {
            int n = members[k];
            this.path[k] = path[n];
            first[k] = acc.first(n);
            last[k] = acc.last(n);
            origin[k] = first[k] + (last[k] - first[k]) / 2;
            maxHalf = Math.max(maxHalf, (last[k] - first[k]) / 2);
        }
        this.h = maxHalf;
        List<List<Long>> times = new ArrayList<>();
        for (int k = 0; k < m; k++) {
            times.add(new ArrayList<>());
        }
        double maxWeight = 0;
        List<double[]> rawTerms = new ArrayList<>();
        for (PairEstimate p : pairs) {
            int a = local[p.a()];
            int b = local[p.b()];
            if (a < 0 || b < 0 || p.quality() == Quality.INVALID || p.quality() == Quality.ABSENT) {
                continue;
            }
            pairsUsed++;
            if (p.quality() == Quality.ONE_WAY) {
                oneWayPairs++;
            }
            long x0 = p.x0();
            long v0 = p.v0();
            for (int i = 0; i < p.pu().length; i++) { // a → b: sent at x on a, received at y on b
                long x = x0 + p.pu()[i];
                long lat = v0 + p.pv()[i]; // y − x
                long y = x + lat;
                rows.add(new Row(a, s(a, x), b, s(b, y),
                        ((double) lat + this.path[b].correction(y) - this.path[a].correction(x)) / UNIT));
                times.get(a).add(x);
                times.get(b).add(y);
            }
            for (int i = 0; i < p.qu().length; i++) { // b → a: sent at y on b, received at x on a
                long x = x0 + p.qu()[i];
                long lat = -(v0 + p.qv()[i]); // x − y
                long y = x - lat;
                rows.add(new Row(b, s(b, y), a, s(a, x),
                        ((double) lat + this.path[a].correction(x) - this.path[b].correction(y)) / UNIT));
                times.get(a).add(x);
                times.get(b).add(y);
            }
            if (p.hasEstimate()) {
                double accuracyUs = p.quality() == Quality.ACCURATE && Double.isFinite(p.meanAccuracy())
                        ? p.meanAccuracy() / UNIT : 1e6;
                double w = 1.0 / Math.max(accuracyUs, 1e-3);
                maxWeight = Math.max(maxWeight, w);
                long[] ends = p.minX() == p.maxX() ? new long[] {p.minX()} : new long[] {p.minX(), p.maxX()};
                for (long x : ends) {
                    double ex = (double) v0 + p.c() + p.d() * (double) (x - x0); // E(x) − x
                    long ey = x + Math.round(ex);
                    double frac = ex - Math.round(ex);
                    double k = (ex + this.path[b].correction(ey) - this.path[a].correction(x)) / UNIT;
                    double sb = ((double) (ey - origin[b]) + frac) / h;
                    rawTerms.add(new double[] {a, s(a, x), b, sb, k, w});
                }
            }
        }
        for (double[] t : rawTerms) {
            terms.add(new Term((int) t[0], t[1], (int) t[2], t[3], t[4], Math.max(t[5] / maxWeight, 1e-6)));
        }
        for (int k = 0; k < m; k++) {
            long[] ts = times.get(k).stream().mapToLong(Long::longValue).toArray();
            sampleTimes.add(ts);
        }
    }

    private double s(int k, long t) {
        return (double) (t - origin[k]) / h;
    }

    int constraintCount() {
        return rows.size();
    }

    int pairsUsed() {
        return pairsUsed;
    }

    int oneWayPairs() {
        return oneWayPairs;
    }

    int lpCount() {
        return lpCount;
    }

    long solveNanos() {
        return solveNanos;
    }

    /**
     * Builds the constraint set; with {@code aux} (length terms + 1), also the objective's
     * auxiliary variables: e_i ≥ |δ_i| weighted w_i (the L1 objective), and z ≥ w_i·e_i (last).
     */
    private ExpressionsBasedModel model(double marginNs, Variable[] aux, Variable[] o, Variable[] d) {
        return model(marginNs, aux, o, d, Double.NaN);
    }

    /**
     * Without {@code zLimit} (NaN): the first stage, objective z. With it: the second stage,
     * z ≤ zLimit, objective Σ w·e.
     */
    private ExpressionsBasedModel model(double marginNs, Variable[] aux, Variable[] o, Variable[] d, double zLimit) {
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        for (int k = 0; k < members.length; k++) {
            if (k != refLocal) {
                o[k] = model.addVariable("o" + k);
                d[k] = model.addVariable("d" + k);
            }
        }
        double margin = marginNs / UNIT;
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            Expression e = model.addExpression("h" + i).upper(r.rhs() - margin);
            add(e, o, d, r.s(), 1.0, r.ss());
            add(e, o, d, r.r(), -1.0, r.sr());
        }
        if (aux != null) {
            boolean second = !Double.isNaN(zLimit);
            Variable z = model.addVariable("z").lower(0);
            if (second) {
                z.upper(zLimit);
            } else {
                z.weight(1.0);
            }
            aux[terms.size()] = z;
            for (int i = 0; i < terms.size(); i++) {
                Term t = terms.get(i);
                Variable e = model.addVariable("e" + i).lower(0);
                if (second) {
                    e.weight(t.weight());
                }
                aux[i] = e;
                // δ = k + lin ≤ e  and  −δ ≤ e
                Expression up = model.addExpression("p" + i).upper(-t.k());
                add(up, o, d, t.b(), 1.0, t.sb());
                add(up, o, d, t.a(), -1.0, t.sa());
                up.set(e, -1.0);
                Expression down = model.addExpression("m" + i).upper(t.k());
                add(down, o, d, t.b(), -1.0, t.sb());
                add(down, o, d, t.a(), 1.0, t.sa());
                down.set(e, -1.0);
                // w·e ≤ z: z is the largest weighted deviation (the second stage minimizes it)
                model.addExpression("z" + i).upper(0).set(e, t.weight()).set(z, -1.0);
            }
        }
        return model;
    }

    /** Adds sign·(O_k + D_k·s) to e (accumulating: a node can appear on both sides). */
    private void add(Expression e, Variable[] o, Variable[] d, int k, double sign, double s) {
        if (k == refLocal) {
            return;
        }
        e.add(o[k], sign);
        e.add(d[k], sign * s);
    }

    /**
     * Solves for the transforms. First with a 1 ns margin on every message (so that rounding the
     * corrected times to ns never produces an equality presented as an inversion), then, if that
     * is infeasible, with none. Returns false when the program is infeasible: no linear clocks
     * satisfy every message (or the solver's answer violates a constraint by more than 1 ns).
     */
    boolean solve(double minLatencyNs) {
        for (double margin : new double[] {Math.max(minLatencyNs, 1.0), minLatencyNs}) {
            int m = members.length;
            Variable[] o = new Variable[m];
            Variable[] d = new Variable[m];
            Variable[] aux = new Variable[terms.size() + 1];
            ExpressionsBasedModel model = model(margin, aux, o, d);
            long t0 = System.nanoTime();
            Optimisation.Result result = model.minimise();
            lpCount++;
            if (!result.getState().isOptimal()) {
                solveNanos += System.nanoTime() - t0;
                continue;
            }
            // second stage: the smallest weighted L1 deviation among the solutions of (nearly) smallest largest one
            double zMin = result.getValue();
            model = model(margin, aux, o, d, zMin + Math.max(1e-6 * zMin, 1e-6));
            Optimisation.Result second = model.minimise();
            lpCount++;
            solveNanos += System.nanoTime() - t0;
            if (!second.getState().isOptimal()) {
                continue;
            }
            double[] off = new double[m];
            double[] dr = new double[m];
            for (int k = 0; k < m; k++) {
                if (k != refLocal) {
                    off[k] = o[k].getValue().doubleValue();
                    dr[k] = d[k].getValue().doubleValue();
                }
            }
            if (maxViolationNs(off, dr, minLatencyNs) <= 1.0) {
                offsetUs = off;
                driftUnits = dr;
                return true;
            }
        }
        return false;
    }

    /** Largest amount (ns) by which the solution puts a hull message below τ. */
    private double maxViolationNs(double[] off, double[] dr, double minLatencyNs) {
        double worst = 0;
        for (Row r : rows) {
            double lhs = off[r.s()] + dr[r.s()] * r.ss() - off[r.r()] - dr[r.r()] * r.sr();
            worst = Math.max(worst, (lhs - (r.rhs() - minLatencyNs / UNIT)) * UNIT);
        }
        return worst;
    }

    /** The solved transform of node {@code node} (a member): P_n plus the correction found. */
    ClockTransform transform(int node) {
        int k = local[node];
        if (k == refLocal) {
            return path[k];
        }
        double corr = path[k].correction(origin[k]) + UNIT * offsetUs[k];
        double drift = path[k].linearSegment().drift() + UNIT * driftUnits[k] / h;
        return ClockTransform.linear(origin[k], corr, drift);
    }

    /**
     * Joint bounds of node {@code node} (a non-reference member) under the feasible set with
     * τ = {@code minLatencyNs}.
     *
     * <p>Instants: the node's hull-vertex times (every pair), capped at {@code maxInstants} chosen
     * evenly among them, always with the first and last. At each, two LPs: min and max of
     * g(t) = O_n + D_n·s_n(t). Between instants the rows are interpolated linearly, and that is
     * conservative: max over a polytope of a function linear in both the unknowns and t is a
     * maximum of linear functions of t, hence convex, so its chords lie above it (the upper bound
     * only widens); the min is concave and its chords lie below it. Beyond the first and last
     * instant, the rows continue with the feasible set's extreme drifts (2 more LPs): for t past
     * the last instant t_k, max g(t) ≤ max g(t_k) + (s(t) − s(t_k))·max D, and so on; one extra
     * row on each side, one data span away, makes the rows' linear extrapolation follow exactly
     * those lines.
     *
     * <p>Cost: 2·k + 2 LPs of the program's size, k ≤ maxInstants. Returns an empty list when the
     * feasible set is unbounded in this node's direction (a pair without two-sided data on every
     * route to the reference).
     */
    List<BoundRow> bounds(int node, int maxInstants, double minLatencyNs) {
        int k = local[node];
        long[] ts = instants(k, maxInstants);
        int m = members.length;
        Variable[] o = new Variable[m];
        Variable[] d = new Variable[m];
        ExpressionsBasedModel model = model(minLatencyNs, null, o, d);
        double[] lo = new double[ts.length];
        double[] hi = new double[ts.length];
        for (int i = 0; i < ts.length; i++) {
            double s = s(k, ts[i]);
            hi[i] = extreme(model, o[k], 1.0, d[k], s, true);
            lo[i] = extreme(model, o[k], 1.0, d[k], s, false);
            if (Double.isNaN(hi[i]) || Double.isNaN(lo[i])) {
                return List.of();
            }
        }
        double dMax = extreme(model, o[k], 0.0, d[k], 1.0, true);
        double dMin = extreme(model, o[k], 0.0, d[k], 1.0, false);
        List<BoundRow> out = new ArrayList<>();
        boolean extend = !Double.isNaN(dMax) && !Double.isNaN(dMin);
        long span = Math.max(ts[ts.length - 1] - ts[0], 1_000_000_000L);
        if (extend) {
            long t = ts[0] - span;
            double ds = s(k, t) - s(k, ts[0]); // negative
            out.add(row(k, t, lo[0] + ds * dMax, hi[0] + ds * dMin));
        }
        for (int i = 0; i < ts.length; i++) {
            out.add(row(k, ts[i], lo[i], hi[i]));
        }
        if (extend) {
            int last = ts.length - 1;
            long t = ts[last] + span;
            double ds = s(k, t) - s(k, ts[last]); // positive
            out.add(row(k, t, lo[last] + ds * dMin, hi[last] + ds * dMax));
        }
        return out;
    }

    private BoundRow row(int k, long t, double loUs, double hiUs) {
        double est = offsetUs[k] + driftUnits[k] * s(k, t);
        double minus = Math.max(0.0, UNIT * (est - loUs)) + SAFETY_NS;
        double plus = Math.max(0.0, UNIT * (hiUs - est)) + SAFETY_NS;
        return new BoundRow(t, minus, plus);
    }

    /** max (or min) of co·O + cd·D over the feasible set; NaN when unbounded or not solved. */
    private double extreme(ExpressionsBasedModel model, Variable o, double co, Variable d, double cd, boolean max) {
        // the objective is the two variables' weights, overwritten at every call
        o.weight(co);
        d.weight(cd);
        long t0 = System.nanoTime();
        Optimisation.Result r = max ? model.maximise() : model.minimise();
        solveNanos += System.nanoTime() - t0;
        lpCount++;
        if (!r.getState().isOptimal()) {
            return Double.NaN;
        }
        double v = r.getValue();
        if (!Double.isFinite(v) || Math.abs(v) > UNBOUNDED_US) {
            return Double.NaN;
        }
        return v;
    }

    /** Up to {@code cap} distinct instants among the node's hull-vertex times and data ends, evenly spread. */
    long[] instants(int k, int cap) {
        long[] all = Arrays.copyOf(sampleTimes.get(k), sampleTimes.get(k).length + 2);
        all[all.length - 2] = first[k];
        all[all.length - 1] = last[k];
        long[] distinct = Arrays.stream(all).sorted().distinct().toArray();
        if (distinct.length <= cap) {
            return distinct;
        }
        long[] out = new long[cap];
        for (int i = 0; i < cap; i++) {
            out[i] = distinct[(int) Math.round((double) i * (distinct.length - 1) / (cap - 1))];
        }
        return out;
    }
}
