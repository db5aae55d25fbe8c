package org.tracesync.cli.report;

import java.util.List;
import java.util.Map;
import org.tracesync.core.estimate.PairEstimate;
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
 * @param estimates      the pair estimates (exact hulls, bound functions) by "a|b", or empty
 */
public record ReportInput(String title, SyncResult result, ReportSampler sampler, List<String> inputWarnings,
                          Map<String, ClockModel> truth, Map<String, PairEstimate> estimates) {
    public ReportInput {
        inputWarnings = List.copyOf(inputWarnings);
        truth = Map.copyOf(truth);
        estimates = Map.copyOf(estimates);
    }

    public ReportInput(String title, SyncResult result, ReportSampler sampler, List<String> inputWarnings) {
        this(title, result, sampler, inputWarnings, Map.of(), Map.of());
    }
}
