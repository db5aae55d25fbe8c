package org.tracesync.core.matching;

import java.util.Arrays;
import org.tracesync.core.model.MinimumLatency;

/**
 * Per unordered node pair, the smallest round-trip time seen in exchanges (a data segment and
 * the acknowledgement that covers it): {@code rtt = (t4 − t1) − (t3 − t2)} with t1, t4 on the
 * data sender's clock and t2, t3 on the other's, so clock offsets cancel (DESIGN §5). The
 * minimum latency of each direction is then taken as {@code rtt / 2} (Ashton; LTTV's "too fast"
 * criterion): exact when the path is symmetric, an overestimate of the faster direction otherwise.
 */
public final class RoundTripMinima {

    private final int nodes;
    private final long[] min;
    private final long[] count;

    public RoundTripMinima(int nodes) {
        this.nodes = nodes;
        this.min = new long[nodes * nodes];
        this.count = new long[nodes * nodes];
        Arrays.fill(min, Long.MAX_VALUE);
    }

    private int index(int a, int b) {
        return a < b ? a * nodes + b : b * nodes + a;
    }

    public void add(int a, int b, long rtt) {
        int i = index(a, b);
        count[i]++;
        if (rtt < min[i]) {
            min[i] = rtt;
        }
    }

    /** Sets a pair's round trip directly (from an RTT file). */
    public void set(int a, int b, long rtt) {
        int i = index(a, b);
        min[i] = rtt;
        count[i] = Math.max(1, count[i]);
    }

    public int nodes() {
        return nodes;
    }

    public boolean known(int a, int b) {
        return count[index(a, b)] > 0;
    }

    /** Minimum round trip (ns), or {@link Long#MAX_VALUE} when no exchange was seen. */
    public long minimum(int a, int b) {
        return min[index(a, b)];
    }

    public long exchanges(int a, int b) {
        return count[index(a, b)];
    }

    /**
     * τmin of every direction as half its pair's minimum round trip (0 where no round trip is
     * known): assumes symmetric minimum latencies (see {@link MinimumLatency}).
     */
    public MinimumLatency asMinimumLatency(String source) {
        MinimumLatency m = new MinimumLatency(nodes, source);
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                if (a != b) {
                    m.set(a, b, minimumLatency(a, b));
                }
            }
        }
        return m.assuming("minimum latencies from round trips (" + source + ") assume symmetric paths: each direction "
                + "is taken to need half its pair's minimum round trip; the data cannot check this (the corridor then "
                + "closes to about zero width), and where a direction is faster the bounds may exclude the truth");
    }

    /** Minimum one-way latency of a → b: half the minimum round trip, 0 when unknown. */
    public long minimumLatency(int a, int b) {
        return known(a, b) ? Math.max(0, min[index(a, b)] / 2) : 0;
    }
}
