package org.tracesync.formats.spans;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Reads Zipkin v2 JSON: an array of spans ({@code traceId} 16 or 32 hex digits, {@code id} and
 * {@code parentId} 16, {@code kind}, {@code timestamp} and {@code duration} in µs, {@code localEndpoint},
 * {@code shared}: a server half that reuses its client's span id). A missing {@code timestamp} or
 * {@code duration} is missing, not zero: such a span gives no constraint on that end.
 *
 * <p>Host: the {@code localEndpoint} field named by {@link SpanOptions#nodeKey()} ({@code ipv4},
 * {@code ipv6} or {@code serviceName}), else {@code ipv4} → {@code ipv6} → {@code serviceName}.
 * Streaming, one span in memory. O(bytes).
 */
final class ZipkinJsonReader extends JsonSpanReader {


    ZipkinJsonReader(Path file, SpanOptions options, SpanHosts hosts) {
        super(file, options, hosts);
    }

    @Override
    void readAll(SpanSink sink) throws IOException {
        JsonToken t = p.nextToken();
        expect(t, JsonToken.START_ARRAY, "a Zipkin span array");
        while ((t = nextToken("the span array")) != JsonToken.END_ARRAY) {
            expect(t, JsonToken.START_OBJECT, "a span object");
            buffered = 0;
            span();
            flush(sink);
        }
        if (p.nextToken() != null) {
            throw error("unexpected content after the span array");
        }
    }

    private void span() throws IOException {
        SpanRecord r = next();
        r.resolution = 1000;
        boolean hasTrace = false;
        boolean hasId = false;
        long duration = SpanRecord.MISSING;
        String ipv4 = null;
        String ipv6 = null;
        String service = null;
        JsonToken t;
        while (nextToken("a span") != JsonToken.END_OBJECT) {
            String f = p.currentName();
            t = nextToken(f);
            switch (f) {
                case "traceId" -> {
                    traceIdInto(r, "traceId", false);
                    hasTrace = true;
                }
                case "id" -> {
                    r.spanId = SpanIds.spanId(string("id"), false, false);
                    hasId = true;
                }
                case "parentId" -> parentIdInto(r, "parentId", false);
                case "kind" -> r.kind = SpanKind.ofName(string("kind"));
                case "timestamp" -> {
                    if (t != JsonToken.VALUE_NULL) {
                        r.start = micros(exactLong("timestamp"), "timestamp");
                    }
                }
                case "duration" -> {
                    if (t != JsonToken.VALUE_NULL) {
                        duration = micros(exactLong("duration"), "duration");
                    }
                }
                case "shared" -> r.shared = t == JsonToken.VALUE_TRUE;
                case "localEndpoint" -> {
                    if (t == JsonToken.START_OBJECT) {
                        while (nextToken("localEndpoint") != JsonToken.END_OBJECT) {
                            String ef = p.currentName();
                            nextToken(ef);
                            switch (ef) {
                                case "ipv4" -> ipv4 = string("ipv4");
                                case "ipv6" -> ipv6 = string("ipv6");
                                case "serviceName" -> service = string("serviceName");
                                default -> p.skipChildren();
                            }
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (!hasTrace || !hasId) {
            throw error("span without " + (!hasTrace ? "traceId" : "id"));
        }
        if (r.start != SpanRecord.MISSING && duration != SpanRecord.MISSING && duration >= 0) {
            r.end = Math.addExact(r.start, duration);
        }
        r.host = host(ipv4, ipv6, service);
    }

    private int host(String ipv4, String ipv6, String service) {
        return SpanHosts.add(hosts, HostNaming.zipkin(ipv4, ipv6, service, options.nodeKey()), service);
    }
}
