package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.MonotoneBound;

/**
 * A pair with messages one way only (issue #11 item 3, #15): under the linear model the messages
 * bound one side (the half hull the accumulator keeps); no estimate line (path reduction places
 * the node by the smallest correction, see OneWaySimulationTest), the note states the smallest
 * correction between the two alone. Checked by hand on small cases and against a general LP solver
 * (ojAlgo) at random instants inside, between and far outside the points.
 */
class OneWayPairTest {

    private static final long X_BASE = 1_000_000L;

    @Test
    void aToBMessagesGiveAnUpperBoundFromTheLowerHullAndNoLowerBound() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        // (x on a, y on b): convex lower hull through all three (slopes 0.8 then 1.3)
        acc.addAToB(X_BASE + 1000, X_BASE + 1500);
        acc.addAToB(X_BASE + 2000, X_BASE + 2300);
        acc.addAToB(X_BASE + 3000, X_BASE + 3600);
        PairEstimate e = ConvexHullEstimator.estimate(acc);

        assertThat(e.quality()).isEqualTo(Quality.ONE_WAY);
        assertThat(e.lowerAToB()).isNull();
        MonotoneBound upper = e.upperAToB();
        assertThat(upper).isNotNull();
        assertThat(upper.deltaAt(X_BASE + 2000)).isEqualTo(300.0); // b-time ≤ 2300 at a-time 2000
        assertThat(upper.deltaAt(X_BASE + 1500)).isEqualTo(400.0); // on the hull edge: 1900
        assertThat(upper.deltaAt(X_BASE + 500)).isEqualTo(1000.0); // flat before: ≤ 1500
        assertThat(upper.deltaAt(X_BASE + 3001)).isInfinite(); // after the last point: unbounded
        // nothing is violated: no correction; no estimate line (the messages do not estimate the offset)
        assertThat(e.hasEstimate()).isFalse();
        assertThat(e.note()).contains("one direction only").contains("no estimate").contains("no correction");
    }

    @Test
    void theNoteGivesTheSmallestCorrectionThatRemovesEveryViolation() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        acc.addAToB(X_BASE + 1000, X_BASE + 900); // received 100 ns "before" it was sent
        acc.addAToB(X_BASE + 2000, X_BASE + 2040);
        PairEstimate e = ConvexHullEstimator.estimate(acc);

        assertThat(e.quality()).isEqualTo(Quality.ONE_WAY);
        // b read 100 ns later on a's clock puts the violating message at latency 0
        assertThat(e.note()).contains("the smallest correction that removes every violation, b shifted by +100 ns");
        // the lowest vertex is the first, so the bound starts there: flat before at 900
        assertThat(e.upperAToB().deltaAt(X_BASE)).isEqualTo(900.0);
    }

    @Test
    void bToAMessagesGiveALowerBoundFromTheUpperHull() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        // b → a: sent at y on b, received at x on a; concave upper hull, highest vertex (3000, 2900)
        acc.addBToA(X_BASE + 900, X_BASE + 1000);
        acc.addBToA(X_BASE + 2600, X_BASE + 2000);
        acc.addBToA(X_BASE + 2900, X_BASE + 3000);
        acc.addBToA(X_BASE + 2800, X_BASE + 4000); // after the highest: dropped (the bound is non-decreasing)
        PairEstimate e = ConvexHullEstimator.estimate(acc);

        assertThat(e.quality()).isEqualTo(Quality.ONE_WAY);
        assertThat(e.upperAToB()).isNull();
        MonotoneBound lower = e.lowerAToB();
        assertThat(lower.deltaAt(X_BASE + 2000)).isEqualTo(600.0);
        assertThat(lower.deltaAt(X_BASE + 3500)).isEqualTo(-600.0); // flat after: ≥ 2900
        assertThat(lower.deltaAt(X_BASE + 4000)).isEqualTo(-1100.0); // still 2900, not 2800
        assertThat(lower.deltaAt(X_BASE + 999)).isInfinite(); // before the first point: unbounded (−∞)
        // b sent at 2600 was received on a at 2000: b must be read 600 ns earlier
        assertThat(e.note()).contains("b shifted by -600 ns");
    }

    /**
     * The one-sided bound against the exact LP bound under the linear model (lines with a rate
     * ≥ 0 on the right side of every point): never tighter (strict), and equal within 1 ns
     * (tight), at random instants inside, between and far outside the points; unbounded exactly
     * where the LP is.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void theBoundIsTheExactLpBoundAtEveryInstant(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int finite = 0;
        int unbounded = 0;
        for (int iter = 0; iter < 30; iter++) {
            boolean aToB = r.nextBoolean();
            int n = 1 + r.nextInt(r.nextBoolean() ? 4 : 30);
            long[] u = new long[n];
            long[] v = new long[n];
            double d0 = r.nextDouble(-0.3, 0.3);
            double c0 = r.nextInt(-200, 200);
            PairAccumulator acc = new PairAccumulator(0, 1);
            for (int k = 0; k < n; k++) {
                u[k] = r.nextInt(1000);
                long latency = 1 + r.nextInt(80);
                // v = y − x: above the true line for a → b, below for b → a
                v[k] = aToB ? (long) Math.ceil(c0 + d0 * u[k]) + latency : (long) Math.floor(c0 + d0 * u[k]) - latency;
                long x = X_BASE + u[k];
                if (aToB) {
                    acc.addAToB(x, x + v[k]);
                } else {
                    acc.addBToA(x + v[k], x);
                }
            }
            PairEstimate e = ConvexHullEstimator.estimate(acc);
            assertThat(e.quality()).isEqualTo(Quality.ONE_WAY);
            MonotoneBound bound = aToB ? e.upperAToB() : e.lowerAToB();
            assertThat(aToB ? e.lowerAToB() : e.upperAToB()).isNull();
            for (int j = 0; j < 12; j++) {
                long uu = j < 8 ? r.nextInt(-200, 1200) : r.nextInt(-100_000, 100_000);
                double exact = lpBound(u, v, aToB, uu);
                double mine = bound.deltaAt(X_BASE + uu);
                assertThat(Double.isInfinite(mine)).as("seed %d iter %d at %d: unbounded iff the LP is (LP %f, ours %f)",
                        seed, iter, uu, exact, mine).isEqualTo(Double.isInfinite(exact));
                if (Double.isInfinite(exact)) {
                    unbounded++;
                    continue;
                }
                if (aToB) {
                    assertThat(mine).as("seed %d iter %d at %d: strict", seed, iter, uu).isGreaterThanOrEqualTo(exact - 1e-6);
                } else {
                    assertThat(mine).as("seed %d iter %d at %d: strict", seed, iter, uu).isLessThanOrEqualTo(exact + 1e-6);
                }
                assertThat(Math.abs(mine - exact)).as("seed %d iter %d at %d: tight", seed, iter, uu).isLessThan(1.0);
                finite++;
            }
        }
        assertThat(finite).isGreaterThan(150);
        assertThat(unbounded).isGreaterThan(25);
    }

    /**
     * Max (a → b points: the line lies below them) or min (b → a: above) of c + d·u over the lines
     * with rate 1 + d ≥ 0 on the right side of every point; ±∞ when the optimum moves with the box.
     */
    static double lpBound(long[] u, long[] v, boolean below, long at) {
        double small = lp(u, v, below, at, 1e3, 1e8);
        double large = lp(u, v, below, at, 1e4, 1e9);
        if (Math.abs(large - small) > 1e-3 * (1 + Math.abs(small))) {
            return below ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        return small;
    }

    private static double lp(long[] u, long[] v, boolean below, long at, double dBox, double cBox) {
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable c = model.addVariable("c").lower(-cBox).upper(cBox);
        Variable d = model.addVariable("d").lower(-1.0).upper(dBox);
        for (int k = 0; k < u.length; k++) {
            Expression e = below ? model.addExpression("p" + k).upper(v[k]) : model.addExpression("p" + k).lower(v[k]);
            e.set(c, 1);
            e.set(d, u[k]);
        }
        Expression obj = model.addExpression("objective").weight(1);
        obj.set(c, 1);
        obj.set(d, at);
        Optimisation.Result res = below ? model.maximise() : model.minimise();
        assertThat(res.getState().isOptimal()).as("oracle LP state %s", res.getState()).isTrue();
        return res.getValue();
    }
}
