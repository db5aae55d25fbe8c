package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.model.Quality;

/**
 * A general LP solver (ojAlgo) as the oracle for the feasible region: slope bounds and the
 * envelopes U/L at random abscissas, on 1000+ random small instances. Coordinates are small
 * integers so the solver is well conditioned.
 */
class FeasibleRegionLpOracleTest {

    private static final long X_BASE = 1_000_000L;

    record Instance(long[] au, long[] av, long[] bu, long[] bv) {
    }

    private static Instance randomInstance(SplittableRandom r) {
        int n1 = 1 + r.nextInt(r.nextBoolean() ? 4 : 25);
        int n2 = 1 + r.nextInt(r.nextBoolean() ? 4 : 25);
        double c0 = 100;
        double d0 = r.nextDouble(-0.3, 0.3);
        int minLatency = r.nextInt(10) == 0 ? -20 : 1; // sometimes crossing hulls
        long[] au = new long[n1];
        long[] av = new long[n1];
        long[] bu = new long[n2];
        long[] bv = new long[n2];
        for (int i = 0; i < n1; i++) {
            au[i] = r.nextInt(1000);
            av[i] = (long) Math.ceil(c0 + d0 * au[i] + minLatency + r.nextInt(60));
        }
        for (int i = 0; i < n2; i++) {
            bu[i] = r.nextInt(1000);
            bv[i] = (long) Math.floor(c0 + d0 * bu[i] - minLatency - r.nextInt(60));
        }
        return new Instance(au, av, bu, bv);
    }

    private static PairAccumulator accumulate(Instance in) {
        PairAccumulator acc = new PairAccumulator(0, 1);
        for (int i = 0; i < in.au.length; i++) {
            long x = X_BASE + in.au[i];
            acc.addAToB(x, x + in.av[i]);
        }
        for (int i = 0; i < in.bu.length; i++) {
            long x = X_BASE + in.bu[i];
            acc.addBToA(x + in.bv[i], x);
        }
        return acc;
    }

    /** Optimises alpha·c + beta·d over F (in absolute-free coordinates v = c + d·u). */
    private static Optimisation.Result lp(Instance in, double alpha, double beta, boolean maximise) {
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable c = model.addVariable("c").lower(-1e7).upper(1e7);
        Variable d = model.addVariable("d").lower(-1e4).upper(1e4);
        for (int i = 0; i < in.au.length; i++) {
            Expression e = model.addExpression("a" + i).upper(in.av[i]);
            e.set(c, 1);
            e.set(d, in.au[i]);
        }
        for (int i = 0; i < in.bu.length; i++) {
            Expression e = model.addExpression("b" + i).lower(in.bv[i]);
            e.set(c, 1);
            e.set(d, in.bu[i]);
        }
        Expression obj = model.addExpression("objective").weight(1);
        obj.set(c, alpha);
        obj.set(d, beta);
        return maximise ? model.maximise() : model.minimise();
    }

    @Test
    void slopeBoundsAndEnvelopesMatchALinearProgram() {
        SplittableRandom r = new SplittableRandom(2026);
        int bounded = 0;
        int empty = 0;
        int unbounded = 0;
        for (int iter = 0; iter < 1500; iter++) {
            Instance in = randomInstance(r);
            PairEstimate est = ConvexHullEstimator.estimate(accumulate(in));
            Optimisation.Result maxD = lp(in, 0, 1, true);
            Optimisation.Result minD = lp(in, 0, 1, false);
            if (est.quality() == Quality.FALLBACK) {
                empty++;
                assertThat(maxD.getState().isFeasible()).as("instance %d: empty region but LP feasible", iter).isFalse();
                continue;
            }
            assertThat(maxD.getState().isOptimal()).as("instance %d: LP state %s", iter, maxD.getState()).isTrue();
            // the artificial box |d| ≤ 1e4 stands for ±∞
            boolean lpBounded = maxD.getValue() < 9e3 && minD.getValue() > -9e3;
            if (est.quality() == Quality.INCOMPLETE) {
                unbounded++;
                // incomplete: unbounded drift, or bounded but allowing a clock rate ≤ 0 (d ≤ −1)
                assertThat(!lpBounded || minD.getValue() <= -1 + 1e-9)
                        .as("instance %d: incomplete but LP bounded above −1", iter).isTrue();
                if (est.dMax().isFinite()) {
                    assertThat(est.dMax().toDouble()).isCloseTo(maxD.getValue(), within(1e-7));
                }
                if (est.dMin().isFinite()) {
                    assertThat(est.dMin().toDouble()).isCloseTo(minD.getValue(), within(1e-7));
                }
                continue;
            }
            if (est.quality() == Quality.INVALID) {
                assertThat(maxD.getValue()).isLessThanOrEqualTo(-1 + 1e-9);
                continue;
            }
            assertThat(est.quality()).isEqualTo(Quality.ACCURATE);
            assertThat(lpBounded).isTrue();
            bounded++;
            assertThat(est.dMax().toDouble()).as("instance %d dMax", iter).isCloseTo(maxD.getValue(), within(1e-7));
            assertThat(est.dMin().toDouble()).as("instance %d dMin", iter).isCloseTo(minD.getValue(), within(1e-7));
            assertThat(est.hasBounds()).as("instance %d: accurate means two-sided bounds", iter).isTrue();
            for (int k = 0; k < 5; k++) {
                long u = r.nextInt(-500, 1500);
                double upperLp = lp(in, 1, u, true).getValue();
                double lowerLp = lp(in, 1, u, false).getValue();
                long x = X_BASE + u;
                double upper = est.upperAToB().deltaAt(x);
                double lower = est.lowerAToB().deltaAt(x);
                assertThat(upper).as("instance %d U(%d)", iter, u).isCloseTo(upperLp, within(1e-6 * (1 + Math.abs(upperLp))));
                assertThat(lower).as("instance %d L(%d)", iter, u).isCloseTo(lowerLp, within(1e-6 * (1 + Math.abs(lowerLp))));
                // the estimate lies inside its own bounds
                double e = est.c() + est.v0() + est.d() * (x - est.x0());
                assertThat(e).isBetween(lower - 1e-6, upper + 1e-6);
            }
        }
        assertThat(bounded).as("accurate instances checked").isGreaterThan(1000);
        assertThat(empty).as("empty instances checked").isGreaterThan(10);
        assertThat(unbounded).as("unbounded instances checked").isGreaterThan(10);
    }
}
