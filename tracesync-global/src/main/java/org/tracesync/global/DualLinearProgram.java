package org.tracesync.global;

import java.util.ArrayList;
import java.util.List;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * A linear program {@code max cᵀx subject to A·x ≤ b} with free x, solved by ojAlgo through its
 * dual {@code min bᵀy subject to Aᵀy = c, y ≥ 0}, and checked.
 *
 * <h2>Why the dual</h2>
 * The global program has few unknowns (two per node) and many rows (one per hull vertex).
 * ojAlgo's simplex keeps a dense tableau of rows × (columns + slacks): for 100 nodes and 5,000
 * rows that is 5,000 × 5,400 entries per pivot. Its dual has one row per unknown: 200 × 5,000.
 * Measured on a 20-node mesh (600 rows), the dual solves ~20× faster; at 100 nodes the primal
 * does not finish in useful time.
 *
 * <h2>Checked, never trusted</h2>
 * The primal x is read from the multipliers of the dual's equality rows (x = −λ). An answer is
 * accepted only if x satisfies every row (within 1e-4, i.e. 0.1 ns in the program's µs units) and
 * cᵀx equals the dual objective bᵀy (within 1e-7 relative): a feasible primal point and a dual
 * point with equal objectives are both optimal (strong duality), so the value is certified.
 * Otherwise the primal itself is handed to ojAlgo (slow, but direct) and checked the same way.
 *
 * <p>Status: {@link Status#OPTIMAL}; {@link Status#UNBOUNDED_OR_INFEASIBLE} when the dual has no
 * optimum (its infeasibility means the primal is unbounded or infeasible; which one is known to
 * the caller: the bound programs are feasible, the estimate programs bounded).
 *
 * <p>The dual model is built once and reused for every objective c (only the equality levels
 * change). Not thread-safe.
 */
final class DualLinearProgram {

    enum Status { OPTIMAL, UNBOUNDED_OR_INFEASIBLE }

    /** An answer: status, the optimal value and an optimal x (null unless optimal). */
    record Answer(Status status, double value, double[] x, boolean dualFeasible) {
        Answer(Status status, double value, double[] x) {
            this(status, value, x, false);
        }

        boolean optimal() {
            return status == Status.OPTIMAL;
        }
    }

    private static final double FEASIBILITY_TOLERANCE = 1e-4;
    private static final double GAP_TOLERANCE = 1e-7;

    private final int variables;
    private final List<int[]> cols = new ArrayList<>();
    private final List<double[]> vals = new ArrayList<>();
    private final List<Double> rhs = new ArrayList<>();
    private ExpressionsBasedModel dual;
    private Expression[] equalities;
    private int solves;
    private int primalFallbacks;

    DualLinearProgram(int variables) {
        this.variables = variables;
    }

    /** Adds the row {@code Σ vals[i]·x[cols[i]] ≤ b}. */
    void addRow(int[] rowCols, double[] rowVals, double b) {
        cols.add(rowCols.clone());
        vals.add(rowVals.clone());
        rhs.add(b);
        dual = null;
    }

    int rows() {
        return rhs.size();
    }

    /** LPs handed to ojAlgo so far (dual solves plus primal fallbacks). */
    int solves() {
        return solves;
    }

    int primalFallbacks() {
        return primalFallbacks;
    }

    /**
     * Solves max cᵀx. The answer's x is an optimal point, certified as above (the dual's, or the
     * primal fallback's).
     */
    Answer maximize(double[] c) {
        return maximize(c, FEASIBILITY_TOLERANCE, GAP_TOLERANCE);
    }

    /**
     * Same, with the check's tolerances: every row satisfied within {@code feasibility} and cᵀx
     * within {@code gap} (relative) of the dual objective.
     */
    Answer maximize(double[] c, double feasibility, double gap) {
        Answer a = maximizeThroughDual(c, feasibility, gap);
        return a.optimal() ? a : primal(c);
    }

    /** The dual only, checked; no primal fallback (the answer is not optimal when the check fails). */
    Answer maximizeThroughDual(double[] c, double feasibility, double gap) {
        Answer a = solveDual(c);
        if (a.optimal() && certified(c, a.x(), a.value(), feasibility, gap)) {
            return a;
        }
        return new Answer(Status.UNBOUNDED_OR_INFEASIBLE, Double.NaN, null);
    }

    /**
     * An upper bound of max cᵀx: the dual objective bᵀy at a dual-feasible y (Aᵀy = c within
     * 1e-9, y ≥ 0), valid by weak duality whether or not the solver reached the optimum — so a
     * joint bound built from it can only be conservative. {@code value} is that bound (NaN when
     * the dual has no optimum: the primal is unbounded); {@code x} is the point read from the
     * multipliers, a hint only (used to place the next sample), possibly null.
     */
    Answer upperBound(double[] c) {
        Answer a = solveDual(c);
        if (!a.optimal() || !a.dualFeasible()) {
            Answer p = primal(c);
            // the primal's own optimum, when the dual failed: as good as ojAlgo gets
            return p;
        }
        return a;
    }

    private Answer solveDual(double[] c) {
        if (dual == null) {
            buildDual();
        }
        for (int j = 0; j < variables; j++) {
            equalities[j].level(c[j]);
        }
        solves++;
        Optimisation.Result r = dual.minimise();
        if (!r.getState().isOptimal()) {
            return new Answer(Status.UNBOUNDED_OR_INFEASIBLE, Double.NaN, null);
        }
        int m = rhs.size();
        double[] y = new double[m];
        double by = 0;
        for (int i = 0; i < m; i++) {
            y[i] = Math.max(0.0, r.doubleValue(i));
            by += rhs.get(i) * y[i];
        }
        // dual feasibility: Aᵀy = c
        double[] aty = new double[variables];
        for (int i = 0; i < m; i++) {
            if (y[i] != 0) {
                int[] ci = cols.get(i);
                double[] vi = vals.get(i);
                for (int k = 0; k < ci.length; k++) {
                    aty[ci[k]] += vi[k] * y[i];
                }
            }
        }
        boolean dualFeasible = true;
        for (int j = 0; j < variables; j++) {
            if (Math.abs(aty[j] - c[j]) > 1e-9 * (1 + Math.abs(c[j]))) {
                dualFeasible = false;
            }
        }
        double[] x = new double[variables];
        for (var mu : r.getMatchedMultipliers()) {
            String name = mu.getKey().getKey().getName();
            if (name.startsWith("x")) {
                x[Integer.parseInt(name.substring(1))] = -mu.doubleValue();
            }
        }
        return new Answer(Status.OPTIMAL, dualFeasible ? by : r.getValue(), x, dualFeasible);
    }

    private void buildDual() {
        dual = new ExpressionsBasedModel();
        // the sparse tableau: fewer failed answers (primal fallbacks) than the dense one, same speed
        dual.options.sparse = Boolean.TRUE;
        int m = rhs.size();
        Variable[] y = new Variable[m];
        for (int i = 0; i < m; i++) {
            y[i] = dual.addVariable("y" + i).lower(0).weight(rhs.get(i));
        }
        equalities = new Expression[variables];
        for (int j = 0; j < variables; j++) {
            equalities[j] = dual.addExpression("x" + j).level(0);
        }
        for (int i = 0; i < m; i++) {
            int[] ci = cols.get(i);
            double[] vi = vals.get(i);
            for (int k = 0; k < ci.length; k++) {
                equalities[ci[k]].add(y[i], vi[k]);
            }
        }
    }

    /** The primal handed to ojAlgo directly: the slow path, used only when the dual's answer fails its check. */
    private Answer primal(double[] c) {
        primalFallbacks++;
        solves++;
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable[] x = new Variable[variables];
        for (int j = 0; j < variables; j++) {
            x[j] = model.addVariable("x" + j).weight(c[j]);
        }
        for (int i = 0; i < rhs.size(); i++) {
            Expression e = model.addExpression("r" + i).upper(rhs.get(i));
            int[] ci = cols.get(i);
            double[] vi = vals.get(i);
            for (int k = 0; k < ci.length; k++) {
                e.add(x[ci[k]], vi[k]);
            }
        }
        Optimisation.Result r = model.maximise();
        if (!r.getState().isOptimal()) {
            return new Answer(Status.UNBOUNDED_OR_INFEASIBLE, Double.NaN, null);
        }
        double[] xs = new double[variables];
        for (int j = 0; j < variables; j++) {
            xs[j] = x[j].getValue().doubleValue();
        }
        double value = dot(c, xs);
        if (maxViolation(xs) > FEASIBILITY_TOLERANCE) {
            return new Answer(Status.UNBOUNDED_OR_INFEASIBLE, Double.NaN, null);
        }
        return new Answer(Status.OPTIMAL, value, xs);
    }

    private boolean certified(double[] c, double[] x, double value, double feasibility, double gap) {
        double primalValue = dot(c, x);
        return maxViolation(x) <= feasibility
                && Math.abs(primalValue - value) <= gap * (1 + Math.abs(value)) + feasibility;
    }

    /** Largest row violation {@code A·x − b} (≤ 0 when feasible). */
    double maxViolation(double[] x) {
        double worst = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < rhs.size(); i++) {
            int[] ci = cols.get(i);
            double[] vi = vals.get(i);
            double lhs = 0;
            for (int k = 0; k < ci.length; k++) {
                lhs += vi[k] * x[ci[k]];
            }
            worst = Math.max(worst, lhs - rhs.get(i));
        }
        return worst;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}

