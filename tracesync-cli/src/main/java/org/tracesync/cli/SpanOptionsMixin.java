package org.tracesync.cli;

import org.tracesync.formats.spans.SpanOptions;
import picocli.CommandLine.Option;

/** Options for span-file inputs (OTLP JSON, Jaeger JSON, Zipkin v2 JSON), shared by the commands that read traces. */
public final class SpanOptionsMixin {

    @Option(names = "--node-key", paramLabel = "KEY",
            description = {"Span files: the attribute that names a span's clock (its host). OTLP: a resource attribute"
                    + " (default host.id, then k8s.node.name, then host.name); Jaeger: a process tag, or serviceName"
                    + " (default hostname, then ip); Zipkin: ipv4, ipv6 or serviceName (default ipv4, then ipv6)."
                    + " Spans lacking KEY fall back to the default chain (counted in the warnings)."})
    String nodeKey;

    @Option(names = "--pending-spans", paramLabel = "N", defaultValue = "1048576",
            description = "Span files: client/producer spans, and separately server/consumer spans waiting for theirs,"
                    + " kept at once to pair them (oldest dropped first, counted; ~64 bytes each; default: ${DEFAULT-VALUE}).")
    int pendingSpans;

    SpanOptions toOptions() {
        if (pendingSpans < 16) {
            throw new IllegalArgumentException("--pending-spans must be at least 16");
        }
        return SpanOptions.defaults().withNodeKey(nodeKey).withPendingCapacity(pendingSpans);
    }
}
