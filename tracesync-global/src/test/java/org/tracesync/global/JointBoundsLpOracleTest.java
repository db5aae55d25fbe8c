package org.tracesync.global;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.NodeBounds;

/**
 * The global program's joint bounds at arbitrary instants — inside the data, between rows and far
 * outside them — against an independent LP (ojAlgo) over every node's linear transform with every
 * message as a constraint: at local time t, the rows must contain [min, max] of the reference time
 * over all transforms that invert no message (strict), and inside the data be within the sandwich
 * tolerance of it (tight).
 */
class JointBoundsLpOracleTest {

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13})
    void jointBoundsContainTheLpRangeAtEveryInstant(long seed) {
        int n = 4;
        MessageSimulation sim = new MessageSimulation(seed, n, 1_000_000_000L).randomClocks(200_000, 50e-6);
        sim.link(0, 1, 60, 20_000, 30_000, 20_000).link(1, 2, 60, 25_000, 15_000, 20_000)
                .link(2, 3, 60, 10_000, 40_000, 20_000).link(0, 2, 40, 30_000, 30_000, 20_000);
        SyncResult r = GlobalReduction.reduce(sim.nodes(), sim.accumulators(), sim.estimates(), "n0");
        assertThat(r.stats().get("reduction")).isEqualTo("global");
        SplittableRandom rnd = new SplittableRandom(seed);
        int checked = 0;
        for (int i = 1; i < n; i++) {
            NodeResult node = r.nodes().get(i);
            NodeBounds b = node.bounds();
            assertThat(b.isEmpty()).as("node %d has joint bounds", i).isFalse();
            long span = node.end() - node.start();
            long[] instants = {node.start() + rnd.nextLong(span), node.start() + rnd.nextLong(span),
                node.start() - 100_000_000_000L, node.start() - rnd.nextLong(5 * span),
                node.end() + rnd.nextLong(5 * span), node.end() + 100_000_000_000L};
            for (long t : instants) {
                double[] exact = {extreme(sim, i, t, false), extreme(sim, i, t, true)};
                double corr = node.transform().correction(t);
                double lower = corr - b.minus(t);
                double upper = corr + b.plus(t);
                double slack = 1e-3 + 1e-9 * Math.abs(exact[0]);
                assertThat(lower).as("seed %d node %d at %d: lower strict", seed, i, t).isLessThanOrEqualTo(exact[0] + slack);
                assertThat(upper).as("seed %d node %d at %d: upper strict", seed, i, t).isGreaterThanOrEqualTo(exact[1] - slack);
                if (t >= node.start() && t <= node.end()) {
                    // the sandwich tolerance: max(10 ns, 0.5 % of the widest bound at the data's ends)
                    double widest = Math.max(b.minus(node.start()) + b.plus(node.start()), b.minus(node.end()) + b.plus(node.end()));
                    double eps = Math.max(10, 0.005 * widest) + 2 * GlobalProgram.SAFETY_NS + 2;
                    assertThat(lower).as("lower tight").isGreaterThan(exact[0] - eps);
                    assertThat(upper).as("upper tight").isLessThan(exact[1] + eps);
                }
                checked++;
            }
        }
        assertThat(checked).isEqualTo(18);
    }

    /**
     * Min or max over every linear transform ref_k(t) = t + o_k + D_k·(t − E)/1e9 (o in ns, D in ns
     * per second; node 0 the identity) that keeps every message forward, of ref_i(t) − t.
     */
    private static double extreme(MessageSimulation sim, int node, long t, boolean max) {
        int n = sim.nodes().size();
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable[] o = new Variable[n];
        Variable[] d = new Variable[n];
        for (int k = 1; k < n; k++) {
            o[k] = model.addVariable("o" + k).lower(-1e8).upper(1e8);
            d[k] = model.addVariable("d" + k).lower(-1e6).upper(1e6);
        }
        int row = 0;
        for (long[] m : sim.messages()) {
            int s = (int) m[0];
            int rcv = (int) m[1];
            // ts + o_s + D_s·us ≤ tr + o_r + D_r·ur
            Expression e = model.addExpression("m" + row++).upper((double) (m[3] - m[2]));
            if (s != 0) {
                e.set(o[s], 1);
                e.set(d[s], seconds(m[2]));
            }
            if (rcv != 0) {
                e.set(o[rcv], -1);
                e.set(d[rcv], -seconds(m[3]));
            }
        }
        Expression obj = model.addExpression("objective").weight(1);
        obj.set(o[node], 1);
        obj.set(d[node], seconds(t));
        Optimisation.Result res = max ? model.maximise() : model.minimise();
        assertThat(res.getState().isOptimal()).as("oracle state %s", res.getState()).isTrue();
        return res.getValue();
    }

    private static double seconds(long t) {
        return (double) (t - MessageSimulation.EPOCH) / 1e9;
    }

}
