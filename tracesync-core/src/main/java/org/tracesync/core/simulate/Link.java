package org.tracesync.core.simulate;

/** A bidirectional link between nodes {@code a} and {@code b} (indices) with its latency model. */
public record Link(int a, int b, LatencyModel latency) {
    public Link {
        if (a == b || a < 0 || b < 0) {
            throw new IllegalArgumentException("a link joins two different nodes: " + a + ", " + b);
        }
    }
}
