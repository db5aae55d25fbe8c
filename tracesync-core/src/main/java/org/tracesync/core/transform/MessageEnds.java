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

    /** The send's reference time (ns), whose receive is at reference time {@code recvRef}. */
    public static long send(ClockTransform sender, long st, long recvRef) {
        return st + Math.round(reading(sender, st, (double) (recvRef - st), true));
    }

    /** The receive's reference time (ns), whose send is at reference time {@code sendRef}. */
    public static long receive(ClockTransform receiver, long rt, long sendRef) {
        return rt + Math.round(reading(receiver, rt, (double) (sendRef - rt), false));
    }

    /**
     * The correction of local time t: around a step, of its two readings the latest at most
     * {@code limit} (a send: {@code limit} is its receive's reference time − t) or the earliest at
     * least {@code limit} (a receive: its send's); when neither, or away from steps, the local
     * time's segment.
     */
    private static double reading(ClockTransform transform, long t, double limit, boolean send) {
        double local = transform.correction(t);
        int k = transform.stepAround(t);
        if (k < 0) {
            return local;
        }
        List<LinearSegment> s = transform.segments();
        double a = s.get(k - 1).correction(t);
        double b = s.get(k).correction(t);
        double late = Math.max(a, b);
        double early = Math.min(a, b);
        if (send) {
            return late <= limit ? late : early <= limit ? early : local;
        }
        return early >= limit ? early : late >= limit ? late : local;
    }
}
