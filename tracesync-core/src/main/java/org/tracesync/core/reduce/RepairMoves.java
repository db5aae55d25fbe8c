package org.tracesync.core.reduce;

import java.util.Arrays;
import java.util.List;

/**
 * A node's rows of the result's {@code repairs} list (the events the controlled logical clock
 * moved) and the one rule to read them. A row is {@code {t, r, c}}: the event at local time t
 * whose reading before the repair was reference time c is at reference time r. One row per moved
 * event, sorted by t, then c. The reading tells apart the two events of one local time that a
 * clock read twice (after a backward step: one on the line before the step, one on the line
 * after), which a list keyed by local time alone collapsed into one. Rows written before the
 * reading was listed are {@code {t, r}} and match any event at t.
 *
 * <p>O(log rows) per lookup; nothing allocated.
 */
public final class RepairMoves {

    private RepairMoves() {
    }

    /**
     * The reference time of the event at local time {@code t} whose reading is {@code fitted}
     * (the transform's, placed by position around a step as the repair placed it): the repaired
     * time when a row lists it, else {@code fitted}. Two events of one local time and one
     * reading cannot be told apart: both get the first row's time.
     */
    public static long referenceTime(long[][] moves, long t, long fitted) {
        int lo = 0;
        int hi = moves.length;
        while (lo < hi) { // the first row at or after t
            int mid = (lo + hi) >>> 1;
            if (moves[mid][0] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < moves.length && moves[i][0] == t; i++) {
            if (moves[i].length < 3 || moves[i][2] == fitted) {
                return moves[i][1];
            }
        }
        return fitted;
    }

    /** The rows {t, r, c} sorted by t, then c (then r); one per moved event. */
    public static long[][] sorted(List<long[]> rows) {
        long[][] a = rows.toArray(new long[0][]);
        Arrays.sort(a, (x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0])
                : x[2] != y[2] ? Long.compare(x[2], y[2]) : Long.compare(x[1], y[1]));
        return a;
    }
}
