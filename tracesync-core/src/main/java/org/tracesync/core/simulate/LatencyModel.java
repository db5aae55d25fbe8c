package org.tracesync.core.simulate;

import java.util.Random;

/**
 * One-way latency of a link: a fixed minimum per direction plus a random tail (queueing).
 *
 * @param minimumForward  minimum latency from the link's first node to its second (ns)
 * @param minimumBackward minimum latency from the second node to the first (ns)
 * @param tail            distribution of the part above the minimum
 * @param tailScale       exponential: mean of the tail (ns); Pareto: scale x_m (ns)
 * @param paretoShape     Pareto shape (> 1 for a finite mean); ignored for the exponential tail
 */
public record LatencyModel(long minimumForward, long minimumBackward, Tail tail, double tailScale,
                           double paretoShape) {

    /** Distribution of the latency above the minimum. */
    public enum Tail { EXPONENTIAL, PARETO }

    public LatencyModel {
        if (minimumForward < 0 || minimumBackward < 0 || !(tailScale >= 0)) {
            throw new IllegalArgumentException("latency minimums and tail scale must be >= 0");
        }
        if (tail == Tail.PARETO && !(paretoShape > 0)) {
            throw new IllegalArgumentException("Pareto shape must be > 0");
        }
    }

    /** Same minimum both ways, exponential tail of the given mean. */
    public static LatencyModel exponential(long minimum, double tailMean) {
        return new LatencyModel(minimum, minimum, Tail.EXPONENTIAL, tailMean, 0);
    }

    /** Draws one latency (ns) in the given direction. O(1). */
    public long sample(Random random, boolean forward) {
        long min = forward ? minimumForward : minimumBackward;
        double u = 1.0 - random.nextDouble(); // (0, 1]
        double extra = switch (tail) {
            case EXPONENTIAL -> -tailScale * Math.log(u);
            case PARETO -> tailScale * (Math.pow(u, -1.0 / paretoShape) - 1.0);
        };
        // cap absurd Pareto draws at one second so a heavy tail cannot stall the simulation
        return min + Math.round(Math.min(extra, 1e9));
    }
}
