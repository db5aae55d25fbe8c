package org.tracesync.formats.spans;

/**
 * One span as the readers hand it over: only what synchronization needs. A reader reuses one
 * instance per span (no object per span on the hot path); a sink must copy what it keeps.
 * Times are int64 ns on the span's host clock; a missing time is {@link #MISSING}.
 */
public final class SpanRecord {
    /** A missing start or end time (Zipkin: no {@code timestamp} or no {@code duration}). */
    public static final long MISSING = Long.MIN_VALUE;

    public long traceHi;
    public long traceLo;
    public long spanId;
    /** Parent span id; meaningful only when {@link #hasParent}. */
    public long parentId;
    public boolean hasParent;
    /** Zipkin {@code shared}: a server half that reuses its client's span id. */
    public boolean shared;
    public SpanKind kind = SpanKind.UNSPECIFIED;
    /** Index of the span's host in the reader's {@link SpanHosts}. */
    public int host;
    public long start = MISSING;
    public long end = MISSING;
    /** Timestamp resolution (ns): 1 (OTLP) or 1000 (Jaeger, Zipkin). */
    public long resolution = 1;
    /** 1-based line of the span in its file (for messages). */
    public long line;

    void clear() {
        traceHi = 0;
        traceLo = 0;
        spanId = 0;
        parentId = 0;
        hasParent = false;
        shared = false;
        kind = SpanKind.UNSPECIFIED;
        host = -1;
        start = MISSING;
        end = MISSING;
        resolution = 1;
        line = 0;
    }

    void copyFrom(SpanRecord o) {
        traceHi = o.traceHi;
        traceLo = o.traceLo;
        spanId = o.spanId;
        parentId = o.parentId;
        hasParent = o.hasParent;
        shared = o.shared;
        kind = o.kind;
        host = o.host;
        start = o.start;
        end = o.end;
        resolution = o.resolution;
        line = o.line;
    }
}
