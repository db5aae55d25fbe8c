package org.tracesync.formats.spans;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Reads OTLP JSON as the OpenTelemetry Collector's file exporter writes it: one
 * {@code {"resourceSpans":[{"resource":{"attributes":[…]},"scopeSpans":[{"spans":[…]}]}]}} per line.
 * Ids are hex ({@code traceId} 32 digits, {@code spanId}/{@code parentSpanId} 16, empty parent = a
 * root); {@code kind} an integer (or a {@code SPAN_KIND_*} name); {@code startTimeUnixNano} and
 * {@code endTimeUnixNano} strings or integers, read exactly. Tempo's variant is accepted too:
 * {@code batches} and {@code instrumentationLibrarySpans} for the outer arrays, base64 ids.
 *
 * <p>Host: the resource attribute named by {@link SpanOptions#nodeKey()}, else {@code host.id} →
 * {@code k8s.node.name} → {@code host.name} → {@code service.name}. Memory: the spans of one
 * resource entry are buffered (as reused records) until its attributes are known, since JSON does not
 * order fields. O(bytes) time.
 */
final class OtlpJsonReader extends JsonSpanReader {

    private final Map<String, String> attributes = new HashMap<>();

    OtlpJsonReader(Path file, SpanOptions options, SpanHosts hosts) {
        super(file, options, hosts);
    }

    @Override
    void readAll(SpanSink sink) throws IOException {
        JsonToken t;
        while ((t = p.nextToken()) != null) {
            expect(t, JsonToken.START_OBJECT, "an OTLP export object {\"resourceSpans\":[…]}");
            while ((t = nextToken("an export object")) != JsonToken.END_OBJECT) {
                String field = p.currentName();
                t = nextToken("an export object");
                if (field.equals("resourceSpans") || field.equals("batches")) {
                    expect(t, JsonToken.START_ARRAY, field + " (an array)");
                    while ((t = nextToken(field)) != JsonToken.END_ARRAY) {
                        expect(t, JsonToken.START_OBJECT, "a resource spans object");
                        resourceSpans(sink);
                    }
                } else {
                    p.skipChildren();
                }
            }
        }
    }

    private void resourceSpans(SpanSink sink) throws IOException {
        attributes.clear();
        buffered = 0;
        JsonToken t;
        while ((t = nextToken("a resource spans object")) != JsonToken.END_OBJECT) {
            String field = p.currentName();
            t = nextToken(field);
            switch (field) {
                case "resource" -> {
                    expect(t, JsonToken.START_OBJECT, "resource (an object)");
                    while (nextToken("resource") != JsonToken.END_OBJECT) {
                        String f = p.currentName();
                        t = nextToken("resource");
                        if (f.equals("attributes")) {
                            attributes(t);
                        } else {
                            p.skipChildren();
                        }
                    }
                }
                case "scopeSpans", "instrumentationLibrarySpans" -> {
                    expect(t, JsonToken.START_ARRAY, field + " (an array)");
                    while ((t = nextToken(field)) != JsonToken.END_ARRAY) {
                        expect(t, JsonToken.START_OBJECT, "a scope spans object");
                        while (nextToken("a scope spans object") != JsonToken.END_OBJECT) {
                            String f = p.currentName();
                            t = nextToken(f);
                            if (f.equals("spans")) {
                                expect(t, JsonToken.START_ARRAY, "spans (an array)");
                                while ((t = nextToken("spans")) != JsonToken.END_ARRAY) {
                                    expect(t, JsonToken.START_OBJECT, "a span object");
                                    span();
                                }
                            } else {
                                p.skipChildren();
                            }
                        }
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (buffered == 0) {
            return;
        }
        int host = host();
        for (int i = 0; i < buffered; i++) {
            buffered(i).host = host;
        }
        flush(sink);
    }

    private int host() {
        return SpanHosts.add(hosts, HostNaming.otlp(attributes, options.nodeKey()), attributes.get("service.name"));
    }

    /** {@code [{"key":k,"value":{"stringValue":v}}, …]} into {@link #attributes} (scalars only). */
    private void attributes(JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        expect(t, JsonToken.START_ARRAY, "attributes (an array)");
        while ((t = nextToken("attributes")) != JsonToken.END_ARRAY) {
            expect(t, JsonToken.START_OBJECT, "an attribute {\"key\":…,\"value\":…}");
            String key = null;
            String value = null;
            while (nextToken("an attribute") != JsonToken.END_OBJECT) {
                String f = p.currentName();
                t = nextToken(f);
                if (f.equals("key")) {
                    key = string("attribute key");
                } else if (f.equals("value") && t == JsonToken.START_OBJECT) {
                    while (nextToken("an attribute value") != JsonToken.END_OBJECT) {
                        nextToken("an attribute value");
                        String s = scalarText();
                        if (s != null) {
                            value = s;
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
            if (key != null && value != null) {
                attributes.put(key, value);
            }
        }
    }

    private void span() throws IOException {
        SpanRecord r = next();
        r.resolution = 1;
        boolean hasTrace = false;
        boolean hasId = false;
        JsonToken t;
        while (nextToken("a span") != JsonToken.END_OBJECT) {
            String f = p.currentName();
            t = nextToken(f);
            switch (f) {
                case "traceId" -> {
                    traceIdInto(r, "traceId", true);
                    hasTrace = true;
                }
                case "spanId" -> {
                    r.spanId = SpanIds.spanId(string("spanId"), false, true);
                    hasId = true;
                }
                case "parentSpanId" -> parentIdInto(r, "parentSpanId", true);
                case "kind" -> r.kind = t == JsonToken.VALUE_STRING ? kindName(p.getText()) : SpanKind.ofOtlp((int) exactLong("kind"));
                case "startTimeUnixNano" -> r.start = exactLong("startTimeUnixNano");
                case "endTimeUnixNano" -> r.end = exactLong("endTimeUnixNano");
                default -> p.skipChildren();
            }
        }
        if (!hasTrace || !hasId || r.start == SpanRecord.MISSING) {
            throw error("span without " + (!hasTrace ? "traceId" : !hasId ? "spanId" : "startTimeUnixNano"));
        }
        if (r.end != SpanRecord.MISSING && r.end < r.start) {
            r.end = SpanRecord.MISSING; // an end before the start is not a usable duration
        }
    }

    private static SpanKind kindName(String s) {
        return SpanKind.ofName(s.startsWith("SPAN_KIND_") ? s.substring(10) : s);
    }
}
