package org.tracesync.probe;

import java.time.Instant;

/**
 * A sample of {@code CLOCK_REALTIME − CLOCK_MONOTONIC} (the epoch offset of {@link System#nanoTime()}),
 * what LTTng writes as the clock offset. Of a few readings of the realtime clock between two
 * monotonic readings, the one with the narrowest bracket is kept; the offset is the realtime
 * reading minus the bracket's midpoint, and {@code uncertainty} is half the bracket (ns).
 * Exact long arithmetic; allocates (an {@link Instant}) and is called off the fast path only.
 */
record EpochOffset(long monotonic, long offset, long uncertainty) {

    static EpochOffset sample() {
        long best = Long.MAX_VALUE;
        long bestMid = 0;
        long bestReal = 0;
        for (int k = 0; k < 5; k++) {
            long m1 = System.nanoTime();
            Instant now = Instant.now();
            long m2 = System.nanoTime();
            long width = m2 - m1;
            if (width < best) {
                best = width;
                bestMid = m1 + width / 2;
                bestReal = Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000_000L), now.getNano());
            }
        }
        return new EpochOffset(bestMid, bestReal - bestMid, (best + 1) / 2);
    }
}
