package org.tracesync.global;

/**
 * A linear program {@code max cᵀx subject to A·x ≤ b} over free unknowns x, built row by row and
 * solved for as many objectives c as the caller asks (the rows stay; a solver may warm-start).
 *
 * <p>Two implementations: {@link GlopLinearProgram} (OR-Tools' GLOP, a revised simplex with a
 * sparse LU; native, Linux only) and {@link DualLinearProgram} (ojAlgo, pure Java, slower by two
 * orders of magnitude on large groups). {@link LinearPrograms#create} picks one. Both check every
 * answer they return; neither is trusted.
 *
 * <p>Not thread-safe. {@link #close()} frees native memory (a no-op for ojAlgo).
 */
interface LinearProgram extends AutoCloseable {

    enum Status { OPTIMAL, UNBOUNDED_OR_INFEASIBLE }

    /**
     * An answer: status, the value and x (null unless optimal). For {@link #maximize} the value is
     * the certified optimum cᵀx; for {@link #upperBound} it is a proven upper bound (a dual
     * objective at a dual-feasible point) and x only a hint.
     */
    record Answer(Status status, double value, double[] x) {
        static final Answer NONE = new Answer(Status.UNBOUNDED_OR_INFEASIBLE, Double.NaN, null);

        boolean optimal() {
            return status == Status.OPTIMAL;
        }
    }

    /** Adds the row {@code Σ vals[i]·x[cols[i]] ≤ b}. */
    void addRow(int[] cols, double[] vals, double b);

    int rows();

    /**
     * max cᵀx: an optimal x, accepted only if it satisfies every row within {@code feasibility}
     * and a dual-feasible point's objective is within {@code gap} (relative) of cᵀx. With
     * {@code thorough} false, a failed check is reported at once rather than retried another (slow)
     * way.
     */
    Answer maximize(double[] c, double feasibility, double gap, boolean thorough);

    /**
     * A value proven to be ≥ max cᵀx (weak duality: bᵀy at a y ≥ 0 with Aᵀy = c), so that a joint
     * bound built from it can only be conservative; NaN (not optimal) when the program is
     * unbounded in c or the solver failed.
     */
    Answer upperBound(double[] c);

    /** LPs handed to the solver so far. */
    int solves();

    /** Answers that failed their check and were retried another way. */
    int retries();

    /** Largest row violation {@code A·x − b} (≤ 0 when feasible). */
    double maxViolation(double[] x);

    @Override
    void close();
}
