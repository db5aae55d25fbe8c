package org.tracesync.global;

import com.google.ortools.linearsolver.MPConstraint;
import com.google.ortools.linearsolver.MPObjective;
import com.google.ortools.linearsolver.MPSolver;
import com.google.ortools.linearsolver.MPVariable;

/**
 * A {@link LinearProgram} solved by GLOP, OR-Tools' revised primal/dual simplex with a sparse LU
 * (native code, loaded by {@link LinearPrograms}).
 *
 * <h2>Why GLOP</h2>
 * The global program has 2·(N − 1) unknowns and one row per hull vertex: for 100 nodes × 10
 * links, 198 unknowns (1,200 with the L1 stage's deviation variables) by 5,000–9,000 sparse rows
 * of at most five entries. ojAlgo's simplex pivots a tableau of that whole size and took 9 min for
 * the transforms alone (docs/PERFORMANCE.md); a revised simplex only factors the basis and solves
 * the same programs in well under a second. The bound programs differ only in their objective, so
 * one model serves them all and GLOP restarts each solve from the previous optimal basis.
 * Rows on a single unknown become that unknown's bounds (GLOP's bounded simplex keeps them out of
 * the basis); their duals are recovered from the unknowns' reduced costs and checked like the rest.
 *
 * <h2>Checked, never trusted</h2>
 * Like {@link DualLinearProgram}: a maximum is accepted only if x satisfies every row (checked
 * here, in Java, on the rows as given) and the row duals y, clamped to y ≥ 0, satisfy Aᵀy = c and
 * give bᵀy within the gap of cᵀx; an upper bound is only ever bᵀy at such a y (weak duality).
 * When GLOP's y misses Aᵀy = c by more than the rounding of a few terms, it is recomputed from
 * the optimal basis (the tight rows: a square system, see {@link #refine}) and checked again.
 */
final class GlopLinearProgram extends CheckedRows {

    /**
     * GLOP's parameters. No presolve: it rewrites the program differently for every objective, so
     * each bound LP started cold (measured on 100 nodes × 10 links: 1,606 simplex iterations per
     * LP on average with it, 57 without — the previous optimal basis is kept). A dual feasibility
     * tolerance of 1e-11 instead of 1e-7: the row duals must satisfy Aᵀy = c to 1e-9 to certify a
     * bound; with the default, ~1% of the bound LPs ended with duals too loose to certify.
     */
    static final String PARAMETERS = "use_preprocessing: false dual_feasibility_tolerance: 1e-11";

    private MPSolver solver;
    private MPVariable[] x;
    private MPConstraint[] constraints; // null for the rows given to GLOP as variable bounds
    private int[] upperRow;              // by variable: the row that gives its upper bound, −1 if none
    private int[] lowerRow;              // by variable: the row that gives its lower bound, −1 if none
    private int solves;
    private int retries;

    GlopLinearProgram(int variables) {
        super(variables);
    }

    @Override
    protected void rowsChanged() {
        close();
    }

    @Override
    public int solves() {
        return solves;
    }

    @Override
    public int retries() {
        return retries;
    }

    @Override
    public void close() {
        if (solver != null) {
            solver.delete();
            solver = null;
        }
    }

    /** Overrides {@link #PARAMETERS} for this program (the transforms' single cold solves). */
    private String parameters;

    void parameters(String p) {
        parameters = p;
        close();
    }

    private void build() {
        if (!LinearPrograms.glopAvailable()) {
            throw new IllegalStateException("OR-Tools' native library could not be loaded: " + LinearPrograms.loadFailure());
        }
        solver = MPSolver.createSolver("GLOP");
        if (solver == null) {
            throw new IllegalStateException("OR-Tools has no GLOP solver");
        }
        // -Dtracesync.glop.parameters=… replaces them, for experiments (GLOP's text format)
        String parameters = this.parameters != null ? this.parameters : System.getProperty("tracesync.glop.parameters", PARAMETERS);
        if (!solver.setSolverSpecificParametersAsString(parameters)) {
            throw new IllegalStateException("GLOP refused its parameters: " + parameters);
        }
        double inf = MPSolver.infinity();
        int m = rows();
        // Rows on one unknown (e ≥ 0, w·e ≤ z, −z ≤ 0) become that unknown's bounds: GLOP's bounded
        // simplex handles them without growing the basis. Only the tightest row on each side is
        // kept; the others are implied (and still checked, like every row, in Java).
        upperRow = new int[variables];
        lowerRow = new int[variables];
        java.util.Arrays.fill(upperRow, -1);
        java.util.Arrays.fill(lowerRow, -1);
        double[] ub = new double[variables];
        double[] lb = new double[variables];
        java.util.Arrays.fill(ub, inf);
        java.util.Arrays.fill(lb, -inf);
        boolean[] asBound = new boolean[m];
        for (int i = 0; i < m; i++) {
            int[] ci = cols(i);
            double[] vi = vals(i);
            if (ci.length != 1 || vi[0] == 0) {
                continue;
            }
            asBound[i] = true;
            int j = ci[0];
            double limit = rhs(i) / vi[0];
            if (vi[0] > 0 && limit < ub[j]) {
                ub[j] = limit;
                upperRow[j] = i;
            } else if (vi[0] < 0 && limit > lb[j]) {
                lb[j] = limit;
                lowerRow[j] = i;
            }
        }
        x = new MPVariable[variables];
        for (int j = 0; j < variables; j++) {
            x[j] = solver.makeNumVar(lb[j], ub[j], "x" + j);
        }
        constraints = new MPConstraint[m];
        for (int i = 0; i < m; i++) {
            if (asBound[i]) {
                continue;
            }
            MPConstraint row = solver.makeConstraint(-inf, rhs(i));
            int[] ci = cols(i);
            double[] vi = vals(i);
            for (int k = 0; k < ci.length; k++) {
                row.setCoefficient(x[ci[k]], vi[k]);
            }
            constraints[i] = row;
        }
    }

    /**
     * Row duals y ≥ 0 from GLOP: the constraints' duals, and for a row given as a variable bound,
     * the variable's reduced cost r_j = c_j − (Aᵀy)_j over the other rows divided by the row's
     * coefficient (an active upper bound has r_j ≥ 0, an active lower bound r_j ≤ 0).
     */
    private double[] rowDuals() {
        int m = rows();
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            if (constraints[i] != null) {
                y[i] = Math.max(0.0, constraints[i].dualValue());
            }
        }
        for (int j = 0; j < variables; j++) {
            if (upperRow[j] < 0 && lowerRow[j] < 0) {
                continue;
            }
            double r = x[j].reducedCost();
            int i = r > 0 ? upperRow[j] : lowerRow[j];
            if (i >= 0 && r != 0) {
                y[i] = Math.max(0.0, r / vals(i)[0]);
            }
        }
        return y;
    }

    /** True when row i is tight in GLOP's optimal basis (its slack, or its bounded variable, nonbasic). */
    private boolean tight(int i) {
        if (constraints[i] != null) {
            return constraints[i].basisStatus() != MPSolver.BasisStatus.BASIC;
        }
        int j = cols(i)[0];
        MPSolver.BasisStatus st = x[j].basisStatus();
        if (i == upperRow[j]) {
            return st == MPSolver.BasisStatus.AT_UPPER_BOUND || st == MPSolver.BasisStatus.FIXED_VALUE;
        }
        if (i == lowerRow[j]) {
            return st == MPSolver.BasisStatus.AT_LOWER_BOUND || st == MPSolver.BasisStatus.FIXED_VALUE;
        }
        return false;
    }

    private record Solved(double[] x, double bound) {
    }

    /** GLOP's optimum for c: x and the checked dual bound (NaN when y is not dual feasible); null if not optimal. */
    private Solved solve(double[] c) {
        if (solver == null) {
            build();
        }
        MPObjective objective = solver.objective();
        for (int j = 0; j < variables; j++) {
            objective.setCoefficient(x[j], c[j]);
        }
        objective.setMaximization();
        solves++;
        MPSolver.ResultStatus status = solver.solve();
        if (status != MPSolver.ResultStatus.OPTIMAL) {
            return null;
        }
        double[] xs = new double[variables];
        for (int j = 0; j < variables; j++) {
            xs[j] = x[j].solutionValue();
        }
        double[] y = rowDuals();
        double bound = dualBound(c, y);
        if (Double.isNaN(bound)) {
            retries++;
            bound = dualBound(c, refine(c, y));
        }
        return new Solved(xs, bound);
    }

    @Override
    public Answer maximize(double[] c, double feasibility, double gap, boolean thorough) {
        Solved s = solve(c);
        if (s == null || !certified(c, s.x, s.bound, feasibility, gap)) {
            return Answer.NONE;
        }
        return new Answer(Status.OPTIMAL, dot(c, s.x), s.x);
    }

    @Override
    public Answer upperBound(double[] c) {
        Solved s = solve(c);
        if (s == null || !Double.isFinite(s.bound)) {
            return Answer.NONE;
        }
        return new Answer(Status.OPTIMAL, s.bound, s.x);
    }

    /**
     * y recomputed exactly (to double rounding) from GLOP's optimal basis: the rows whose slack is
     * nonbasic (or whose variable bound is active) are the tight ones, and with every unknown basic (free unknowns always are at a
     * bounded optimum) there are exactly as many of them as unknowns; y on them solves the square
     * system A_Nᵀ·y_N = c, here by Gaussian elimination with partial pivoting, and is 0 elsewhere.
     * When the basis does not have that shape, GLOP's own y restricted to its support is solved
     * in the least-squares sense instead. The result is only a candidate; {@link #dualBound}
     * checks it.
     */
    private double[] refine(double[] c, double[] y) {
        int m = rows();
        int[] support = new int[m];
        int s = 0;
        for (int i = 0; i < m; i++) {
            if (tight(i)) {
                support[s++] = i;
            }
        }
        boolean square = s == variables;
        if (!square) {
            s = 0;
            for (int i = 0; i < m; i++) {
                if (y[i] > 0) {
                    support[s++] = i;
                }
            }
        }
        double[][] at = new double[variables][s]; // A_Sᵀ
        for (int a = 0; a < s; a++) {
            int[] ci = cols(support[a]);
            double[] vi = vals(support[a]);
            for (int k = 0; k < ci.length; k++) {
                at[ci[k]][a] += vi[k];
            }
        }
        double[][] g;
        if (square) {
            g = new double[s][s + 1];
            for (int j = 0; j < s; j++) {
                System.arraycopy(at[j], 0, g[j], 0, s);
                g[j][s] = c[j];
            }
        } else { // normal equations (A_S·A_Sᵀ) y = A_S·c
            g = new double[s][s + 1];
            for (int a = 0; a < s; a++) {
                for (int b = a; b < s; b++) {
                    double v = 0;
                    for (int j = 0; j < variables; j++) {
                        v += at[j][a] * at[j][b];
                    }
                    g[a][b] = v;
                    g[b][a] = v;
                }
                double v = 0;
                for (int j = 0; j < variables; j++) {
                    v += at[j][a] * c[j];
                }
                g[a][s] = v;
            }
        }
        double[] ys = gauss(g, s);
        double[] out = new double[m];
        if (ys == null) {
            return out;
        }
        for (int a = 0; a < s; a++) {
            out[support[a]] = Math.max(0.0, ys[a]);
        }
        return out;
    }

    /** Solves the n×n system in g (augmented, column n the right-hand side) by Gaussian elimination with partial pivoting; null if singular. */
    static double[] gauss(double[][] g, int n) {
        for (int col = 0; col < n; col++) {
            int p = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(g[r][col]) > Math.abs(g[p][col])) {
                    p = r;
                }
            }
            if (Math.abs(g[p][col]) < 1e-300) {
                return null;
            }
            double[] t = g[p];
            g[p] = g[col];
            g[col] = t;
            for (int r = col + 1; r < n; r++) {
                double f = g[r][col] / g[col][col];
                if (f != 0) {
                    for (int k = col; k <= n; k++) {
                        g[r][k] -= f * g[col][k];
                    }
                }
            }
        }
        double[] out = new double[n];
        for (int r = n - 1; r >= 0; r--) {
            double v = g[r][n];
            for (int k = r + 1; k < n; k++) {
                v -= g[r][k] * out[k];
            }
            out[r] = v / g[r][r];
        }
        return out;
    }
}
