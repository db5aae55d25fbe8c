package org.tracesync.formats.spans;

/**
 * How span files are read.
 *
 * @param nodeKey         the attribute that names a span's clock (its host), or null for the automatic
 *                        choice: OTLP resource {@code host.id} → {@code k8s.node.name} → {@code host.name};
 *                        Jaeger process tag {@code hostname} → {@code ip}; Zipkin {@code localEndpoint}
 *                        {@code ipv4} → {@code ipv6}; then the service name. With a key, spans lacking it fall
 *                        back to the automatic choice (counted in the warnings). For Jaeger and Zipkin,
 *                        {@code serviceName} names the service field itself.
 * @param pendingCapacity how many CLIENT/PRODUCER spans, and separately how many SERVER/CONSUMER
 *                        spans still waiting for their parent, are kept (FIFO); older entries are
 *                        dropped and counted. Memory: about 64 bytes per entry per table.
 */
public record SpanOptions(String nodeKey, int pendingCapacity) {

    public static final int DEFAULT_PENDING = 1 << 20;

    public SpanOptions {
        if (pendingCapacity < 16) {
            throw new IllegalArgumentException("pending span capacity must be at least 16");
        }
        if (nodeKey != null && nodeKey.isBlank()) {
            nodeKey = null;
        }
    }

    public static SpanOptions defaults() {
        return new SpanOptions(null, DEFAULT_PENDING);
    }

    public SpanOptions withNodeKey(String key) {
        return new SpanOptions(key, pendingCapacity);
    }

    public SpanOptions withPendingCapacity(int capacity) {
        return new SpanOptions(nodeKey, capacity);
    }
}
