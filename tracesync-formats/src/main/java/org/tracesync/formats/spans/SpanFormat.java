package org.tracesync.formats.spans;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The span file formats tracesync reads, recognised by content (the first JSON token and the first
 * field name), never by file name.
 */
public enum SpanFormat {
    /** OpenTelemetry Collector file exporter: one {@code {"resourceSpans":[…]}} per line (Tempo: {@code batches}). */
    OTLP_JSON("OTLP JSON lines", 1),
    /** Jaeger query API / UI download: {@code {"data":[{traceID, spans, processes}]}}, µs. */
    JAEGER_JSON("Jaeger JSON", 1000),
    /** Zipkin v2: a JSON array of spans, µs. */
    ZIPKIN_JSON("Zipkin v2 JSON", 1000),
    /** OpenTelemetry Collector file exporter, {@code format: proto}: 4-byte big-endian length, then a {@code TracesData}. */
    OTLP_PROTO("OTLP protobuf", 1);

    private final String label;
    private final long resolution;

    SpanFormat(String label, long resolution) {
        this.label = label;
        this.resolution = resolution;
    }

    public String label() {
        return label;
    }

    /** Timestamp resolution of the format (ns): 1 for OTLP, 1000 for the µs formats. */
    public long resolution() {
        return resolution;
    }

    /**
     * The span format of {@code path}, or null when it is not a span file. Reads at most the first
     * 64 KiB: a leading {@code [} followed by {@code {"traceId"}-style objects is Zipkin, an object whose first
     * field is {@code resourceSpans} or {@code batches} is OTLP, {@code data} is Jaeger; otherwise a
     * first length-prefixed frame holding a {@code TracesData} is OTLP protobuf
     * ({@link OtlpProtoFrames#looksLikeTracesData}).
     */
    public static SpanFormat detect(Path path) throws IOException {
        if (!Files.isRegularFile(path)) {
            return null;
        }
        byte[] head = new byte[65536];
        int n = 0;
        try (InputStream in = Files.newInputStream(path)) {
            int r;
            while (n < head.length && (r = in.read(head, n, head.length - n)) > 0) {
                n += r;
            }
        }
        int i = skipSpace(head, n, 0);
        if (i + 2 < n && head[i] == (byte) 0xEF && head[i + 1] == (byte) 0xBB && head[i + 2] == (byte) 0xBF) {
            i = skipSpace(head, n, i + 3);
        }
        if (i >= n) {
            return null;
        }
        if (head[i] != '[' && head[i] != '{') {
            return OtlpProtoFrames.looksLikeTracesData(head, n, Files.size(path)) ? OTLP_PROTO : null;
        }
        if (head[i] == '[') {
            int j = skipSpace(head, n, i + 1);
            if (j < n && head[j] == ']') {
                return ZIPKIN_JSON; // an empty span list
            }
            if (j >= n || head[j] != '{') {
                return null;
            }
            String field = firstField(head, n, j);
            return field != null && (field.equals("traceId") || field.equals("id") || field.equals("parentId")
                    || field.equals("name") || field.equals("kind") || field.equals("timestamp")
                    || field.equals("duration") || field.equals("localEndpoint")) ? ZIPKIN_JSON : null;
        }
        if (head[i] != '{') {
            return null;
        }
        String field = firstField(head, n, i);
        if ("resourceSpans".equals(field) || "batches".equals(field)) {
            return OTLP_JSON;
        }
        if ("data".equals(field)) {
            return JAEGER_JSON;
        }
        return null;
    }

    /** True when {@code path} is a span file of any format. */
    public static boolean isSpanFile(Path path) throws IOException {
        return detect(path) != null;
    }

    private static int skipSpace(byte[] b, int n, int i) {
        while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n')) {
            i++;
        }
        return i;
    }

    /** The first field name of the object starting at {@code b[i] == '{'}, or null. */
    private static String firstField(byte[] b, int n, int i) {
        int j = skipSpace(b, n, i + 1);
        if (j >= n || b[j] != '"') {
            return null;
        }
        int k = j + 1;
        while (k < n && b[k] != '"' && k - j < 64) {
            k++;
        }
        return k < n && b[k] == '"' ? new String(b, j + 1, k - j - 1, java.nio.charset.StandardCharsets.UTF_8) : null;
    }
}
