package org.tracesync.formats.result;

import java.nio.charset.StandardCharsets;
import org.tracesync.core.transform.NodeBounds;

/**
 * A node's bound rows as the result file's {@code "bounds"} array holds them: the bytes
 * {@link IndentedJson} writes for each row {@code [ t, minus, plus ]}, each after the separator
 * it writes before an array's value (a space before the first, a comma and a space before the
 * others), the time by {@link Long#toString(long)}, each double by {@link Double#toString(double)}
 * ({@link StringBuilder#append(double)} writes the same characters), a non-finite one as
 * {@code null}. A long piecewise trace has tens of thousands of rows (66,232 on the wandering
 * 24 h file): rendered in two halves on two threads, each a run of bytes that the writer copies,
 * instead of a dozen calls per row into the writer. O(rows).
 */
final class BoundRowsText {

    private BoundRowsText() {
    }

    /** Rows [from, to) of {@code bounds}, row 0 being the array's first value. */
    static byte[] render(NodeBounds bounds, int from, int to) {
        StringBuilder text = new StringBuilder(Math.max(16, (to - from) * 60));
        for (int k = from; k < to; k++) {
            row(text, k == 0, bounds.rowT(k), bounds.rowMinus(k), bounds.rowPlus(k));
        }
        return text.toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    // one method per row, called once per row: compiled after a few thousand rows, where a loop
    // doing it all would run interpreted until its on-stack compilation
    private static void row(StringBuilder text, boolean first, long t, double minus, double plus) {
        text.append(first ? " [ " : ", [ ").append(t).append(", ");
        number(text, minus);
        text.append(", ");
        number(text, plus);
        text.append(" ]");
    }

    private static void number(StringBuilder text, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            text.append("null");
        } else {
            text.append(v);
        }
    }
}
