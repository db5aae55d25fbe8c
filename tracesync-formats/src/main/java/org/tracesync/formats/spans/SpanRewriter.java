package org.tracesync.formats.spans;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.TracesData;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;
import org.tracesync.formats.TraceFormatException;

/**
 * Writes a corrected copy of a span file in its own format: every timestamp of a span (start, end or
 * duration, events/logs/annotations) mapped through its host's {@link SpanCorrection}, and every
 * span of a corrected host annotated with {@code tracesync.shift_ns} (the start's shift),
 * {@code tracesync.bound_minus_ns} and {@code tracesync.bound_plus_ns} (each when the host has that side
 * of a bound: a one-way host has one),
 * {@code tracesync.quality} and {@code tracesync.reference}. µs formats are rounded to the nearest µs
 * after correction; durations are recomputed from the corrected ends. Other fields are copied
 * (numbers keep their form: OTLP times stay strings when they were). OTLP protobuf is written back in
 * the same framing (4-byte big-endian length, then the message), annotations as span attributes
 * ({@code intValue} / {@code stringValue}) as in OTLP JSON.
 *
 * <p>Streaming: one OTLP line or message, one Jaeger trace or one Zipkin span in memory as a tree. The copy is
 * written to a temporary file beside the output and moved into place at the end: an error leaves no
 * partial output, and the input is never written.
 */
public final class SpanRewriter {

    private static final ObjectMapper MAPPER = new ObjectMapper(JsonSpanReader.FACTORY);
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** What was rewritten. */
    public record Outcome(long spans, long corrected) {
    }

    private final Path in;
    private final SpanFormat format;
    private final String nodeKey;
    private final Function<String, SpanCorrection> corrections;
    private long spans;
    private long corrected;

    /**
     * @param corrections host name → its correction ({@code new SpanCorrection(null)} leaves a host unchanged)
     */
    public SpanRewriter(Path in, SpanOptions options, Function<String, SpanCorrection> corrections) throws IOException {
        this.in = in;
        this.format = SpanFormat.detect(in);
        if (format == null) {
            throw new TraceFormatException(in, "", "not a span file");
        }
        this.nodeKey = options.nodeKey();
        this.corrections = corrections;
    }

    /** Writes the corrected copy to {@code out} (never the input itself). */
    public Outcome write(Path out) throws IOException {
        if (Files.exists(out) && Files.isSameFile(in, out)) {
            throw new IllegalArgumentException("the output " + out + " would overwrite the input " + in);
        }
        Path dir = out.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + out.getFileName() + ".", ".tmp");
        boolean ok = false;
        try {
            try (OutputStream os = new java.io.BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16)) {
                switch (format) {
                    case OTLP_JSON -> otlp(os);
                    case JAEGER_JSON -> jaeger(os);
                    case ZIPKIN_JSON -> zipkin(os);
                    case OTLP_PROTO -> otlpProto(os);
                }
            } catch (JsonProcessingException e) {
                com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
                throw new TraceFormatException(in, at == null ? "" : "line " + at.getLineNr() + ", column " + at.getColumnNr(),
                        "not valid JSON: " + e.getOriginalMessage());
            }
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            ok = true;
        } finally {
            if (!ok) {
                Files.deleteIfExists(tmp);
            }
        }
        return new Outcome(spans, corrected);
    }

    // ---- OTLP JSON lines -------------------------------------------------------------------------

    private void otlp(OutputStream os) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(in, StandardCharsets.UTF_8)) {
            String line;
            long n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank()) {
                    os.write('\n');
                    continue;
                }
                JsonNode root;
                try {
                    root = MAPPER.readTree(line);
                } catch (JsonProcessingException e) {
                    throw TraceFormatException.atLine(in, n, "not valid JSON: " + e.getOriginalMessage());
                }
                for (String outer : new String[] {"resourceSpans", "batches"}) {
                    for (JsonNode rs : root.path(outer)) {
                        Map<String, String> attrs = new HashMap<>();
                        for (JsonNode a : rs.path("resource").path("attributes")) {
                            JsonNode v = a.path("value");
                            Iterator<JsonNode> it = v.elements();
                            if (a.hasNonNull("key") && it.hasNext()) {
                                JsonNode first = it.next();
                                if (first.isValueNode()) {
                                    attrs.put(a.get("key").asText(), first.asText());
                                }
                            }
                        }
                        SpanCorrection c = corrections.apply(HostNaming.otlp(attrs, nodeKey).name());
                        for (String inner : new String[] {"scopeSpans", "instrumentationLibrarySpans"}) {
                            for (JsonNode ss : rs.path(inner)) {
                                for (JsonNode span : ss.path("spans")) {
                                    otlpSpan((ObjectNode) span, c);
                                }
                            }
                        }
                    }
                }
                os.write(MAPPER.writeValueAsBytes(root));
                os.write('\n');
            }
        }
    }

    private void otlpSpan(ObjectNode span, SpanCorrection c) {
        spans++;
        if (c.node() == null) {
            return;
        }
        long start = nanos(span.get("startTimeUnixNano"));
        SpanCorrection.Span order = c.span(); // start, events, end: the span's order
        long shifted = span.hasNonNull("startTimeUnixNano") ? otlpTime(span, "startTimeUnixNano", order) : c.apply(start);
        for (JsonNode e : span.path("events")) {
            if (e instanceof ObjectNode o) {
                otlpTime(o, "timeUnixNano", order);
            }
        }
        otlpTime(span, "endTimeUnixNano", order);
        ArrayNode attrs = span.has("attributes") && span.get("attributes").isArray()
                ? (ArrayNode) span.get("attributes") : span.putArray("attributes");
        for (Map.Entry<String, Object> a : annotations(start, shifted, c).entrySet()) {
            ObjectNode kv = attrs.addObject();
            kv.put("key", a.getKey());
            ObjectNode v = kv.putObject("value");
            if (a.getValue() instanceof Long l) {
                v.put("intValue", Long.toString(l));
            } else {
                v.put("stringValue", a.getValue().toString());
            }
        }
        corrected++;
    }

    private static long nanos(JsonNode v) {
        return v == null ? Long.MIN_VALUE : v.isTextual() ? Long.parseLong(v.asText()) : v.asLong();
    }

    /** Corrects {@code o.field} in place; returns the corrected time (Long.MIN_VALUE when absent). */
    private static long otlpTime(ObjectNode o, String field, SpanCorrection.Span c) {
        JsonNode v = o.get(field);
        if (v == null || v.isNull()) {
            return Long.MIN_VALUE;
        }
        long t = c.next(nanos(v));
        if (v.isTextual()) {
            o.put(field, Long.toString(t));
        } else {
            o.put(field, t);
        }
        return t;
    }

    // ---- OTLP protobuf (length-prefixed) ---------------------------------------------------------

    private void otlpProto(OutputStream os) throws IOException {
        Map<String, String> attrs = new HashMap<>();
        try (OtlpProtoFrames frames = new OtlpProtoFrames(in, new java.io.BufferedInputStream(Files.newInputStream(in), 1 << 16),
                Files.size(in))) {
            byte[] message;
            while ((message = frames.next()) != null) {
                TracesData data;
                try {
                    data = TracesData.parseFrom(message);
                } catch (InvalidProtocolBufferException e) {
                    throw OtlpProtoFrames.invalid(in, frames.frameOffset(), "not an OTLP TracesData message: " + e.getMessage());
                }
                TracesData.Builder b = data.toBuilder();
                for (ResourceSpans.Builder rs : b.getResourceSpansBuilderList()) {
                    OtlpProtoReader.resourceAttributes(rs.getResource(), attrs);
                    SpanCorrection c = corrections.apply(HostNaming.otlp(attrs, nodeKey).name());
                    for (ScopeSpans.Builder ss : rs.getScopeSpansBuilderList()) {
                        for (Span.Builder span : ss.getSpansBuilderList()) {
                            otlpProtoSpan(span, c);
                        }
                    }
                }
                OtlpProtoFrames.write(os, b.build().toByteArray());
            }
        }
    }

    private void otlpProtoSpan(Span.Builder span, SpanCorrection c) {
        spans++;
        if (c.node() == null) {
            return;
        }
        long start = span.getStartTimeUnixNano();
        SpanCorrection.Span order = c.span(); // start, events, end: the span's order
        long shifted = start == 0 ? 0 : order.next(start);
        if (start != 0) {
            span.setStartTimeUnixNano(shifted);
        }
        for (Span.Event.Builder e : span.getEventsBuilderList()) {
            if (e.getTimeUnixNano() != 0) {
                e.setTimeUnixNano(order.next(e.getTimeUnixNano()));
            }
        }
        if (span.getEndTimeUnixNano() != 0) {
            span.setEndTimeUnixNano(order.next(span.getEndTimeUnixNano()));
        }
        if (start == 0) {
            return;
        }
        for (Map.Entry<String, Object> a : annotations(start, shifted, c).entrySet()) {
            AnyValue.Builder v = AnyValue.newBuilder();
            if (a.getValue() instanceof Long l) {
                v.setIntValue(l);
            } else {
                v.setStringValue(a.getValue().toString());
            }
            span.addAttributes(KeyValue.newBuilder().setKey(a.getKey()).setValue(v));
        }
        corrected++;
    }

    // ---- Jaeger JSON -----------------------------------------------------------------------------

    private void jaeger(OutputStream os) throws IOException {
        try (JsonParser p = MAPPER.createParser(Files.newInputStream(in));
             JsonGenerator g = MAPPER.getFactory().createGenerator(os, JsonEncoding.UTF8)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new TraceFormatException(in, "", "not a Jaeger object");
            }
            g.writeStartObject();
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                g.writeFieldName(f);
                if (f.equals("data") && t == JsonToken.START_ARRAY) {
                    g.writeStartArray();
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        ObjectNode trace = MAPPER.readTree(p);
                        jaegerTrace(trace);
                        MAPPER.writeTree(g, trace);
                    }
                    g.writeEndArray();
                } else {
                    g.copyCurrentStructure(p);
                }
            }
            g.writeEndObject();
        }
    }

    private void jaegerTrace(ObjectNode trace) {
        Map<String, SpanCorrection> byProcess = new HashMap<>();
        trace.path("processes").fields().forEachRemaining(e -> byProcess.put(e.getKey(), jaegerHost(e.getValue())));
        for (JsonNode s : trace.path("spans")) {
            ObjectNode span = (ObjectNode) s;
            SpanCorrection c = span.has("process") ? jaegerHost(span.get("process"))
                    : byProcess.getOrDefault(span.path("processID").asText(), new SpanCorrection(null));
            spans++;
            if (c.node() == null) {
                continue;
            }
            long start = span.path("startTime").asLong() * 1000;
            long end = span.has("duration") ? start + span.path("duration").asLong() * 1000 : Long.MIN_VALUE;
            SpanCorrection.Span order = c.span(); // start, logs, end: the span's order
            long shifted = order.next(start);
            long s2 = micros(shifted);
            span.put("startTime", s2);
            for (JsonNode l : span.path("logs")) {
                if (l instanceof ObjectNode o && o.has("timestamp")) {
                    o.put("timestamp", micros(order.next(o.get("timestamp").asLong() * 1000)));
                }
            }
            if (end != Long.MIN_VALUE) {
                span.put("duration", Math.max(0, micros(order.next(end)) - s2));
            }
            ArrayNode tags = span.has("tags") && span.get("tags").isArray() ? (ArrayNode) span.get("tags") : span.putArray("tags");
            for (Map.Entry<String, Object> a : annotations(start, shifted, c).entrySet()) {
                ObjectNode kv = tags.addObject();
                kv.put("key", a.getKey());
                if (a.getValue() instanceof Long l) {
                    kv.put("type", "int64");
                    kv.put("value", l);
                } else {
                    kv.put("type", "string");
                    kv.put("value", a.getValue().toString());
                }
            }
            corrected++;
        }
    }

    private SpanCorrection jaegerHost(JsonNode process) {
        Map<String, String> tags = new HashMap<>();
        for (JsonNode t : process.path("tags")) {
            if (t.hasNonNull("key") && t.hasNonNull("value") && t.get("value").isValueNode()) {
                tags.put(t.get("key").asText(), t.get("value").asText());
            }
        }
        String service = process.hasNonNull("serviceName") ? process.get("serviceName").asText() : null;
        return corrections.apply(HostNaming.jaeger(service, tags, nodeKey).name());
    }

    // ---- Zipkin v2 JSON --------------------------------------------------------------------------

    private void zipkin(OutputStream os) throws IOException {
        try (JsonParser p = MAPPER.createParser(Files.newInputStream(in));
             JsonGenerator g = MAPPER.getFactory().createGenerator(os, JsonEncoding.UTF8)) {
            if (p.nextToken() != JsonToken.START_ARRAY) {
                throw new TraceFormatException(in, "", "not a Zipkin span array");
            }
            g.writeStartArray();
            while (p.nextToken() == JsonToken.START_OBJECT) {
                ObjectNode span = MAPPER.readTree(p);
                zipkinSpan(span);
                MAPPER.writeTree(g, span);
            }
            g.writeEndArray();
        }
    }

    private void zipkinSpan(ObjectNode span) {
        spans++;
        JsonNode ep = span.path("localEndpoint");
        SpanCorrection c = corrections.apply(HostNaming.zipkin(text(ep, "ipv4"), text(ep, "ipv6"), text(ep, "serviceName"),
                nodeKey).name());
        if (c.node() == null || !span.hasNonNull("timestamp")) {
            return;
        }
        long start = span.get("timestamp").asLong() * 1000;
        SpanCorrection.Span order = c.span(); // start, annotations, end: the span's order
        long shifted = order.next(start);
        long s2 = micros(shifted);
        span.put("timestamp", s2);
        for (JsonNode a : span.path("annotations")) {
            if (a instanceof ObjectNode o && o.has("timestamp")) {
                o.put("timestamp", micros(order.next(o.get("timestamp").asLong() * 1000)));
            }
        }
        if (span.hasNonNull("duration")) {
            long end = start + span.get("duration").asLong() * 1000;
            span.put("duration", Math.max(0, micros(order.next(end)) - s2));
        }
        ObjectNode tags = span.has("tags") && span.get("tags").isObject() ? (ObjectNode) span.get("tags") : span.putObject("tags");
        for (Map.Entry<String, Object> a : annotations(start, shifted, c).entrySet()) {
            tags.put(a.getKey(), a.getValue().toString());
        }
        corrected++;
    }

    private static String text(JsonNode o, String f) {
        return o.hasNonNull(f) ? o.get(f).asText() : null;
    }

    // ---- shared ----------------------------------------------------------------------------------

    /** ns → µs, rounded to nearest. */
    private static long micros(long ns) {
        return Math.floorDiv(ns + 500, 1000);
    }

    /** The tracesync.* annotations of a span that started at local time {@code start}, corrected to {@code shifted}. */
    private static Map<String, Object> annotations(long start, long shifted, SpanCorrection c) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("tracesync.shift_ns", shifted - start);
        double[] b = c.bounds(start);
        if (b != null && Double.isFinite(b[0])) {
            m.put("tracesync.bound_minus_ns", (long) Math.ceil(b[0]));
        }
        if (b != null && Double.isFinite(b[1])) {
            m.put("tracesync.bound_plus_ns", (long) Math.ceil(b[1]));
        }
        m.put("tracesync.quality", c.quality());
        m.put("tracesync.reference", c.reference());
        return m;
    }
}
