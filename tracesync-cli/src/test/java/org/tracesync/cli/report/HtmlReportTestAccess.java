package org.tracesync.cli.report;

import org.tracesync.core.estimate.ClockStep;

/** The report's package-private formatting, for tests in other packages. */
public final class HtmlReportTestAccess {

    private HtmlReportTestAccess() {
    }

    public static String stepLabel(ClockStep st) {
        return HtmlReport.stepLabel(st);
    }
}
