package org.tracesync.global;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;

/**
 * A small seeded message generator: linear clocks on epoch-sized timestamps
 * ({@code local(t) = E + t + offset + drift·t}, t the true time in ns since E), messages with
 * latency = minimum + exponential tail, exact integer timestamps. Knows the truth, so tests can
 * check inversions and whether bounds contain the true clock.
 */
final class MessageSimulation {

    static final long EPOCH = 1_700_000_000_000_000_000L;

    private final SplittableRandom random;
    private final double[] offset;
    private final double[] drift;
    private final double[] curve; // ns per ns²: the clock's drift changes by 2·curve per ns
    private final double[] stepAt;   // true time (ns since EPOCH) of a clock step, NaN for none
    private final double[] stepSize; // its size (ns, > 0: the clock jumps ahead)
    private final List<NodeInfo> nodes = new ArrayList<>();
    private final PairAccumulators acc;
    private final List<long[]> messages = new ArrayList<>(); // sender, receiver, send, recv, true send time
    private final long duration;

    MessageSimulation(long seed, int n, long durationNs) {
        this.random = new SplittableRandom(seed);
        this.offset = new double[n];
        this.drift = new double[n];
        this.curve = new double[n];
        this.stepAt = new double[n];
        this.stepSize = new double[n];
        java.util.Arrays.fill(stepAt, Double.NaN);
        this.acc = new PairAccumulators(n);
        this.duration = durationNs;
        for (int i = 0; i < n; i++) {
            nodes.add(new NodeInfo("n" + i, "sim/n" + i, List.of()));
        }
    }

    /** Sets node n's clock: offset (ns) and drift (dimensionless). */
    MessageSimulation clock(int n, double offsetNs, double driftValue) {
        offset[n] = offsetNs;
        drift[n] = driftValue;
        return this;
    }

    /**
     * Makes node n's clock wander: its drift changes steadily by {@code ppmPerHour} ppm per hour
     * (local time gains a quadratic term), so that over a long trace the pair hulls cross and the
     * pairs become piecewise.
     */
    MessageSimulation wander(int n, double ppmPerHour) {
        curve[n] = 0.5 * ppmPerHour * 1e-6 / 3.6e12;
        return this;
    }

    /** Makes node n's clock jump ahead by {@code sizeNs} (> 0) at true time {@code atNs}. */
    MessageSimulation step(int n, double atNs, double sizeNs) {
        if (!(sizeNs > 0)) {
            throw new IllegalArgumentException("forward steps only");
        }
        stepAt[n] = atNs;
        stepSize[n] = sizeNs;
        return this;
    }

    /** Random clocks: offsets uniform in ±maxOffset ns, drifts in ±maxDrift; node 0 keeps its clock. */
    MessageSimulation randomClocks(double maxOffsetNs, double maxDrift) {
        for (int i = 1; i < offset.length; i++) {
            clock(i, random.nextDouble(-maxOffsetNs, maxOffsetNs), random.nextDouble(-maxDrift, maxDrift));
        }
        return this;
    }

    /** {@code count} messages from s to r at uniform true times, latency = minNs + Exp(meanTailNs). */
    MessageSimulation send(int s, int r, int count, double minNs, double meanTailNs) {
        for (int k = 0; k < count; k++) {
            double t = random.nextDouble() * duration;
            double latency = minNs - meanTailNs * Math.log(1 - random.nextDouble());
            long send = local(s, t);
            long recv = local(r, t + latency);
            acc.message(s, r, send, recv);
            messages.add(new long[] {s, r, send, recv, Math.round(t)});
        }
        return this;
    }

    /**
     * Like {@link #send}, at sorted true times (a long trace's accumulators expect messages nearly
     * in time order): {@code count} messages from s to r, latency = minNs + Exp(meanTailNs).
     */
    MessageSimulation sendInOrder(int s, int r, int count, double minNs, double meanTailNs) {
        double[] times = new double[count];
        for (int k = 0; k < count; k++) {
            times[k] = random.nextDouble() * duration;
        }
        java.util.Arrays.sort(times);
        for (double t : times) {
            double latency = minNs - meanTailNs * Math.log(1 - random.nextDouble());
            long send = local(s, t);
            long recv = local(r, t + latency);
            acc.message(s, r, send, recv);
            messages.add(new long[] {s, r, send, recv, Math.round(t)});
        }
        return this;
    }

    /** Both directions of a link, {@code count} messages each way. */
    MessageSimulation link(int a, int b, int count, double minAToB, double minBToA, double meanTailNs) {
        return send(a, b, count, minAToB, meanTailNs).send(b, a, count, minBToA, meanTailNs);
    }

    SplittableRandom random() {
        return random;
    }

    long local(int n, double t) {
        return EPOCH + Math.round(smooth(n, t) + (t >= stepAt[n] ? stepSize[n] : 0));
    }

    /** Node n's local time (ns since EPOCH) at true time t, without its step. */
    private double smooth(int n, double t) {
        return t + offset[n] + drift[n] * t + curve[n] * t * t;
    }

    /** The true time at which node n's clock reads {@code l} (ns since EPOCH). */
    private double trueTime(int n, double l) {
        double t = inverse(n, l);
        if (!Double.isNaN(stepAt[n]) && t >= stepAt[n]) {
            t = Math.max(stepAt[n], inverse(n, l - stepSize[n])); // after the step, or inside the gap it skipped
        }
        return t;
    }

    private double inverse(int n, double l) {
        double t = (l - offset[n]) / (1 + drift[n]);
        for (int i = 0; i < 4 && curve[n] != 0; i++) { // Newton on smooth(t) = l
            t -= (smooth(n, t) - l) / (1 + drift[n] + 2 * curve[n] * t);
        }
        return t;
    }

    /** True {@code ref time − local time} at node n's local time, ref = node ref's clock. */
    double trueCorrection(int n, int ref, long localTime) {
        double l = (double) (localTime - EPOCH);
        double t = trueTime(n, l);
        return smooth(ref, t) + (t >= stepAt[ref] ? stepSize[ref] : 0) - l;
    }

    List<NodeInfo> nodes() {
        return nodes;
    }

    PairAccumulators accumulators() {
        return acc;
    }

    List<long[]> messages() {
        return messages;
    }

    long duration() {
        return duration;
    }

    List<PairEstimate> estimates() {
        List<PairEstimate> out = new ArrayList<>();
        for (PairAccumulator p : acc.nonEmptyPairs()) {
            out.add(ConvexHullEstimator.estimate(p));
        }
        return out;
    }

    /** Messages received before they were sent after correction, among nodes of the same group. */
    int inversions(SyncResult r) {
        return inversions(r, -1, -1);
    }

    /** Inversions on the messages between nodes x and y only (−1: every pair). */
    int inversions(SyncResult r, int x, int y) {
        int count = 0;
        for (long[] m : messages) {
            int s = (int) m[0];
            int d = (int) m[1];
            if (x >= 0 && !((s == x && d == y) || (s == y && d == x))) {
                continue;
            }
            NodeResult ns = r.nodes().get(s);
            NodeResult nd = r.nodes().get(d);
            if (!ns.reference().equals(nd.reference())) {
                continue;
            }
            if (nd.transform().apply(m[3]) < ns.transform().apply(m[2])) {
                count++;
            }
        }
        return count;
    }

    /** Inversions of messages sent further than {@code marginNs} (true time) from {@code trueTime}. */
    int inversionsAwayFrom(SyncResult r, double trueTime, double marginNs) {
        int count = 0;
        for (long[] m : messages) {
            if (Math.abs(m[4] - trueTime) <= marginNs) {
                continue;
            }
            NodeResult ns = r.nodes().get((int) m[0]);
            NodeResult nd = r.nodes().get((int) m[1]);
            if (ns.reference().equals(nd.reference()) && nd.transform().apply(m[3]) < ns.transform().apply(m[2])) {
                count++;
            }
        }
        return count;
    }

    /**
     * Checks the bounds of node n (synchronized to ref) against the truth at {@code samples}
     * instants spread over its data span extended by 20% on both sides; returns the number of
     * instants where the truth lies outside. Empty bounds count as failures.
     */
    int boundsMisses(SyncResult r, int n, int ref, int samples) {
        NodeResult node = r.nodes().get(n);
        if (node.bounds().isEmpty()) {
            return samples;
        }
        long from = node.start();
        long span = node.end() - node.start();
        int misses = 0;
        for (int k = 0; k < samples; k++) {
            long t = from - span / 5 + Math.round((double) k / (samples - 1) * 1.4 * span);
            double est = node.transform().correction(t);
            double[] mp = node.bounds().at(t);
            double truth = trueCorrection(n, ref, t);
            if (truth < est - mp[0] || truth > est + mp[1]) {
                misses++;
            }
        }
        return misses;
    }

    /** Largest bound width (minus + plus, ns) over node n's data span. */
    static double maxWidth(NodeResult node) {
        double w = 0;
        for (int k = 0; k <= 20; k++) {
            long t = node.start() + Math.round(k / 20.0 * (node.end() - node.start()));
            double[] mp = node.bounds().at(t);
            w = Math.max(w, mp[0] + mp[1]);
        }
        return w;
    }
}
