package org.tracesync.cli.report;

import java.util.List;
import org.tracesync.core.transform.BoundRow;

/**
 * Mean and maximum bound width over a node's own span [start, end] (its first and last
 * message), from the rows {@code NodeBounds.rowsWithin(start, end)} gives: the rows a result file
 * holds reach far beyond the data (end rows a data span away), and a table over them shows
 * widths the node never has where it has events. Bounds are linear between rows (DESIGN §7), so
 * the mean is exact by the trapezoid rule (time-weighted, not a mean of rows) and the maximum is
 * at a row. Rows with an unbounded side are left out (with the segments that touch them). O(rows).
 */
final class BoundWidths {

    private BoundWidths() {
    }

    /** {mean, max} of minus + plus over the rows (finite ones, sorted by t); null when there are none. */
    static double[] over(List<BoundRow> within) {
        List<BoundRow> rows = within.stream().filter(r -> Double.isFinite(r.width())).toList();
        if (rows.isEmpty()) {
            return null;
        }
        double max = 0;
        double area = 0;
        double covered = 0;
        for (int i = 0; i < rows.size(); i++) {
            max = Math.max(max, rows.get(i).width());
            if (i > 0) {
                double dt = (double) (rows.get(i).t() - rows.get(i - 1).t());
                area += (rows.get(i).width() + rows.get(i - 1).width()) / 2 * dt;
                covered += dt;
            }
        }
        return new double[] {covered > 0 ? area / covered : rows.get(0).width(), max};
    }
}
