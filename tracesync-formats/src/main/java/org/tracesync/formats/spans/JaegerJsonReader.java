package org.tracesync.formats.spans;

import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Jaeger JSON, as the query API ({@code /api/traces/ID?raw=true}) and the UI's "Trace JSON
 * (unadjusted)" download write it: {@code {"data":[{"traceID", "spans":[…], "processes":{…}}]}}.
 * Times are µs ({@code startTime}, {@code duration}); the parent is the first {@code CHILD_OF}
 * reference (else the first {@code FOLLOWS_FROM}, else a legacy {@code parentSpanID}); the kind is
 * the {@code span.kind} tag. Jaeger prints ids without leading zeros, so 1–32 (trace) and 1–16 (span)
 * hex digits are accepted.
 *
 * <p>Host: the process tag named by {@link SpanOptions#nodeKey()} ({@code serviceName} means the
 * process's service), else {@code hostname} → {@code ip} → the service name. Memory: one trace's
 * spans are buffered until its {@code processes} are known. O(bytes).
 */
final class JaegerJsonReader extends JsonSpanReader {

    private final List<String> processIds = new ArrayList<>();
    private final Map<String, Integer> processHosts = new HashMap<>();
    private final long[] id = new long[2];

    JaegerJsonReader(Path file, SpanOptions options, SpanHosts hosts) {
        super(file, options, hosts);
    }

    @Override
    void readAll(SpanSink sink) throws IOException {
        JsonToken t = p.nextToken();
        expect(t, JsonToken.START_OBJECT, "a Jaeger object {\"data\":[…]}");
        while ((t = nextToken("the Jaeger object")) != JsonToken.END_OBJECT) {
            String field = p.currentName();
            t = nextToken(field);
            if (field.equals("data")) {
                expect(t, JsonToken.START_ARRAY, "data (an array of traces)");
                while ((t = nextToken("data")) != JsonToken.END_ARRAY) {
                    expect(t, JsonToken.START_OBJECT, "a trace object");
                    trace(sink);
                }
            } else {
                p.skipChildren();
            }
        }
        if (p.nextToken() != null) {
            throw error("unexpected content after the Jaeger object");
        }
    }

    private void trace(SpanSink sink) throws IOException {
        buffered = 0;
        processIds.clear();
        processHosts.clear();
        JsonToken t;
        while (nextToken("a trace") != JsonToken.END_OBJECT) {
            String field = p.currentName();
            t = nextToken(field);
            if (field.equals("spans")) {
                expect(t, JsonToken.START_ARRAY, "spans (an array)");
                while ((t = nextToken("spans")) != JsonToken.END_ARRAY) {
                    expect(t, JsonToken.START_OBJECT, "a span object");
                    span();
                }
            } else if (field.equals("processes")) {
                expect(t, JsonToken.START_OBJECT, "processes (an object)");
                while (nextToken("processes") != JsonToken.END_OBJECT) {
                    String pid = p.currentName();
                    expect(nextToken("a process"), JsonToken.START_OBJECT, "a process object");
                    processHosts.put(pid, process());
                }
            } else {
                p.skipChildren();
            }
        }
        for (int i = 0; i < buffered; i++) {
            SpanRecord r = buffered(i);
            if (r.host < 0) {
                Integer h = processHosts.get(processIds.get(i));
                if (h == null) {
                    throw error(p.currentLocation(), "span at line " + r.line + ": processID '" + processIds.get(i)
                            + "' is not among the trace's processes");
                }
                r.host = h;
            }
        }
        flush(sink);
    }

    /** Reads a process object {serviceName, tags} (current token: its START_OBJECT) into a host index. */
    private int process() throws IOException {
        String service = null;
        Map<String, String> tags = new HashMap<>();
        JsonToken t;
        while (nextToken("a process") != JsonToken.END_OBJECT) {
            String f = p.currentName();
            t = nextToken(f);
            if (f.equals("serviceName")) {
                service = string("serviceName");
            } else if (f.equals("tags")) {
                tags(t, tags);
            } else {
                p.skipChildren();
            }
        }
        return SpanHosts.add(hosts, HostNaming.jaeger(service, tags, options.nodeKey()), service);
    }

    /** {@code [{"key":k,"type":…,"value":v}, …]} into {@code out}. */
    private void tags(JsonToken t, Map<String, String> out) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return;
        }
        expect(t, JsonToken.START_ARRAY, "tags (an array)");
        while ((t = nextToken("tags")) != JsonToken.END_ARRAY) {
            expect(t, JsonToken.START_OBJECT, "a tag {\"key\":…,\"value\":…}");
            String key = null;
            String value = null;
            while (nextToken("a tag") != JsonToken.END_OBJECT) {
                String f = p.currentName();
                nextToken(f);
                if (f.equals("key")) {
                    key = string("tag key");
                } else if (f.equals("value")) {
                    value = scalarText();
                } else {
                    p.skipChildren();
                }
            }
            if (key != null && value != null) {
                out.put(key, value);
            }
        }
    }

    private void span() throws IOException {
        SpanRecord r = next();
        r.resolution = 1000;
        r.host = -1;
        String processId = null;
        boolean hasTrace = false;
        boolean hasId = false;
        long duration = SpanRecord.MISSING;
        long followsFrom = 0;
        boolean hasFollows = false;
        boolean hasChildOf = false;
        JsonToken t;
        while (nextToken("a span") != JsonToken.END_OBJECT) {
            String f = p.currentName();
            t = nextToken(f);
            switch (f) {
                case "traceID" -> {
                    SpanIds.traceId(string("traceID"), true, false, id);
                    r.traceHi = id[0];
                    r.traceLo = id[1];
                    hasTrace = true;
                }
                case "spanID" -> {
                    r.spanId = SpanIds.spanId(string("spanID"), true, false);
                    hasId = true;
                }
                case "parentSpanID" -> {
                    String s = string("parentSpanID");
                    if (s != null && !s.isEmpty() && !hasChildOf) {
                        r.parentId = SpanIds.spanId(s, true, false);
                        r.hasParent = r.parentId != 0;
                    }
                }
                case "references" -> {
                    if (t == JsonToken.VALUE_NULL) {
                        break;
                    }
                    expect(t, JsonToken.START_ARRAY, "references (an array)");
                    while ((t = nextToken("references")) != JsonToken.END_ARRAY) {
                        expect(t, JsonToken.START_OBJECT, "a reference object");
                        String type = null;
                        long sid = 0;
                        boolean has = false;
                        while (nextToken("a reference") != JsonToken.END_OBJECT) {
                            String rf = p.currentName();
                            nextToken(rf);
                            if (rf.equals("refType")) {
                                type = string("refType");
                            } else if (rf.equals("spanID")) {
                                sid = SpanIds.spanId(string("spanID"), true, false);
                                has = true;
                            } else {
                                p.skipChildren();
                            }
                        }
                        if (has && "CHILD_OF".equals(type) && !hasChildOf) {
                            hasChildOf = true;
                            r.parentId = sid;
                            r.hasParent = true;
                        } else if (has && "FOLLOWS_FROM".equals(type) && !hasFollows) {
                            hasFollows = true;
                            followsFrom = sid;
                        }
                    }
                }
                case "startTime" -> r.start = micros(exactLong("startTime"), "startTime");
                case "duration" -> duration = micros(exactLong("duration"), "duration");
                case "tags" -> {
                    Map<String, String> tags = new HashMap<>();
                    tags(t, tags);
                    r.kind = SpanKind.ofName(tags.get("span.kind"));
                }
                case "processID" -> processId = string("processID");
                case "process" -> {
                    if (t == JsonToken.START_OBJECT) {
                        r.host = process();
                    } else {
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (!hasTrace || !hasId || r.start == SpanRecord.MISSING) {
            throw error("span without " + (!hasTrace ? "traceID" : !hasId ? "spanID" : "startTime"));
        }
        if (r.host < 0 && processId == null) {
            throw error("span without processID or process");
        }
        if (!r.hasParent && hasFollows) {
            r.parentId = followsFrom;
            r.hasParent = true;
        }
        if (duration != SpanRecord.MISSING && duration >= 0) {
            r.end = Math.addExact(r.start, duration);
        }
        while (processIds.size() < buffered) {
            processIds.add(null);
        }
        processIds.set(buffered - 1, processId);
    }
}
