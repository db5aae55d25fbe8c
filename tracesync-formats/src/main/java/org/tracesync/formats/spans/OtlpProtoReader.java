package org.tracesync.formats.spans;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.TracesData;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.tracesync.formats.TraceFormatException;

/**
 * Reads the OpenTelemetry Collector file exporter's {@code format: proto}: length-prefixed
 * {@code TracesData} messages ({@link OtlpProtoFrames}), decoded by the official generated classes
 * (opentelemetry-proto). Ids are raw bytes (16 for a trace, 8 for a span, none for a root's parent);
 * times are fixed64 ns, read exactly; a zero time is a missing one (proto3 has no presence).
 *
 * <p>Host: the same rule as {@link OtlpJsonReader} ({@link HostNaming#otlp}): the resource attribute
 * named by {@code --node-key}, else {@code host.id} → {@code k8s.node.name} → {@code host.name} →
 * {@code service.name}. Errors name the file and the byte offset of the message's length prefix.
 * Memory: one message and its decoded tree at a time; O(bytes) time. A span's {@link SpanRecord#line}
 * is the 1-based number of its message.
 */
final class OtlpProtoReader implements SpanReader {

    private final Path file;
    private final SpanOptions options;
    private final SpanHosts hosts;
    private final SpanRecord record = new SpanRecord();
    private final Map<String, String> attributes = new HashMap<>();
    private volatile long bytesRead;

    OtlpProtoReader(Path file, SpanOptions options, SpanHosts hosts) {
        this.file = file;
        this.options = options;
        this.hosts = hosts;
    }

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    @Override
    public void read(SpanSink sink) throws IOException {
        long size = Files.size(file);
        try (InputStream raw = Files.newInputStream(file);
             OtlpProtoFrames frames = new OtlpProtoFrames(file, new java.io.BufferedInputStream(raw, 1 << 16), size)) {
            byte[] message;
            while ((message = frames.next()) != null) {
                TracesData data;
                try {
                    data = TracesData.parseFrom(message);
                } catch (InvalidProtocolBufferException e) {
                    throw OtlpProtoFrames.invalid(file, frames.frameOffset(),
                            "not an OTLP TracesData message (" + message.length + " bytes): " + e.getMessage());
                }
                for (ResourceSpans rs : data.getResourceSpansList()) {
                    resourceSpans(rs, frames, sink);
                }
                bytesRead = frames.offset();
            }
        }
    }

    private void resourceSpans(ResourceSpans rs, OtlpProtoFrames frames, SpanSink sink) throws TraceFormatException {
        int host = host(rs.getResource(), attributes, options, hosts);
        int index = 0;
        for (ScopeSpans ss : rs.getScopeSpansList()) {
            for (Span span : ss.getSpansList()) {
                index++;
                SpanRecord r = record;
                r.clear();
                r.line = frames.frameNumber();
                r.host = host;
                r.resolution = 1;
                try {
                    spanInto(span, r);
                } catch (IllegalArgumentException e) {
                    throw OtlpProtoFrames.invalid(file, frames.frameOffset(), "span " + index + " of resource '"
                            + hosts.name(host) + "': " + e.getMessage());
                }
                hosts.countSpan(r.host, r.start, r.end);
                sink.span(r);
            }
        }
    }

    /** The host of a resource, by {@link HostNaming#otlp}; {@code attributes} is scratch space. */
    static int host(Resource resource, Map<String, String> attributes, SpanOptions options, SpanHosts hosts) {
        resourceAttributes(resource, attributes);
        return SpanHosts.add(hosts, HostNaming.otlp(attributes, options.nodeKey()), attributes.get("service.name"));
    }

    /** The scalar resource attributes as text (what the JSON reader sees for the same values). */
    static void resourceAttributes(Resource resource, Map<String, String> into) {
        into.clear();
        for (KeyValue kv : resource.getAttributesList()) {
            AnyValue v = kv.getValue();
            String s = switch (v.getValueCase()) {
                case STRING_VALUE -> v.getStringValue();
                case INT_VALUE -> Long.toString(v.getIntValue());
                case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
                case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
                default -> null;
            };
            if (s != null) {
                into.put(kv.getKey(), s);
            }
        }
    }

    private static void spanInto(Span span, SpanRecord r) {
        ByteString trace = span.getTraceId();
        if (trace.size() != 16) {
            throw new IllegalArgumentException("trace_id has " + trace.size() + " bytes (expected 16)");
        }
        r.traceHi = bytesToLong(trace, 0);
        r.traceLo = bytesToLong(trace, 8);
        ByteString id = span.getSpanId();
        if (id.size() != 8) {
            throw new IllegalArgumentException("span_id has " + id.size() + " bytes (expected 8)");
        }
        r.spanId = bytesToLong(id, 0);
        ByteString parent = span.getParentSpanId();
        if (parent.size() == 8) {
            r.parentId = bytesToLong(parent, 0);
            r.hasParent = true;
        } else if (!parent.isEmpty()) {
            throw new IllegalArgumentException("parent_span_id has " + parent.size() + " bytes (expected 8, or none for a root)");
        }
        r.kind = SpanKind.ofOtlp(span.getKindValue());
        long start = span.getStartTimeUnixNano();
        long end = span.getEndTimeUnixNano();
        if (start == 0) {
            throw new IllegalArgumentException("span without start_time_unix_nano");
        }
        if (start < 0 || end < 0) {
            throw new IllegalArgumentException("a time beyond 2^63 − 1 ns (" + Long.toUnsignedString(start < 0 ? start : end) + ")");
        }
        r.start = start;
        r.end = end == 0 || end < start ? SpanRecord.MISSING : end; // an end before the start is not a usable duration
    }

    private static long bytesToLong(ByteString b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b.byteAt(off + i) & 0xFF);
        }
        return v;
    }
}
