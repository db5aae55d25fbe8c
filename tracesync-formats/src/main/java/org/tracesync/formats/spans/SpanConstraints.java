package org.tracesync.formats.spans;

/**
 * Turns a stream of spans into cross-host causal constraints (DESIGN §6c), in one pass with
 * bounded memory. A caller (CLIENT or PRODUCER) is kept in a {@link PendingSpans} table under its
 * span id; a callee (SERVER or CONSUMER) looks up its caller — its parent, or, for a Zipkin
 * {@code shared} server half, the span with its own id — and, when the caller has not been seen
 * yet, waits in a second table under that key. Whichever comes second completes the pair, so the
 * spans of one trace may be spread over the file, up to the tables' capacity.
 *
 * <p>For a caller P on host p and a callee C on host c ≠ p:
 * <ul>
 *   <li>C starts after P starts: constraint p → c ({@code CALL_START}, or {@code MESSAGE_START}
 *       for a PRODUCER);</li>
 *   <li>for CLIENT → SERVER only, when both durations exist and the client's is the longer, C ends
 *       before P ends: constraint c → p ({@code CALL_END}). A client shorter than its server timed
 *       out or was cancelled: no constraint.</li>
 * </ul>
 * Same-host pairs (one clock) and pairs with a missing start are counted, not used.
 *
 * <p>What is dropped: a caller is forgotten after {@code capacity} newer callers (FIFO); a callee
 * waiting for its caller likewise after {@code capacity} newer waiting callees. Both counts are
 * reported. A callee whose caller never appears is counted as unmatched at {@link #finish()}.
 * Cost: O(1) expected per span; memory O(capacity), fixed.
 */
public final class SpanConstraints implements SpanSink {

    /** Counters for the summary. */
    public record Counts(long spans, long callers, long callees, long pairs, long sameHost, long constraints,
                         long endsSkipped, long missingStart, long droppedCallers, long droppedCallees,
                         long unmatchedCallees) {
    }

    private final PendingSpans callers;
    private final PendingSpans waiting;
    private final ConstraintSink sink;
    private final SpanRecord other = new SpanRecord();
    private long spans;
    private long callerCount;
    private long calleeCount;
    private long pairs;
    private long sameHost;
    private long constraints;
    private long endsSkipped;
    private long missingStart;
    private long unmatched = -1;

    public SpanConstraints(int capacity, ConstraintSink sink) {
        this.callers = new PendingSpans(capacity);
        this.waiting = new PendingSpans(capacity);
        this.sink = sink;
    }

    @Override
    public void span(SpanRecord s) {
        spans++;
        if (s.start == SpanRecord.MISSING) {
            if (s.kind.isCaller() || s.kind.isCallee()) {
                missingStart++;
            }
            return;
        }
        if (s.kind.isCallee()) {
            calleeCount++;
            long k = s.shared ? s.spanId : s.parentId;
            if (!s.shared && !s.hasParent) {
                return;
            }
            int i = callers.find(s.traceHi, s.traceLo, k, -1);
            if (i >= 0) {
                callers.load(i, other);
                pair(other, s);
            } else {
                waiting.add(s, k);
            }
        } else if (s.kind.isCaller()) {
            callerCount++;
            callers.add(s, s.spanId);
            int i;
            while ((i = waiting.find(s.traceHi, s.traceLo, s.spanId, -1)) >= 0) {
                waiting.load(i, other);
                waiting.remove(i);
                pair(s, other);
            }
        }
    }

    private void pair(SpanRecord caller, SpanRecord callee) {
        pairs++;
        if (caller.host == callee.host) {
            sameHost++;
            return;
        }
        long res = Math.max(caller.resolution, callee.resolution);
        boolean call = caller.kind == SpanKind.CLIENT;
        sink.constraint(call ? ConstraintSink.Kind.CALL_START : ConstraintSink.Kind.MESSAGE_START,
                caller.host, callee.host, caller.start, callee.start, res, caller.traceHi, caller.traceLo);
        constraints++;
        if (call && callee.kind == SpanKind.SERVER) {
            if (caller.end != SpanRecord.MISSING && callee.end != SpanRecord.MISSING
                    && caller.end - caller.start > callee.end - callee.start) {
                sink.constraint(ConstraintSink.Kind.CALL_END, callee.host, caller.host, callee.end, caller.end, res,
                        caller.traceHi, caller.traceLo);
                constraints++;
            } else {
                endsSkipped++;
            }
        }
    }

    /** Ends the stream: callees still waiting are unmatched. */
    public void finish() {
        unmatched = waiting.size();
    }

    public Counts counts() {
        return new Counts(spans, callerCount, calleeCount, pairs, sameHost, constraints, endsSkipped, missingStart,
                callers.evicted(), waiting.evicted(), Math.max(unmatched, 0));
    }
}
