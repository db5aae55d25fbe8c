package org.tracesync.global;

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
 * <p>Status: {@link LinearProgram.Status#OPTIMAL}; {@link LinearProgram.Status#UNBOUNDED_OR_INFEASIBLE} when the dual has no
 * optimum (its infeasibility means the primal is unbounded or infeasible; which one is known to
 * the caller: the bound programs are feasible, the estimate programs bounded).
 *
 * <p>The dual model is built once and reused for every objective c (only the equality levels
 * change). Not thread-safe.
 */
final class DualLinearProgram extends CheckedRows {

    /** Rows an upper bound's primal fallback must satisfy (µs in the program's units: 0.1 ns). */
    private static final double FEASIBILITY_TOLERANCE = 1e-4;

    private ExpressionsBasedModel dual;
    private Expression[] equalities;
    private int solves;
    private int primalFallbacks;

    DualLinearProgram(int variables) {
        super(variables);
    }

    @Override
    protected void rowsChanged() {
        dual = null;
    }

    @Override
    public int solves() {
        return solves;
    }

    @Override
    public int retries() {
        return primalFallbacks;
    }

    @Override
    public void close() {
        dual = null;
    }

    /**
     * The dual, checked; when {@code thorough}, a failed check hands the primal itself to ojAlgo
     * (slow, but direct), checked the same way.
     */
    @Override
    public Answer maximize(double[] c, double feasibility, double gap, boolean thorough) {
        Solved s = solveDual(c);
        // certified only against a dual-feasible bound: ojAlgo's own objective value is not proof
        // (LinearProgramAgreementTest found it reporting a suboptimal vertex as optimal)
        if (s != null && certified(c, s.x, s.bound, feasibility, gap)) {
            return new Answer(Status.OPTIMAL, dot(c, s.x), s.x);
        }
        return thorough ? primal(c, feasibility) : Answer.NONE;
    }

    @Override
    public Answer upperBound(double[] c) {
        Solved s = solveDual(c);
        if (s == null || !Double.isFinite(s.bound)) {
            return primal(c, FEASIBILITY_TOLERANCE); // the primal's own optimum: as good as ojAlgo gets
        }
        return new Answer(Status.OPTIMAL, s.bound, s.x);
    }

    private record Solved(double[] x, double bound) {
    }

    /** The dual's answer: x read from its multipliers, its own value, and bᵀy if y is dual feasible (else NaN). */
    private Solved solveDual(double[] c) {
        if (dual == null) {
            buildDual();
        }
        for (int j = 0; j < variables; j++) {
            equalities[j].level(c[j]);
        }
        solves++;
        Optimisation.Result r = dual.minimise();
        if (!r.getState().isOptimal()) {
            return null;
        }
        int m = rows();
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            y[i] = Math.max(0.0, r.doubleValue(i));
        }
        double[] x = new double[variables];
        for (var mu : r.getMatchedMultipliers()) {
            String name = mu.getKey().getKey().getName();
            if (name.startsWith("x")) {
                x[Integer.parseInt(name.substring(1))] = -mu.doubleValue();
            }
        }
        return new Solved(x, dualBound(c, y));
    }

    private void buildDual() {
        dual = new ExpressionsBasedModel();
        // the sparse tableau: fewer failed answers (primal fallbacks) than the dense one, same speed
        dual.options.sparse = Boolean.TRUE;
        int m = rows();
        Variable[] y = new Variable[m];
        for (int i = 0; i < m; i++) {
            y[i] = dual.addVariable("y" + i).lower(0).weight(rhs(i));
        }
        equalities = new Expression[variables];
        for (int j = 0; j < variables; j++) {
            equalities[j] = dual.addExpression("x" + j).level(0);
        }
        for (int i = 0; i < m; i++) {
            int[] ci = cols(i);
            double[] vi = vals(i);
            for (int k = 0; k < ci.length; k++) {
                equalities[ci[k]].add(y[i], vi[k]);
            }
        }
    }

    /** The primal handed to ojAlgo directly: the slow path, used only when the dual's answer fails its check. */
    private Answer primal(double[] c, double feasibility) {
        primalFallbacks++;
        solves++;
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable[] x = new Variable[variables];
        for (int j = 0; j < variables; j++) {
            x[j] = model.addVariable("x" + j).weight(c[j]);
        }
        for (int i = 0; i < rows(); i++) {
            Expression e = model.addExpression("r" + i).upper(rhs(i));
            int[] ci = cols(i);
            double[] vi = vals(i);
            for (int k = 0; k < ci.length; k++) {
                e.add(x[ci[k]], vi[k]);
            }
        }
        Optimisation.Result r = model.maximise();
        if (!r.getState().isOptimal()) {
            return Answer.NONE;
        }
        double[] xs = new double[variables];
        for (int j = 0; j < variables; j++) {
            xs[j] = x[j].getValue().doubleValue();
        }
        if (maxViolation(xs) > feasibility) {
            return Answer.NONE;
        }
        return new Answer(Status.OPTIMAL, dot(c, xs), xs);
    }
}
