package org.tracesync.formats.spans;

/**
 * A span of a simulated trace set ({@link ShopSimulation}), times already on its host's clock and
 * quantized to the simulation's resolution.
 *
 * @param parentId 0 for a root span
 * @param service  index into the simulation's services
 */
public record SimulatedSpan(long traceHi, long traceLo, long spanId, long parentId, SpanKind kind, int service,
                            String name, long start, long end) {
}
