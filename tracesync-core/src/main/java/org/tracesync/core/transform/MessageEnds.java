package org.tracesync.core.transform;

import java.util.List;

/**
 * Where a message's ends fall on the reference clock when one of them lies around a clock step
 * ({@link ClockTransform#stepAround}): read twice after a backward step, or inside the step's
 * interval, where the messages cannot tell on which side of the step it came. Such an end has two
 * readings, the line before the step and the line after; its local time alone cannot tell which is
 * its own, its position in its trace can, and for a message end the other end stands for that
 * position: the fit keeps every message forward on its side of the step, so the reading of the
 * side the end came from keeps it forward too.
 *
 * <p>Rule: a <b>send</b> around a step takes the latest of its two readings not after its receive,
 * a <b>receive</b> the earliest not before its send: the reading nearest the other end that keeps
 * the message forward (a message's latency is µs, a step's size ms). When neither does, or when
 * the end lies around no step, the local time's segment maps it ({@link ClockTransform#correction}):
 * away from steps nothing changes. When both ends lie around steps (both clocks stepped within a
 * latency), each is judged against the other's local-time reading. O(log segments) per end,
 * nothing allocated.
 */
public final class MessageEnds {

    private MessageEnds() {
    }

    /**
     * {@code ref(st) − st} of a send at local time {@code st} on {@code sender}, whose receive is at
     * {@code rt} with correction {@code recvCorrection} (ns, the receiver's transform).
     */
    public static double sendCorrection(ClockTransform sender, long st, long rt, double recvCorrection) {
        return reading(sender, st, (double) (rt - st) + recvCorrection, true);
    }

    /**
     * {@code ref(rt) − rt} of a receive at local time {@code rt} on {@code receiver}, whose send is
     * at {@code st} with correction {@code sendCorrection} (ns, the sender's transform).
     */
    public static double receiveCorrection(ClockTransform receiver, long rt, long st, double sendCorrection) {
        return reading(receiver, rt, (double) (st - rt) + sendCorrection, false);
    }

    /**
     * The corrected latency (ns) of the message sent at local time {@code st} on {@code sender} and
     * received at {@code rt} on {@code receiver}, both on one reference clock: each end read as the
     * rule above reads it (around a step, the reading its other end allows), elsewhere by its local
     * time's segment. Negative: the message arrives before it was sent.
     */
    public static double latency(ClockTransform sender, long st, ClockTransform receiver, long rt) {
        double cs = sender.correction(st);
        double cr = receiver.correction(rt);
        if (sender.isLinear() && receiver.isLinear()) {
            return (rt - st) + (cr - cs);
        }
        return (rt - st) + (receiveCorrection(receiver, rt, st, cs) - sendCorrection(sender, st, rt, cr));
    }

    /** The send's reference time (ns), whose receive is at reference time {@code recvRef}. */
    public static long send(ClockTransform sender, long st, long recvRef) {
        return st + Math.round(reading(sender, st, (double) (recvRef - st), true));
    }

    /** The receive's reference time (ns), whose send is at reference time {@code sendRef}. */
    public static long receive(ClockTransform receiver, long rt, long sendRef) {
        return rt + Math.round(reading(receiver, rt, (double) (sendRef - rt), false));
    }

    /**
     * The segment (index in {@code sender}'s transform) whose line reads a send at local time
     * {@code st}, whose receive is at {@code rt} with correction {@code recvCorrection}: the one
     * {@link #sendCorrection} uses. For a reader that places the send's neighbours in its trace
     * by it ({@link ReadingsInOrder#placed}).
     */
    public static int sendSegment(ClockTransform sender, long st, long rt, double recvCorrection) {
        return segment(sender, st, (double) (rt - st) + recvCorrection, true);
    }

    /** The segment whose line reads a receive ({@link #receiveCorrection}); see {@link #sendSegment}. */
    public static int receiveSegment(ClockTransform receiver, long rt, long st, double sendCorrection) {
        return segment(receiver, rt, (double) (st - rt) + sendCorrection, false);
    }

    /** The correction of local time t on the segment {@link #segment} picks. */
    private static double reading(ClockTransform transform, long t, double limit, boolean send) {
        if (transform.isLinear()) {
            return transform.correction(t);
        }
        return transform.segments().get(segment(transform, t, limit, send)).correction(t);
    }

    /**
     * The segment of local time t: around a step, of its two readings the latest at most
     * {@code limit} (a send: {@code limit} is its receive's reference time − t) or the earliest at
     * least {@code limit} (a receive: its send's); when neither, or away from steps, the local
     * time's segment.
     */
    private static int segment(ClockTransform transform, long t, double limit, boolean send) {
        int k = transform.stepAround(t);
        if (k < 0) {
            return transform.indexAt(t);
        }
        List<LinearSegment> s = transform.segments();
        double a = s.get(k - 1).correction(t);
        double b = s.get(k).correction(t);
        int late = a > b ? k - 1 : k;
        int early = a > b ? k : k - 1;
        double lateValue = Math.max(a, b);
        double earlyValue = Math.min(a, b);
        if (send) {
            return lateValue <= limit ? late : earlyValue <= limit ? early : transform.indexAt(t);
        }
        return earlyValue >= limit ? early : lateValue >= limit ? late : transform.indexAt(t);
    }
}
