package org.tracesync.cli.report;

import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.transform.BoundRow;

/**
 * A node's bounds over its own span [start, end] (its first and last message): the rows a result
 * file holds may reach far beyond the data (extrapolation rows, a trace length away), and a table
 * or plot over them shows widths the node never has where it has events. Bounds are linear
 * between rows (DESIGN §7), so the mean over the span is exact by the trapezoid rule and the
 * maximum is at a row or at an end. O(rows).
 */
final class BoundWidths {

    private BoundWidths() {
    }

    /** {mean, max} of minus + plus over [start, end]; null without rows. */
    static double[] over(List<BoundRow> rows, long start, long end) {
        if (rows.isEmpty()) {
            return null;
        }
        List<BoundRow> in = clip(rows, start, end);
        if (in.size() == 1) {
            return new double[] {in.get(0).width(), in.get(0).width()};
        }
        double area = 0;
        double max = 0;
        for (int i = 0; i < in.size(); i++) {
            max = Math.max(max, in.get(i).width());
            if (i > 0) {
                area += (in.get(i).width() + in.get(i - 1).width()) / 2 * (double) (in.get(i).t() - in.get(i - 1).t());
            }
        }
        return new double[] {area / (double) (end - start), max};
    }

    /** The rows inside [start, end], with rows interpolated (or extrapolated) at start and end. */
    static List<BoundRow> clip(List<BoundRow> rows, long start, long end) {
        List<BoundRow> out = new ArrayList<>();
        out.add(row(rows, start));
        for (BoundRow r : rows) {
            if (r.t() > start && r.t() < end) {
                out.add(r);
            }
        }
        if (end > start) {
            out.add(row(rows, end));
        }
        return out;
    }

    private static BoundRow row(List<BoundRow> rows, long t) {
        double[] mp = BoundRow.at(rows, t);
        return new BoundRow(t, mp[0], mp[1]);
    }
}
