package org.tracesync.formats.spans;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The spans of one trace, read from span files (for a waterfall): a pass that keeps only the spans
 * with the given trace id, at most {@code limit} of them. O(file) time, O(limit) memory.
 */
public final class TraceSpans {

    /** One span of the trace: host index (into the input's hosts), kind, ids and raw times (ns). */
    public record Span(long spanId, long parentId, boolean shared, int host, SpanKind kind, long start, long end,
                       long line) {
    }

    private TraceSpans() {
    }

    public static List<Span> read(SpanMessageInput input, long traceHi, long traceLo, int limit) throws IOException {
        List<Span> out = new ArrayList<>();
        input.files().read(new SpanHosts(), s -> {
            if (s.traceHi == traceHi && s.traceLo == traceLo && s.start != SpanRecord.MISSING && out.size() < limit) {
                out.add(new Span(s.spanId, s.hasParent ? s.parentId : 0, s.shared, s.host, s.kind, s.start, s.end, s.line));
            }
        });
        return out;
    }
}
