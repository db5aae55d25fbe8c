package org.tracesync.core.accumulate;

import java.io.IOException;

/**
 * An input that can accumulate its messages on several threads at once: each thread reads one
 * part into pair accumulators of its own, and the parts merge ({@link PairAccumulators#merge}:
 * the hull of a union is the hull of the hulls; counts, spans and origins combine exactly), so
 * the result equals a single sequential pass.
 */
public interface SplitReadable {

    /**
     * Every message accumulated, with up to {@code threads} threads; the same accumulators
     * (hulls, counts, spans, origins) as one sequential {@code readMessages} pass, and the same
     * error for a bad input.
     */
    PairAccumulators accumulate(int threads) throws IOException;
}
