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
        double local = sender.correction(st);
        int k = sender.stepAround(st);
        if (k < 0) {
            return local;
        }
        List<LinearSegment> s = sender.segments();
        double a = s.get(k - 1).correction(st);
        double b = s.get(k).correction(st);
        double limit = (double) (rt - st) + recvCorrection; // forward while the correction is at most this
        double late = Math.max(a, b);
        double early = Math.min(a, b);
        return late <= limit ? late : early <= limit ? early : local;
    }

    /**
     * {@code ref(rt) − rt} of a receive at local time {@code rt} on {@code receiver}, whose send is
     * at {@code st} with correction {@code sendCorrection} (ns, the sender's transform).
     */
    public static double receiveCorrection(ClockTransform receiver, long rt, long st, double sendCorrection) {
        double local = receiver.correction(rt);
        int k = receiver.stepAround(rt);
        if (k < 0) {
            return local;
        }
        List<LinearSegment> s = receiver.segments();
        double a = s.get(k - 1).correction(rt);
        double b = s.get(k).correction(rt);
        double limit = (double) (st - rt) + sendCorrection; // forward while the correction is at least this
        double late = Math.max(a, b);
        double early = Math.min(a, b);
        return early >= limit ? early : late >= limit ? late : local;
    }

    /** The send's reference time (ns), by {@link #sendCorrection}'s rule on integer reference times. */
    public static long send(ClockTransform sender, long st, long recvRef) {
        long local = sender.apply(st);
        int k = sender.stepAround(st);
        if (k < 0) {
            return local;
        }
        long a = sender.segments().get(k - 1).apply(st);
        long b = sender.segments().get(k).apply(st);
        long late = Math.max(a, b);
        long early = Math.min(a, b);
        return late <= recvRef ? late : early <= recvRef ? early : local;
    }

    /** The receive's reference time (ns), by {@link #receiveCorrection}'s rule on integer reference times. */
    public static long receive(ClockTransform receiver, long rt, long sendRef) {
        long local = receiver.apply(rt);
        int k = receiver.stepAround(rt);
        if (k < 0) {
            return local;
        }
        long a = receiver.segments().get(k - 1).apply(rt);
        long b = receiver.segments().get(k).apply(rt);
        long late = Math.max(a, b);
        long early = Math.min(a, b);
        return early >= sendRef ? early : late >= sendRef ? late : local;
    }
}
