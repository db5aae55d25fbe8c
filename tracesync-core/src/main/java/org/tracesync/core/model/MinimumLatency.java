package org.tracesync.core.model;

import java.util.Arrays;

/**
 * The minimum one-way latency τmin of every direction (DESIGN §3, Ashton 1995): a message from s
 * to r is known to take at least {@code tau(s, r)} ns. Pair estimation moves every point by it
 * (a message received at t on r's clock is treated as received at t − τ), which narrows the
 * corridor by τ(a, b) + τ(b, a) — so the bounds, path composition and the global program all use
 * it. It is an assumption about the network; a τ larger than a real latency makes bounds wrong,
 * so estimation checks it where the data can (the hulls must not cross with τ when they do not
 * without it) and reports every pair where it had to drop τ.
 *
 * <p>Sources: {@code --min-latency} (the user's strict statement, every direction), or half of
 * each pair's minimum round trip (an RTT file, or exchanges): the latter assumes symmetric
 * minimum latencies, as Ashton's "too fast" criterion does.
 *
 * <p>Mutable while being filled, O(nodes²) memory, O(1) lookups.
 */
public final class MinimumLatency {

    private final int nodes;
    private final long[] tau;
    private final String source;
    private String assumption;

    public MinimumLatency(int nodes, String source) {
        this.nodes = nodes;
        this.tau = new long[nodes * nodes];
        this.source = source;
    }

    /** No minimum latency known (τ = 0 everywhere). */
    public static MinimumLatency none(int nodes) {
        return new MinimumLatency(nodes, "none");
    }

    /** The same τ for every direction. */
    public static MinimumLatency uniform(int nodes, long ns, String source) {
        if (ns < 0) {
            throw new IllegalArgumentException("a minimum latency must be >= 0, got " + ns + " ns");
        }
        MinimumLatency m = new MinimumLatency(nodes, source);
        Arrays.fill(m.tau, ns);
        return m;
    }

    /** Sets τ of the direction sender → receiver (ns, ≥ 0). */
    public MinimumLatency set(int sender, int receiver, long ns) {
        if (ns < 0) {
            throw new IllegalArgumentException("a minimum latency must be >= 0, got " + ns + " ns");
        }
        tau[sender * nodes + receiver] = ns;
        return this;
    }

    /** τ of the direction sender → receiver, ns (0 when unknown). */
    public long tau(int sender, int receiver) {
        return sender < nodes && receiver < nodes ? tau[sender * nodes + receiver] : 0;
    }

    public boolean isZero() {
        for (long t : tau) {
            if (t != 0) {
                return false;
            }
        }
        return true;
    }

    public int nodes() {
        return nodes;
    }

    /**
     * Marks the values as resting on an assumption the data cannot check (e.g. symmetric minimum
     * latencies when they come from round trips); the result carries it as a warning.
     */
    public MinimumLatency assuming(String text) {
        this.assumption = text;
        return this;
    }

    /** The unchecked assumption behind the values, or null. */
    public String assumption() {
        return assumption;
    }

    /** Where the values came from, for notes and warnings ("--min-latency 5000 ns", ...). */
    public String source() {
        return source;
    }
}
