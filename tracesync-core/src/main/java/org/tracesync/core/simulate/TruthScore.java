package org.tracesync.core.simulate;

import java.util.List;
import java.util.Map;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.MessageEnds;

/**
 * Scores a synchronization against the true clocks of a simulation (a second pass over the
 * messages): inversions after correction (received before sent, within one reference group; an end
 * around a clock step placed by {@link MessageEnds}), and,
 * at both ends of every message, whether the true reference time lies within the reported bounds
 * (around a clock step the estimate's reading and the true instant placed by the message:
 * {@link ScoredEnds}).
 *
 * <p>For a node n with reference R and a local time t on n, the true reference time is
 * {@code R.local(n.trueTime(t))}; the error is that minus the corrected time {@code t + corr(t)},
 * computed as a long difference plus a small double, and must lie in [−Δ−(t), +Δ+(t)] (rows
 * interpolated linearly, extrapolated from the end rows) within {@code tolerance} ns (the true
 * clocks round to 1 ns). O(1) per message plus O(log rows) for the bound lookup.
 */
public final class TruthScore implements MessageSink {

    /**
     * @param messages        messages scored
     * @param inversions      messages received before they were sent, after correction
     * @param checks          message ends whose bounds were checked (ends on synchronized nodes)
     * @param violations      checks where the truth lay outside the bounds
     * @param maxError        largest |true − estimated| reference time over the checked ends (ns)
     * @param maxBoundWidth   largest Δ− + Δ+ seen at a checked end (ns)
     * @param firstViolation  description of the first violation, or empty
     */
    public record Score(long messages, long inversions, long checks, long violations, double maxError,
                        double maxBoundWidth, String firstViolation) {
        public boolean holds() {
            return inversions == 0 && violations == 0;
        }
    }

    private final NodeResult[] results;
    private final ClockModel[] clocks;
    private final ClockModel[] referenceClocks;
    private final double tolerance;
    private long messages;
    private long inversions;
    private long checks;
    private long violations;
    private double maxError;
    private double maxBoundWidth;
    private String firstViolation = "";
    private final ScoredEnds ends = new ScoredEnds();

    /**
     * @param nodeNames the input's node names, in message index order
     * @param truth     true clocks by node name
     * @param tolerance slack for the true clocks' 1 ns rounding (2 ns is enough)
     */
    public TruthScore(SyncResult result, List<String> nodeNames, Map<String, ClockModel> truth, double tolerance) {
        int n = nodeNames.size();
        this.results = new NodeResult[n];
        this.clocks = new ClockModel[n];
        this.referenceClocks = new ClockModel[n];
        this.tolerance = tolerance;
        for (int i = 0; i < n; i++) {
            String name = nodeNames.get(i);
            for (NodeResult r : result.nodes()) {
                if (r.name().equals(name)) {
                    results[i] = r;
                }
            }
            clocks[i] = truth.get(name);
            if (results[i] != null) {
                referenceClocks[i] = truth.get(results[i].reference());
            }
            if (clocks[i] == null || referenceClocks[i] == null) {
                throw new IllegalArgumentException("no true clock (or no result) for node " + name);
            }
        }
    }

    @Override
    public void message(int sender, int receiver, long sendTime, long recvTime) {
        messages++;
        NodeResult s = results[sender];
        NodeResult r = results[receiver];
        if (s.reference().equals(r.reference())) {
            // an end around a clock step takes the reading its other end allows (MessageEnds)
            double latency = MessageEnds.latency(s.transform(), sendTime, r.transform(), recvTime);
            if (latency < 0) {
                inversions++;
                if (firstViolation.isEmpty()) {
                    firstViolation = String.format(java.util.Locale.ROOT, "message %s -> %s sent at %d arrives %.1f ns early",
                            s.name(), r.name(), sendTime, -latency);
                }
            }
        }
        // the estimate's reading and the true instant of an end around a step: by its message
        ends.place(s.transform(), clocks[sender], sendTime, r.transform(), clocks[receiver], recvTime,
                s.reference().equals(r.reference()));
        check(sender, sendTime, ends.sendCorrection, ends.sendTrue);
        check(receiver, recvTime, ends.receiveCorrection, ends.receiveTrue);
    }

    private void check(int node, long t, double correction, long trueInstant) {
        NodeResult n = results[node];
        if (!n.synchronizedToOther() || n.bounds().isEmpty()) {
            return;
        }
        long trueRef = referenceClocks[node].local(trueInstant);
        double placedError = (double) (trueRef - t) - correction;
        // the bounds are relative to the local time's segment (they hold both readings around a step)
        double local = n.transform().correction(t);
        double error = correction == local ? placedError : (double) (trueRef - t) - local;
        double[] b = n.bounds().at(t);
        checks++;
        maxError = Math.max(maxError, Math.abs(placedError));
        if (Double.isFinite(b[0] + b[1])) { // a one-sided bound has no width; its present side is checked below
            maxBoundWidth = Math.max(maxBoundWidth, b[0] + b[1]);
        }
        if (error < -b[0] - tolerance || error > b[1] + tolerance) {
            violations++;
            if (firstViolation.isEmpty()) {
                firstViolation = String.format(java.util.Locale.ROOT,
                        "node %s at %d: true error %.1f ns outside [-%.1f, +%.1f]", n.name(), t, error, b[0], b[1]);
            }
        }
    }

    public Score score() {
        return new Score(messages, inversions, checks, violations, maxError, maxBoundWidth, firstViolation);
    }
}
