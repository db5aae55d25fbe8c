package org.tracesync.core.simulate;

import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.MessageEnds;

/**
 * A message's two ends as the truth scorers ({@link TruthScore},
 * {@link org.tracesync.core.evaluate.Evaluation}) score them: each end's estimated correction and
 * its true instant, both placed by the message around a clock step.
 *
 * <p>After a backward step a local time was read twice, and inside a step's interval the
 * messages cannot tell the side: the estimate has two readings there, and the true clock may have
 * read the time at two instants. The local time alone picks the wrong side of either about as
 * often as the right one, and the difference is the step's size (the stepped shop scored 4 ms).
 * So both are placed by the message, as the result's readers place the estimate: the estimate by
 * {@link MessageEnds} (its reading nearest the other end that keeps the message forward), the true
 * instant by {@link ClockModel#trueTimeOfEnd} (the same rule on the true clock, against the other
 * end's true instant). Away from steps this is the local time's segment and the clock's inverse,
 * exactly as before. Limitation: a message slower than the step (a consumer's queue) whose end the
 * true clock read twice is placed on the nearer side on both counts; the rule cannot see that it
 * came from the other side, and the bounds, which hold both readings there, contain either.
 *
 * <p>One mutable instance per scorer (nothing allocated per message). O(log segments) per end,
 * plus O(steps) clock inversions on a clock that steps.
 */
public final class ScoredEnds {

    /** ref(ts) − ts of the send, ns (the estimate's reading). */
    public double sendCorrection;
    /** ref(tr) − tr of the receive, ns. */
    public double receiveCorrection;
    /** True instant of the send (ns); 0 without a true clock. */
    public long sendTrue;
    /** True instant of the receive (ns); 0 without a true clock. */
    public long receiveTrue;

    /**
     * Places a message sent at local {@code ts} on a node with transform {@code st} and true clock
     * {@code sc} and received at local {@code tr} ({@code rt}, {@code rc}). {@code sameReference}:
     * both transforms map onto one reference clock (otherwise each end is read by its local time:
     * one end says nothing about the other's side). A null true clock leaves that end's instant 0.
     */
    public void place(ClockTransform st, ClockModel sc, long ts, ClockTransform rt, ClockModel rc, long tr,
                      boolean sameReference) {
        double cs = st.correction(ts);
        double cr = rt.correction(tr);
        if (sameReference && (!st.isLinear() || !rt.isLinear())) {
            sendCorrection = MessageEnds.sendCorrection(st, ts, tr, cr);
            receiveCorrection = MessageEnds.receiveCorrection(rt, tr, ts, cs);
        } else {
            sendCorrection = cs;
            receiveCorrection = cr;
        }
        if (sc == null || rc == null) {
            sendTrue = sc == null ? 0 : sc.trueTime(ts);
            receiveTrue = rc == null ? 0 : rc.trueTime(tr);
            return;
        }
        // each end against the other's inverse (both clocks stepping within one message: rare)
        sendTrue = sc.hasSteps() ? sc.trueTimeOfEnd(ts, rc.trueTime(tr), true) : sc.trueTime(ts);
        receiveTrue = rc.hasSteps() ? rc.trueTimeOfEnd(tr, sc.trueTime(ts), false) : rc.trueTime(tr);
    }
}
