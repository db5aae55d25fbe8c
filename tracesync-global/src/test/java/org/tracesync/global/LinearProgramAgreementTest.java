package org.tracesync.global;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two solvers behind {@link LinearProgram} — GLOP and ojAlgo — on the same seeded random
 * programs shaped like the global program's (few unknowns, many rows of at most four entries):
 * each is an oracle for the other. Both must agree on the optimum, return feasible points and
 * bounds that are never below the optimum, and recognise unbounded and infeasible programs.
 */
class LinearProgramAgreementTest {

    private static final IntFunction<LinearProgram> GLOP = GlopLinearProgram::new;
    private static final IntFunction<LinearProgram> OJALGO = DualLinearProgram::new;

    @Test
    void glopLoadsOnThisMachine() {
        // CI runs on Linux x86-64, where the native library ships with the project: GLOP must be the solver
        assertThat(LinearPrograms.glopAvailable()).as("GLOP failed to load: %s", LinearPrograms.loadFailure()).isTrue();
        assertThat(LinearPrograms.solverName()).isEqualTo("glop");
    }

    /** Rows around a random feasible point x0 (slack ≥ 0), plus a box |x| ≤ box when box > 0. */
    private static void randomRows(SplittableRandom random, int n, int m, double box, LinearProgram... lps) {
        double[] x0 = new double[n];
        for (int j = 0; j < n; j++) {
            x0[j] = random.nextDouble(-10, 10);
        }
        for (int i = 0; i < m; i++) {
            int k = Math.min(n, 2 + random.nextInt(3));
            int[] cols = random.ints(0, n).distinct().limit(k).toArray();
            double[] vals = new double[cols.length];
            double lhs = 0;
            for (int a = 0; a < cols.length; a++) {
                vals[a] = random.nextDouble(-1, 1);
                lhs += vals[a] * x0[cols[a]];
            }
            double b = lhs + random.nextDouble(0, 5);
            for (LinearProgram lp : lps) {
                lp.addRow(cols, vals, b);
            }
        }
        if (box > 0) {
            for (int j = 0; j < n; j++) {
                for (double sign : new double[] {1, -1}) {
                    for (LinearProgram lp : lps) {
                        lp.addRow(new int[] {j}, new double[] {sign}, box);
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
    void bothSolversFindTheSameOptimum(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int n = 2 + random.nextInt(30);
        int m = n + random.nextInt(20 * n);
        try (LinearProgram glop = GLOP.apply(n); LinearProgram ojalgo = OJALGO.apply(n)) {
            randomRows(random, n, m, 100, glop, ojalgo);
            for (int objective = 0; objective < 5; objective++) {
                double[] c = random.doubles(n, -1, 1).toArray();
                LinearProgram.Answer g = glop.maximize(c, 1e-6, 1e-7, true);
                LinearProgram.Answer o = ojalgo.maximize(c, 1e-6, 1e-7, true);
                assertThat(g.optimal()).isTrue();
                assertThat(o.optimal()).isTrue();
                assertThat(g.value()).isCloseTo(o.value(), within(1e-6 * (1 + Math.abs(o.value()))));
                assertThat(glop.maxViolation(g.x())).isLessThanOrEqualTo(1e-6);
                assertThat(CheckedRows.dot(c, g.x())).isCloseTo(g.value(), within(1e-9 * (1 + Math.abs(g.value()))));
                // the proven upper bound: never below the optimum, and tight
                LinearProgram.Answer gu = glop.upperBound(c);
                LinearProgram.Answer ou = ojalgo.upperBound(c);
                assertThat(gu.value()).isGreaterThanOrEqualTo(o.value() - 1e-7 * (1 + Math.abs(o.value())))
                        .isCloseTo(o.value(), within(1e-6 * (1 + Math.abs(o.value()))));
                // ojAlgo's dual may stop at a dual-feasible but suboptimal point (seed 13): its bound is
                // then loose, never wrong
                assertThat(ou.value()).isGreaterThanOrEqualTo(o.value() - 1e-7 * (1 + Math.abs(o.value())));
            }
            assertThat(glop.solves()).isEqualTo(10);
        }
    }

    @Test
    void unboundedProgramsHaveNoBound() {
        // x0 ≤ 1 alone: max x1 is unbounded
        for (IntFunction<LinearProgram> solver : java.util.List.of(GLOP, OJALGO)) {
            try (LinearProgram lp = solver.apply(2)) {
                lp.addRow(new int[] {0}, new double[] {1}, 1);
                lp.addRow(new int[] {0, 1}, new double[] {1, -1}, 3);
                assertThat(lp.upperBound(new double[] {0, 1}).optimal()).isFalse();
                assertThat(lp.maximize(new double[] {0, 1}, 1e-6, 1e-7, true).optimal()).isFalse();
                LinearProgram.Answer bounded = lp.upperBound(new double[] {1, 0});
                assertThat(bounded.optimal()).isTrue();
                assertThat(bounded.value()).isCloseTo(1.0, within(1e-9));
            }
        }
    }

    @Test
    void infeasibleProgramsHaveNoOptimum() {
        for (IntFunction<LinearProgram> solver : java.util.List.of(GLOP, OJALGO)) {
            try (LinearProgram lp = solver.apply(1)) {
                lp.addRow(new int[] {0}, new double[] {1}, -1);  // x ≤ −1
                lp.addRow(new int[] {0}, new double[] {-1}, -1); // x ≥ 1
                assertThat(lp.maximize(new double[] {1}, 1e-6, 1e-7, true).optimal()).isFalse();
            }
        }
    }

    @Test
    void rowsAddedAfterASolveAreHonoured() {
        try (LinearProgram lp = GLOP.apply(1)) {
            lp.addRow(new int[] {0}, new double[] {1}, 5);
            assertThat(lp.upperBound(new double[] {1}).value()).isCloseTo(5.0, within(1e-9));
            lp.addRow(new int[] {0}, new double[] {2}, 4);
            assertThat(lp.upperBound(new double[] {1}).value()).isCloseTo(2.0, within(1e-9));
        }
    }
}
