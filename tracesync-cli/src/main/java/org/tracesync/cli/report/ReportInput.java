package org.tracesync.cli.report;

import java.util.List;
import java.util.Map;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;

/**
 * What {@link HtmlReport} draws.
 *
 * @param title          page title
 * @param result         the synchronization result
 * @param sampler        message samples from the traces, or null when no trace was given
 * @param inputWarnings  problems reading inputs (unreadable traces, dropped duplicates, evictions)
 * @param truth          true clocks by node name (simulations), or empty
 * @param geometry       exact pair geometry (hulls, envelopes) by "a|b", or empty
 */
public record ReportInput(String title, SyncResult result, ReportSampler sampler, List<String> inputWarnings,
                          Map<String, ClockModel> truth, Map<String, PairGeometry> geometry) {
    public ReportInput {
        inputWarnings = List.copyOf(inputWarnings);
        truth = Map.copyOf(truth);
        geometry = Map.copyOf(geometry);
    }

    public ReportInput(String title, SyncResult result, ReportSampler sampler, List<String> inputWarnings) {
        this(title, result, sampler, inputWarnings, Map.of(), Map.of());
    }
}
