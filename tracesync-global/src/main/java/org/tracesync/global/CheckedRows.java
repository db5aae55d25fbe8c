package org.tracesync.global;

import java.util.Arrays;

/**
 * The rows of a {@link LinearProgram}, kept on the Java side so that every solver answer can be
 * checked against them: primal feasibility of x, and dual feasibility of y (y ≥ 0, Aᵀy = c),
 * which makes bᵀy a proven upper bound of max cᵀx (weak duality) whatever the solver did.
 */
abstract class CheckedRows implements LinearProgram {

    /** |Aᵀy − c| allowed per unknown, relative to 1 + |c|: the double rounding of a sum of a few terms. */
    static final double DUAL_TOLERANCE = 1e-9;

    protected final int variables;
    private int[][] cols = new int[64][];
    private double[][] vals = new double[64][];
    private double[] rhs = new double[64];
    private int m;

    CheckedRows(int variables) {
        this.variables = variables;
    }

    @Override
    public void addRow(int[] rowCols, double[] rowVals, double b) {
        if (m == rhs.length) {
            cols = Arrays.copyOf(cols, 2 * m);
            vals = Arrays.copyOf(vals, 2 * m);
            rhs = Arrays.copyOf(rhs, 2 * m);
        }
        cols[m] = rowCols.clone();
        vals[m] = rowVals.clone();
        rhs[m] = b;
        m++;
        rowsChanged();
    }

    /** Called after every added row (a solver model built earlier is stale). */
    protected abstract void rowsChanged();

    @Override
    public int rows() {
        return m;
    }

    protected int[] cols(int i) {
        return cols[i];
    }

    protected double[] vals(int i) {
        return vals[i];
    }

    protected double rhs(int i) {
        return rhs[i];
    }

    @Override
    public double maxViolation(double[] x) {
        double worst = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < m; i++) {
            int[] ci = cols[i];
            double[] vi = vals[i];
            double lhs = 0;
            for (int k = 0; k < ci.length; k++) {
                lhs += vi[k] * x[ci[k]];
            }
            worst = Math.max(worst, lhs - rhs[i]);
        }
        return worst;
    }

    /**
     * bᵀy if y (negative entries already set to 0 by the caller) is dual feasible for c — Aᵀy = c
     * within {@link #DUAL_TOLERANCE} — else NaN. A finite answer is an upper bound of max cᵀx.
     */
    protected double dualBound(double[] c, double[] y) {
        double[] aty = new double[variables];
        double by = 0;
        for (int i = 0; i < m; i++) {
            if (y[i] != 0) {
                by += rhs[i] * y[i];
                int[] ci = cols[i];
                double[] vi = vals[i];
                for (int k = 0; k < ci.length; k++) {
                    aty[ci[k]] += vi[k] * y[i];
                }
            }
        }
        for (int j = 0; j < variables; j++) {
            if (Math.abs(aty[j] - c[j]) > DUAL_TOLERANCE * (1 + Math.abs(c[j]))) {
                return Double.NaN;
            }
        }
        return by;
    }

    /** x feasible within {@code feasibility} and cᵀx within {@code gap} of the dual bound. */
    protected boolean certified(double[] c, double[] x, double bound, double feasibility, double gap) {
        return Double.isFinite(bound) && maxViolation(x) <= feasibility
                && Math.abs(dot(c, x) - bound) <= gap * (1 + Math.abs(bound)) + feasibility;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
