package org.tracesync.formats.spans;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.TracesData;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes simulated traces ({@link ShopSimulation}) as span files, streaming:
 * <ul>
 *   <li>OTLP JSON lines: every 16 traces, one line per service, so one trace's spans are spread over
 *       several lines; times as decimal strings; host in {@code host.name};</li>
 *   <li>OTLP protobuf: every 16 traces, one length-prefixed {@code TracesData} with one resource per
 *       service, written by the official generated classes;</li>
 *   <li>Jaeger JSON: one {@code data} entry per trace, the host in the process's {@code ip} tag;</li>
 *   <li>Zipkin v2: one array; RPC server halves share their client's id ({@code shared}), the
 *       B3 convention; host in {@code localEndpoint.ipv4}.</li>
 * </ul>
 * Times must be µs multiples for Jaeger and Zipkin. O(spans); at most 16 traces in memory.
 */
public final class SimulatedSpanWriter implements AutoCloseable {

    private static final int BATCH = 16;
    private final SpanFormat format;
    private final OutputStream out;
    private final JsonGenerator g;
    private final List<List<SimulatedSpan>> batch = new ArrayList<>();
    private long spans;

    public SimulatedSpanWriter(SpanFormat format, Path file) throws IOException {
        this.format = format;
        this.out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        this.g = JsonSpanReader.FACTORY.createGenerator(out, JsonEncoding.UTF8);
        g.setRootValueSeparator(null);
        if (format == SpanFormat.JAEGER_JSON) {
            g.writeStartObject();
            g.writeArrayFieldStart("data");
        } else if (format == SpanFormat.ZIPKIN_JSON) {
            g.writeStartArray();
        }
    }

    /** Writes one trace. */
    public void write(List<SimulatedSpan> trace) throws IOException {
        spans += trace.size();
        switch (format) {
            case OTLP_JSON, OTLP_PROTO -> {
                batch.add(trace);
                if (batch.size() == BATCH) {
                    flushOtlp();
                }
            }
            case JAEGER_JSON -> jaeger(trace);
            case ZIPKIN_JSON -> {
                for (ZipkinSpan s : zipkinShared(trace)) {
                    zipkin(s.span, s.shared);
                }
            }
        }
    }

    public long spans() {
        return spans;
    }

    private void flushOtlp() throws IOException {
        if (format == SpanFormat.OTLP_PROTO) {
            flushOtlpProto();
            return;
        }
        for (int svc = 0; svc < ShopSimulation.SERVICES.size(); svc++) {
            boolean any = false;
            for (List<SimulatedSpan> t : batch) {
                for (SimulatedSpan s : t) {
                    if (s.service() == svc) {
                        if (!any) {
                            any = true;
                            g.writeStartObject();
                            g.writeArrayFieldStart("resourceSpans");
                            g.writeStartObject();
                            g.writeObjectFieldStart("resource");
                            g.writeArrayFieldStart("attributes");
                            attribute("service.name", ShopSimulation.SERVICES.get(svc));
                            attribute("host.name", ShopSimulation.hostName(ShopSimulation.hostOf(svc)));
                            g.writeEndArray();
                            g.writeEndObject();
                            g.writeArrayFieldStart("scopeSpans");
                            g.writeStartObject();
                            g.writeObjectFieldStart("scope");
                            g.writeStringField("name", "tracesync-simulation");
                            g.writeEndObject();
                            g.writeArrayFieldStart("spans");
                        }
                        g.writeStartObject();
                        g.writeStringField("traceId", SpanIds.hex16(s.traceHi()) + SpanIds.hex16(s.traceLo()));
                        g.writeStringField("spanId", SpanIds.hex16(s.spanId()));
                        g.writeStringField("parentSpanId", s.parentId() == 0 ? "" : SpanIds.hex16(s.parentId()));
                        g.writeStringField("name", s.name());
                        g.writeNumberField("kind", s.kind().ordinal());
                        g.writeStringField("startTimeUnixNano", Long.toString(s.start()));
                        g.writeStringField("endTimeUnixNano", Long.toString(s.end()));
                        g.writeObjectFieldStart("status");
                        g.writeEndObject();
                        g.writeEndObject();
                    }
                }
            }
            if (any) {
                g.writeEndArray();
                g.writeEndObject();
                g.writeEndArray();
                g.writeEndObject();
                g.writeEndArray();
                g.writeEndObject();
                g.flush();
                out.write('\n');
            }
        }
        batch.clear();
    }

    /** The batch as one {@code TracesData} message (one resource per service), built by the official classes. */
    private void flushOtlpProto() throws IOException {
        TracesData.Builder data = TracesData.newBuilder();
        for (int svc = 0; svc < ShopSimulation.SERVICES.size(); svc++) {
            ScopeSpans.Builder scope = ScopeSpans.newBuilder()
                    .setScope(InstrumentationScope.newBuilder().setName("tracesync-simulation"));
            for (List<SimulatedSpan> t : batch) {
                for (SimulatedSpan s : t) {
                    if (s.service() == svc) {
                        Span.Builder span = Span.newBuilder()
                                .setTraceId(ByteString.copyFrom(bytes(s.traceHi(), s.traceLo())))
                                .setSpanId(ByteString.copyFrom(bytes(s.spanId())))
                                .setName(s.name())
                                .setKindValue(s.kind().ordinal())
                                .setStartTimeUnixNano(s.start())
                                .setEndTimeUnixNano(s.end());
                        if (s.parentId() != 0) {
                            span.setParentSpanId(ByteString.copyFrom(bytes(s.parentId())));
                        }
                        scope.addSpans(span);
                    }
                }
            }
            if (scope.getSpansCount() > 0) {
                data.addResourceSpans(ResourceSpans.newBuilder()
                        .setResource(Resource.newBuilder()
                                .addAttributes(protoAttribute("service.name", ShopSimulation.SERVICES.get(svc)))
                                .addAttributes(protoAttribute("host.name", ShopSimulation.hostName(ShopSimulation.hostOf(svc)))))
                        .addScopeSpans(scope));
            }
        }
        OtlpProtoFrames.write(out, data.build().toByteArray());
        batch.clear();
    }

    private static KeyValue protoAttribute(String key, String value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }

    private static byte[] bytes(long... words) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * words.length);
        for (long w : words) {
            b.putLong(w);
        }
        return b.array();
    }

    private void attribute(String key, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("key", key);
        g.writeObjectFieldStart("value");
        g.writeStringField("stringValue", value);
        g.writeEndObject();
        g.writeEndObject();
    }

    private void jaeger(List<SimulatedSpan> trace) throws IOException {
        g.writeStartObject();
        String traceId = SpanIds.hex16(trace.get(0).traceHi()) + SpanIds.hex16(trace.get(0).traceLo());
        g.writeStringField("traceID", traceId);
        g.writeArrayFieldStart("spans");
        for (SimulatedSpan s : trace) {
            g.writeStartObject();
            g.writeStringField("traceID", traceId);
            g.writeStringField("spanID", SpanIds.hex16(s.spanId()));
            g.writeStringField("operationName", s.name());
            g.writeArrayFieldStart("references");
            if (s.parentId() != 0) {
                g.writeStartObject();
                g.writeStringField("refType", s.kind() == SpanKind.CONSUMER ? "FOLLOWS_FROM" : "CHILD_OF");
                g.writeStringField("traceID", traceId);
                g.writeStringField("spanID", SpanIds.hex16(s.parentId()));
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeNumberField("startTime", micros(s.start()));
            g.writeNumberField("duration", micros(s.end()) - micros(s.start()));
            g.writeArrayFieldStart("tags");
            g.writeStartObject();
            g.writeStringField("key", "span.kind");
            g.writeStringField("type", "string");
            g.writeStringField("value", s.kind().name().toLowerCase(java.util.Locale.ROOT));
            g.writeEndObject();
            g.writeEndArray();
            g.writeArrayFieldStart("logs");
            g.writeEndArray();
            g.writeStringField("processID", "p" + s.service());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("processes");
        for (int svc = 0; svc < ShopSimulation.SERVICES.size(); svc++) {
            g.writeObjectFieldStart("p" + svc);
            g.writeStringField("serviceName", ShopSimulation.SERVICES.get(svc));
            g.writeArrayFieldStart("tags");
            g.writeStartObject();
            g.writeStringField("key", "ip");
            g.writeStringField("type", "string");
            g.writeStringField("value", ShopSimulation.hostName(ShopSimulation.hostOf(svc)));
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private record ZipkinSpan(SimulatedSpan span, boolean shared) {
    }

    /** Server halves take their client's id (and its parent); their children follow the new id. */
    private static List<ZipkinSpan> zipkinShared(List<SimulatedSpan> trace) {
        Map<Long, SimulatedSpan> byId = new HashMap<>();
        for (SimulatedSpan s : trace) {
            byId.put(s.spanId(), s);
        }
        Map<Long, Long> rename = new HashMap<>();
        for (SimulatedSpan s : trace) {
            SimulatedSpan parent = byId.get(s.parentId());
            if (s.kind() == SpanKind.SERVER && parent != null && parent.kind() == SpanKind.CLIENT) {
                rename.put(s.spanId(), parent.spanId());
            }
        }
        List<ZipkinSpan> out = new ArrayList<>();
        for (SimulatedSpan s : trace) {
            boolean shared = rename.containsKey(s.spanId());
            long id = shared ? rename.get(s.spanId()) : s.spanId();
            long parent = shared ? byId.get(s.parentId()).parentId() : rename.getOrDefault(s.parentId(), s.parentId());
            out.add(new ZipkinSpan(new SimulatedSpan(s.traceHi(), s.traceLo(), id, parent, s.kind(), s.service(), s.name(),
                    s.start(), s.end()), shared));
        }
        return out;
    }

    private void zipkin(SimulatedSpan s, boolean shared) throws IOException {
        g.writeStartObject();
        g.writeStringField("traceId", SpanIds.hex16(s.traceHi()) + SpanIds.hex16(s.traceLo()));
        if (s.parentId() != 0) {
            g.writeStringField("parentId", SpanIds.hex16(s.parentId()));
        }
        g.writeStringField("id", SpanIds.hex16(s.spanId()));
        g.writeStringField("kind", s.kind().name());
        g.writeStringField("name", s.name());
        g.writeNumberField("timestamp", micros(s.start()));
        g.writeNumberField("duration", micros(s.end()) - micros(s.start()));
        g.writeObjectFieldStart("localEndpoint");
        g.writeStringField("serviceName", ShopSimulation.SERVICES.get(s.service()));
        g.writeStringField("ipv4", ShopSimulation.hostName(ShopSimulation.hostOf(s.service())));
        g.writeEndObject();
        if (shared) {
            g.writeBooleanField("shared", true);
        }
        g.writeEndObject();
    }

    private static long micros(long ns) {
        if (ns % 1000 != 0) {
            throw new IllegalArgumentException("µs formats need µs times (simulate with resolution 1000)");
        }
        return ns / 1000;
    }

    @Override
    public void close() throws IOException {
        if ((format == SpanFormat.OTLP_JSON || format == SpanFormat.OTLP_PROTO) && !batch.isEmpty()) {
            flushOtlp();
        }
        if (format == SpanFormat.JAEGER_JSON) {
            g.writeEndArray();
            g.writeEndObject();
        } else if (format == SpanFormat.ZIPKIN_JSON) {
            g.writeEndArray();
        }
        g.close();
        out.close();
    }
}
