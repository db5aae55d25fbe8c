package org.tracesync.core.transform;

import java.util.function.LongUnaryOperator;

/**
 * Maps one node's timestamps read in its trace's order (a capture's packets as they were
 * written): by their local time's segment, except just after a backward step of the node's clock.
 * There the clock read the same local times twice ({@link ClockTransform#readTwiceEnd}): an event
 * at such a time maps with the line before the step until the trace shows that the clock went back
 * (an event earlier than the one before it, or one beyond the times read twice), and with the line
 * after from then on. So the node's own events keep their order on the reference clock, and an
 * event at a re-read time that came before the step is not put a step's size late, as its local
 * time alone would put it. When no event shows the step (none within its size of it on either
 * side), the events read twice that came after it map with the line before, a step's size early.
 * Inside a step's wider interval (where the messages could not place it) this reader keeps the
 * local-time rule, without the messages nothing else tells, except once the trace is past that
 * step (an earlier timestamp mapped after it): a later one there maps after it too. A timestamp
 * whose reading is known from elsewhere (its message's other end) is given by {@link #placed}.
 *
 * <p>One instance per trace, fed every timestamp in order (stateful, not thread-safe). O(log
 * segments) per timestamp, O(1) for a linear transform; nothing allocated.
 */
public final class ReadingsInOrder implements LongUnaryOperator {

    private final ClockTransform transform;
    /** Highest segment the trace has been seen to reach (past its step). */
    private int reached;
    private long last = Long.MIN_VALUE;

    public ReadingsInOrder(ClockTransform transform) {
        this.transform = transform;
    }

    /** The reference time of the next timestamp {@code t} of the trace (ns). */
    @Override
    public long applyAsLong(long t) {
        if (transform.isLinear()) {
            return transform.apply(t);
        }
        int k = transform.indexAt(t);
        int use = k;
        if (k > reached) {
            if (k > 0 && t >= last && t < transform.readTwiceEnd(k)) {
                use = k - 1; // read twice, and nothing shows the clock went back yet: before the step
            } else {
                reached = k;
            }
        } else if (k < reached && transform.stepAround(t) == reached) {
            use = reached; // around a step the trace is already past: after it
        }
        last = t;
        return transform.segments().get(use).apply(t);
    }

    /**
     * The reference time of the next timestamp {@code t} of the trace whose reading is known:
     * segment {@code segment}'s line (e.g. where its message's other end placed it,
     * {@link MessageEnds#sendSegment}). The timestamps after it keep its side of a step: when it
     * is past a step, so are they. O(1).
     */
    public long placed(long t, int segment) {
        reached = Math.max(reached, segment);
        last = t;
        return transform.segments().get(segment).apply(t);
    }
}
