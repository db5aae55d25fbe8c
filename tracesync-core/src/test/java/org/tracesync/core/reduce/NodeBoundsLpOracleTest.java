package org.tracesync.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.NodeBounds;

/**
 * Path-composition bounds at arbitrary instants — inside the data, between rows and far outside
 * them — against a general LP solver (ojAlgo). For every hop of a node's path, the LP gives the
 * exact pair envelope: min and max over the pair's feasible region of the parent's time at a given
 * child time; composing those along the path is the exact interval path composition promises
 * (DESIGN §4). The rows must contain it (strict) and match it within rounding (tight).
 *
 * <p>Chains of 2–4 nodes with linear clocks; coordinates are small (a few thousand ns around
 * {@link #X_BASE}, drifts up to ±20 %) so the solver is well conditioned; the reference is chosen
 * by the reduction (the middle of a chain), so hops go both ways along the pair geometry. Some
 * links carry messages one way only: a path through such a hop has a one-sided bound downstream.
 */
class NodeBoundsLpOracleTest {

    static final long X_BASE = 1_000_000L;

    record Chain(List<NodeInfo> nodes, List<Message> messages) {
    }

    static Chain chain(int n, SplittableRandom r) {
        return chain(n, r, -1);
    }

    /** @param forcedOneWay a link (i, i + 1) made one way only, or −1 */
    static Chain chain(int n, SplittableRandom r, int forcedOneWay) {
        double[] offset = new double[n];
        double[] drift = new double[n];
        List<NodeInfo> nodes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            offset[i] = i == 0 ? 0 : r.nextInt(-300, 300);
            drift[i] = i == 0 ? 0 : r.nextDouble(-0.2, 0.2);
            nodes.add(new NodeInfo("n" + i, "sim"));
        }
        List<Message> messages = new ArrayList<>();
        for (int i = 0; i + 1 < n; i++) {
            int count = 2 + r.nextInt(r.nextBoolean() ? 4 : 30);
            // a third of the links: one direction early, the other late, so the drift is unbounded
            // on one side (an incomplete pair, bounded only where finite)
            boolean split = r.nextInt(3) == 0;
            // a fifth of the links: one way only (either way), a one-sided bound
            int oneWay = r.nextInt(5) == 0 || i == forcedOneWay ? 1 + r.nextInt(2) : 0;
            for (int k = 0; k < 2 * count; k++) {
                boolean forward = oneWay == 0 ? k % 2 == 0 : oneWay == 1;
                int s = forward ? i : i + 1;
                int d = forward ? i + 1 : i;
                long send = split ? (k % 2 == 0 ? r.nextInt(450) : 550 + r.nextInt(450)) : r.nextInt(1000);
                long latency = 1 + r.nextInt(60);
                messages.add(new Message(s, d, local(offset, drift, s, send, true),
                        local(offset, drift, d, send + latency, false)));
            }
        }
        return new Chain(nodes, messages);
    }

    /** Local clock, rounded so that the rounding never makes a latency negative. */
    private static long local(double[] offset, double[] drift, int node, long trueTime, boolean send) {
        double v = trueTime + offset[node] + drift[node] * trueTime;
        return X_BASE + (long) (send ? Math.floor(v) : Math.ceil(v));
    }

    static Stream<Arguments> seeds() {
        return Stream.of(1L, 2L, 3L, 4L, 5L, 6L).map(Arguments::of);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void pathBoundsMatchTheComposedLpEnvelopeAtEveryInstant(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int checkedFarOutside = 0;
        int checked = 0;
        int unbounded = 0;
        long incomplete = 0;
        long oneWay = 0;
        int oneSidedChecked = 0;
        int oneSidedComposed = 0;
        for (int iter = 0; iter < 25; iter++) {
            // every fifth: four nodes, the middle link one way, reference n0: n2 and n3 lie behind it
            boolean behindOneWay = iter % 5 == 0;
            Chain c = behindOneWay ? chain(4, r, 1) : chain(2 + r.nextInt(3), r);
            PairAccumulators acc = new PairAccumulators(c.nodes().size());
            c.messages().forEach(m -> acc.message(m.sender(), m.receiver(), m.sendTime(), m.recvTime()));
            List<PairEstimate> pairs = new ArrayList<>();
            for (PairAccumulator p : acc.nonEmptyPairs()) {
                pairs.add(ConvexHullEstimator.estimate(p));
            }
            if (pairs.stream().anyMatch(p -> p.quality() != Quality.ACCURATE && p.quality() != Quality.INCOMPLETE
                    && p.quality() != Quality.ONE_WAY)) {
                continue; // the oracle below is for pairs whose hulls do not cross
            }
            incomplete += pairs.stream().filter(p -> p.quality() == Quality.INCOMPLETE).count();
            oneWay += pairs.stream().filter(p -> p.quality() == Quality.ONE_WAY).count();
            SyncResult result = PathReduction.reduce(c.nodes(), acc, pairs, behindOneWay ? "n0" : null);
            for (NodeResult node : result.nodes()) {
                if (!node.synchronizedToOther()) {
                    continue;
                }
                NodeBounds bounds = node.bounds();
                if (bounds.isEmpty()) {
                    // composition finite nowhere (incomplete pairs, or one-way pairs bounding opposite
                    // sides): the LP must agree at every instant
                    assertThat(node.quality()).isIn(Quality.INCOMPLETE, Quality.ONE_WAY);
                    for (long t : new long[] {node.start(), node.end(), node.start() - 10_000, node.end() + 10_000}) {
                        double[] exact = composedEnvelope(c, node.path(), t);
                        assertThat(Double.isInfinite(exact[0]) && Double.isInfinite(exact[1]))
                                .as("seed %d iter %d node %s at %d: no bounds, LP %s", seed, iter, node.name(), t,
                                        java.util.Arrays.toString(exact)).isTrue();
                        unbounded++;
                    }
                    continue;
                }
                long first = bounds.rows().get(0).t();
                long last = bounds.rows().get(bounds.rows().size() - 1).t();
                long[] instants = {
                    node.start() + r.nextLong(Math.max(1, node.end() - node.start() + 1)),
                    node.start() + r.nextLong(Math.max(1, node.end() - node.start() + 1)),
                    node.start() - 1 - r.nextInt(2000), node.end() + 1 + r.nextInt(2000),
                    first - 1 - r.nextInt(50_000), last + 1 + r.nextInt(50_000)};
                for (long t : instants) {
                    double[] exact = composedEnvelope(c, node.path(), t);
                    double corr = node.transform().correction(t);
                    double lower = t + corr - bounds.minus(t);
                    double upper = t + corr + bounds.plus(t);
                    // unbounded exactly where the LP is
                    assertThat(Double.isInfinite(lower)).as("seed %d iter %d node %s at %d: lower unbounded iff LP",
                            seed, iter, node.name(), t).isEqualTo(Double.isInfinite(exact[0]));
                    assertThat(Double.isInfinite(upper)).as("seed %d iter %d node %s at %d: upper unbounded iff LP",
                            seed, iter, node.name(), t).isEqualTo(Double.isInfinite(exact[1]));
                    if (Double.isInfinite(lower) || Double.isInfinite(upper)) {
                        unbounded++;
                        if (node.quality() == Quality.ONE_WAY && Double.isInfinite(lower) != Double.isInfinite(upper)) {
                            oneSidedChecked++;
                            oneSidedComposed += node.path().size() >= 3 ? 1 : 0;
                        }
                        if (Double.isInfinite(lower) && Double.isInfinite(upper)) {
                            continue;
                        }
                        lower = Double.isInfinite(lower) ? exact[0] : lower;
                        upper = Double.isInfinite(upper) ? exact[1] : upper;
                        exact[0] = Double.isInfinite(exact[0]) ? lower : exact[0];
                        exact[1] = Double.isInfinite(exact[1]) ? upper : exact[1];
                    }
                    double slack = 2 + 1e-7 * Math.abs(t - X_BASE);
                    assertThat(lower).as("seed %d iter %d node %s at %d: lower bound strict", seed, iter, node.name(), t)
                            .isLessThanOrEqualTo(exact[0] + slack);
                    assertThat(upper).as("seed %d iter %d node %s at %d: upper bound strict", seed, iter, node.name(), t)
                            .isGreaterThanOrEqualTo(exact[1] - slack);
                    // tight: composition rounds each hop outward by at most 1 ns
                    double tightness = 2.0 * node.path().size() + 1e-6 * Math.abs(t - X_BASE);
                    assertThat(lower).as("seed %d iter %d node %s at %d: lower bound tight", seed, iter, node.name(), t)
                            .isGreaterThanOrEqualTo(exact[0] - tightness);
                    assertThat(upper).as("seed %d iter %d node %s at %d: upper bound tight", seed, iter, node.name(), t)
                            .isLessThanOrEqualTo(exact[1] + tightness);
                    checked++;
                    if (t < first || t > last) {
                        checkedFarOutside++;
                    }
                }
            }
        }
        assertThat(checked).isGreaterThan(100);
        assertThat(checkedFarOutside).isGreaterThan(30);
        assertThat(incomplete).as("incomplete pairs checked").isGreaterThan(5);
        assertThat(unbounded).as("instants with an unbounded side").isGreaterThan(5);
        assertThat(oneWay).as("one-way pairs checked").isGreaterThan(3);
        assertThat(oneSidedChecked).as("one-sided bounds of nodes behind a one-way hop checked").isGreaterThan(5);
        assertThat(oneSidedComposed).as("one-sided bounds composed over two hops or more").isGreaterThan(0);
    }

    /** The reference-time interval of local time t, hop by hop along the path, by LP. */
    static double[] composedEnvelope(Chain c, List<String> path, long t) {
        double lo = t;
        double hi = t;
        for (int k = 0; k + 1 < path.size(); k++) {
            int child = index(c, path.get(k));
            int parent = index(c, path.get(k + 1));
            lo = Double.isInfinite(lo) ? lo : envelope(c, child, parent, lo, false);
            hi = Double.isInfinite(hi) ? hi : envelope(c, child, parent, hi, true);
        }
        return new double[] {lo, hi};
    }

    private static int index(Chain c, String name) {
        for (int i = 0; i < c.nodes().size(); i++) {
            if (c.nodes().get(i).name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }

    /**
     * Max (or min) of the parent's time at child time x over every line y = x + c + d·(x − X_BASE)
     * that keeps child → parent messages at or above it and parent → child messages at or below,
     * with a clock rate 1 + d ≥ 0 (clocks increase); ±∞ where unbounded (the optimum moves with
     * the box that stands for infinity).
     */
    static double envelope(Chain ch, int child, int parent, double x, boolean max) {
        // both boxes grow: one-way pairs leave the intercept unbounded on one side too
        double small = envelope(ch, child, parent, x, max, 1e3, 1e8);
        double large = envelope(ch, child, parent, x, max, 1e4, 1e9);
        if (Math.abs(large - small) > 1e-3 * (1 + Math.abs(small))) {
            return max ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }
        return small;
    }

    private static double envelope(Chain ch, int child, int parent, double x, boolean max, double box, double cBox) {
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable c = model.addVariable("c").lower(-cBox).upper(cBox);
        Variable d = model.addVariable("d").lower(-1.0).upper(box);
        int k = 0;
        for (Message m : ch.messages()) {
            if (m.sender() == child && m.receiver() == parent) {
                Expression e = model.addExpression("m" + k++).upper(m.recvTime() - m.sendTime());
                e.set(c, 1);
                e.set(d, m.sendTime() - X_BASE);
            } else if (m.sender() == parent && m.receiver() == child) {
                Expression e = model.addExpression("m" + k++).lower(m.sendTime() - m.recvTime());
                e.set(c, 1);
                e.set(d, m.recvTime() - X_BASE);
            }
        }
        Expression obj = model.addExpression("objective").weight(1);
        obj.set(c, 1);
        obj.set(d, x - X_BASE);
        Optimisation.Result res = max ? model.maximise() : model.minimise();
        assertThat(res.getState().isOptimal()).as("oracle LP state %s", res.getState()).isTrue();
        return x + res.getValue();
    }
}
