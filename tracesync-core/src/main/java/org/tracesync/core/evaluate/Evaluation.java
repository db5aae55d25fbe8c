package org.tracesync.core.evaluate;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.tracesync.core.matching.BroadcastSink;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ScoredEnds;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MessageEnds;
import org.tracesync.core.transform.NodeBounds;

/**
 * Evaluates a synchronization against the messages (DESIGN §5; Ashton 1995, Poirier et al.
 * 2010): a second pass over the messages, after correction.
 *
 * <ul>
 * <li><b>Inversions</b>: corrected receive time before corrected send time. A message end around
 *     a clock step (read twice after a backward step, or inside the step's interval) is placed by
 *     {@link MessageEnds}.</li>
 * <li><b>Too fast</b>: corrected latency in [0, τmin), τmin of the direction = half the pair's
 *     minimum round trip (from an RTT file or from exchanges, see {@link RoundTripMinima}).
 *     Inversions are counted apart, not as too fast.</li>
 * <li><b>Accuracy</b>: at each message, the width Δ+ + Δ− of the pair relation, i.e. the sum of
 *     the sender's and the receiver's bound widths at their timestamps (a reference contributes
 *     0); best, worst and mean.</li>
 * <li><b>Broadcast differential delay</b>: per datagram, max − min of the corrected arrival times
 *     over its receivers.</li>
 * <li><b>Truth</b> (simulations, testbeds): at every event on a non-reference node, the error
 *     {@code ref(x) − (reference clock at the true instant of x)}; max, p50, p99 of |error|, and
 *     the share of instants whose bounds [ref − Δ−, ref + Δ+] contain the truth (2 ns slack for
 *     the true clocks' rounding). {@code org.tracesync.core.simulate.TruthScore} checks the same
 *     containment as a pass/fail property; this class reports the distribution. Around a clock
 *     step an end's reading and its true instant are both placed by its message
 *     ({@link ScoredEnds}).</li>
 * </ul>
 * Nodes are matched to the result by name. Messages between nodes of different groups are
 * skipped and counted. Cost O(1) per message plus O(log rows) per bound lookup (and O(log
 * segments) per end on a piecewise node, to see whether it lies around a step); memory O(nodes²)
 * plus at most {@value #SAMPLE_CAP} error samples for the percentiles (uniform reservoir sample,
 * fixed seed, beyond that).
 */
public final class Evaluation {

    static final int SAMPLE_CAP = 1 << 21;
    /** Slack for the true clocks' 1 ns rounding (forward and inverse). */
    static final double TOLERANCE = 2.0;

    private final int n;
    private final String[] names;
    private final String[] refs;
    private final ClockTransform[] transforms;
    private final NodeBounds[] bounds;
    private final boolean[] isReference;
    private final RoundTripMinima tau;
    private final Map<String, ClockModel> truth;
    private final ClockModel[] trueClock;
    private final ClockModel[] trueRefClock;

    private final long[] count;
    private final long[] inv;
    private final long[] fast;
    private final long[] smallest;
    private final double[] latencySum;
    private final Acc[] acc;
    private final Acc all = new Acc();
    private long skipped;

    private long groups;
    private double spreadMin = Double.POSITIVE_INFINITY;
    private double spreadMax = Double.NEGATIVE_INFINITY;
    private double spreadSum;

    private long instants;
    private double maxError;
    private long withBounds;
    private long contained;
    private EvaluationReport.Miss worstMiss;
    private double worstExcess;
    private long oneSided;
    private double[] samples = new double[1024];
    private int sampleCount;
    private final Random reservoir = new Random(1);
    private final ScoredEnds ends = new ScoredEnds();

    private static final class Acc {
        double best = Double.POSITIVE_INFINITY;
        double worst = Double.NEGATIVE_INFINITY;
        double sum;
        long count;

        void add(double w) {
            if (Double.isNaN(w)) {
                return;
            }
            best = Math.min(best, w);
            worst = Math.max(worst, w);
            sum += w;
            count++;
        }

        EvaluationReport.Accuracy report() {
            return count == 0 ? null : new EvaluationReport.Accuracy(best, worst, sum / count, count);
        }
    }

    /**
     * @param result     the synchronization to evaluate
     * @param nodeNames  the message input's node names, in its index order
     * @param minimumRtt per pair minimum round trips (null: no "too fast" check)
     * @param truth      true clocks by node name (null: no error figures)
     */
    private final SyncResult result;
    private final NodeResult[] nodeResults;

    public Evaluation(SyncResult result, List<String> nodeNames, RoundTripMinima minimumRtt,
                      Map<String, ClockModel> truth) {
        this.n = nodeNames.size();
        this.result = result;
        this.nodeResults = new NodeResult[n];
        this.names = nodeNames.toArray(String[]::new);
        this.refs = new String[n];
        this.transforms = new ClockTransform[n];
        this.bounds = new NodeBounds[n];
        this.isReference = new boolean[n];
        this.trueClock = new ClockModel[n];
        this.trueRefClock = new ClockModel[n];
        for (int i = 0; i < n; i++) {
            NodeResult r = result.node(names[i]);
            nodeResults[i] = r;
            refs[i] = r.reference();
            transforms[i] = r.transform();
            bounds[i] = r.bounds();
            isReference[i] = !r.synchronizedToOther();
            if (truth != null) {
                trueClock[i] = truth.get(names[i]);
                trueRefClock[i] = truth.get(r.reference());
            }
        }
        this.tau = minimumRtt;
        this.truth = truth;
        this.count = new long[n * n];
        this.inv = new long[n * n];
        this.fast = new long[n * n];
        this.smallest = new long[n * n];
        Arrays.fill(smallest, Long.MAX_VALUE);
        this.latencySum = new double[n * n];
        this.acc = new Acc[n * n];
        for (int i = 0; i < n * n; i++) {
            acc[i] = new Acc();
        }
    }

    /** Feed the messages here. */
    public MessageSink messages() {
        return this::message;
    }

    /** Feed broadcast groups here. */
    public BroadcastSink broadcasts() {
        return this::broadcast;
    }

    private double width(int node, long t) {
        if (isReference[node]) {
            return 0;
        }
        NodeBounds b = bounds[node];
        double w = b.isEmpty() ? Double.NaN : b.minus(t) + b.plus(t);
        return Double.isFinite(w) ? w : Double.NaN; // accuracy figures: two-sided bounds only
    }

    private void message(int s, int r, long ts, long tr) {
        if (!refs[s].equals(refs[r])) {
            skipped++;
            return;
        }
        // an end around a clock step (read twice after a backward step, or inside the step's
        // interval): the reading its other end allows (MessageEnds), as the repair placed it
        long cs = transforms[s].apply(ts);
        long cr = transforms[r].apply(tr);
        if (!transforms[s].isLinear() || !transforms[r].isLinear()) {
            long cs0 = cs;
            if (transforms[s].stepAround(ts) >= 0) {
                cs = MessageEnds.send(transforms[s], ts, cr);
            }
            if (transforms[r].stepAround(tr) >= 0) {
                cr = MessageEnds.receive(transforms[r], tr, cs0);
            }
        }
        // repaired times where the controlled logical clock moved the event (what apply writes):
        // its local time and reading name it, also at a local time read twice
        if (!result.repairs().isEmpty()) {
            cs = result.referenceTime(names[s], ts, cs);
            cr = result.referenceTime(names[r], tr, cr);
        }
        long lat = cr - cs;
        int d = s * n + r;
        count[d]++;
        latencySum[d] += lat;
        if (lat < smallest[d]) {
            smallest[d] = lat;
        }
        if (lat < 0) {
            inv[d]++;
        } else if (tau != null && tau.known(s, r) && lat < tau.minimumLatency(s, r)) {
            fast[d]++;
        }
        double w = width(s, ts) + width(r, tr);
        acc[d].add(w);
        all.add(w);
        if (truth != null) {
            // around a clock step both the estimate's reading and the true instant are placed by
            // the message (ScoredEnds): by local time alone either may take the step's other side
            ends.place(transforms[s], trueClock[s], ts, transforms[r], trueClock[r], tr, true);
            truth(s, ts, ends.sendCorrection, ends.sendTrue);
            truth(r, tr, ends.receiveCorrection, ends.receiveTrue);
        }
    }

    private void truth(int node, long x, double correction, long trueInstant) {
        if (isReference[node] || trueClock[node] == null || trueRefClock[node] == null) {
            return;
        }
        // true reference reading at the true instant of x; error as a small long difference plus
        // the transform's (small, double) correction: never a double on an epoch value
        long trueRef = trueRefClock[node].local(trueInstant);
        double err = (double) (x - trueRef) + correction;
        // the bounds are relative to the local time's segment (RESULT_FORMAT "Bounds"), which
        // differs from the placed reading only around a step
        double local = transforms[node].correction(x);
        double boundErr = correction == local ? err : (double) (x - trueRef) + local;
        instants++;
        double a = Math.abs(err);
        maxError = Math.max(maxError, a);
        sample(a);
        NodeBounds b = bounds[node];
        double minus = b.minus(x);
        double plus = b.plus(x);
        // an absent side (+∞) is not checked; no side at all: not an instant with bounds
        if (!b.isEmpty() && (Double.isFinite(minus) || Double.isFinite(plus))) {
            withBounds++;
            if (Double.isInfinite(minus) || Double.isInfinite(plus)) {
                oneSided++;
            }
            if (-plus - TOLERANCE <= boundErr && boundErr <= minus + TOLERANCE) {
                contained++;
            } else {
                double excess = Math.max(boundErr - minus, -plus - boundErr);
                if (worstMiss == null || excess > worstExcess) {
                    worstExcess = excess;
                    worstMiss = new EvaluationReport.Miss(names[node], x, boundErr, minus, plus);
                }
            }
        }
    }

    private void sample(double v) {
        if (sampleCount < SAMPLE_CAP) {
            if (sampleCount == samples.length) {
                samples = Arrays.copyOf(samples, samples.length * 2);
            }
            samples[sampleCount++] = v;
        } else {
            long j = (long) (reservoir.nextDouble() * instants);
            if (j < SAMPLE_CAP) {
                samples[(int) j] = v;
            }
        }
    }

    private void broadcast(int sender, long sendTime, int[] receivers, long[] times) {
        String ref = refs[receivers[0]];
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < receivers.length; i++) {
            if (!refs[receivers[i]].equals(ref)) {
                return;
            }
            long c = transforms[receivers[i]].apply(times[i]);
            min = Math.min(min, c);
            max = Math.max(max, c);
        }
        double spread = max - min;
        groups++;
        spreadMin = Math.min(spreadMin, spread);
        spreadMax = Math.max(spreadMax, spread);
        spreadSum += spread;
    }

    public EvaluationReport report() {
        List<EvaluationReport.Direction> dirs = new ArrayList<>();
        long msgs = 0;
        long inversions = 0;
        long tooFast = 0;
        for (int s = 0; s < n; s++) {
            for (int r = 0; r < n; r++) {
                int d = s * n + r;
                if (count[d] == 0) {
                    continue;
                }
                long tauMin = tau != null && tau.known(s, r) ? tau.minimumLatency(s, r) : -1;
                dirs.add(new EvaluationReport.Direction(names[s], names[r], count[d], inv[d], fast[d], tauMin,
                        smallest[d], latencySum[d] / count[d], acc[d].report()));
                msgs += count[d];
                inversions += inv[d];
                tooFast += fast[d];
            }
        }
        EvaluationReport.Broadcasts b = groups == 0 ? null
                : new EvaluationReport.Broadcasts(groups, spreadMin, spreadSum / groups, spreadMax);
        EvaluationReport.Truth t = null;
        if (truth != null) {
            double[] sorted = Arrays.copyOf(samples, sampleCount);
            Arrays.sort(sorted);
            t = new EvaluationReport.Truth(instants, maxError, percentile(sorted, 0.50), percentile(sorted, 0.99),
                    withBounds, withBounds == 0 ? Double.NaN : (double) contained / withBounds, oneSided, worstMiss);
        }
        return new EvaluationReport(dirs, msgs, skipped, inversions, tooFast, all.report(), b, t);
    }

    /** Nearest-rank percentile of a sorted array (NaN when empty). */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
