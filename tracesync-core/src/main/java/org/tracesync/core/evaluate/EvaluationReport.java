package org.tracesync.core.evaluate;

import java.util.List;

/**
 * What {@link Evaluation} found (DESIGN §5). Latencies and accuracies in ns.
 *
 * @param directions one row per ordered (sender, receiver) pair that has messages
 * @param messages   messages evaluated (both nodes mapped to the same reference)
 * @param skipped    messages between nodes of different groups (no common reference)
 * @param inversions corrected receive before corrected send
 * @param tooFast    corrected latency in [0, τmin) of its direction
 * @param accuracy   Δ+ + Δ− over all evaluated messages (null when no bounds are known)
 * @param broadcasts differential delays of broadcast groups (null when none were given)
 * @param truth      error against the true clocks (null without a truth model)
 */
public record EvaluationReport(List<Direction> directions, long messages, long skipped, long inversions,
                               long tooFast, Accuracy accuracy, Broadcasts broadcasts, Truth truth) {
    public EvaluationReport {
        directions = List.copyOf(directions);
    }

    /** True when no message travels backwards in time after correction. */
    public boolean noInversion() {
        return inversions == 0;
    }

    /**
     * @param minimumLatency τmin used for "too fast" (-1 when unknown)
     * @param smallestLatency smallest corrected latency seen
     * @param meanLatency     mean corrected latency
     * @param accuracy        Δ+ + Δ− of the pair relation at this direction's messages
     */
    public record Direction(String sender, String receiver, long messages, long inversions, long tooFast,
                            long minimumLatency, long smallestLatency, double meanLatency, Accuracy accuracy) {
    }

    /** Best (smallest), worst and mean accuracy-interval width, over {@code count} instants. */
    public record Accuracy(double best, double worst, double mean, long count) {
    }

    /** Spread (max − min corrected arrival) of broadcast groups. */
    public record Broadcasts(long groups, double minSpread, double meanSpread, double maxSpread) {
    }

    /**
     * Error of the corrected time against the true reference clock at message instants.
     *
     * @param instants      instants evaluated (events on non-reference nodes)
     * @param maxError      largest |error|
     * @param p50Error      median |error|
     * @param p99Error      99th percentile of |error|
     * @param withBounds    instants at which bounds are known
     * @param containedShare share of those whose bounds contain the truth (2 ns slack for the true clocks' rounding)
     * @param oneSided      of the instants with bounds, those where only one side is bounded (a one-way node, an
     *                      incomplete pair's unbounded end): only the present side is checked there
     */
    public record Truth(long instants, double maxError, double p50Error, double p99Error, long withBounds,
                        double containedShare, long oneSided) {
    }
}
