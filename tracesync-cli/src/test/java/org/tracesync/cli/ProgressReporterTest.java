package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProgressReporterTest {

    @Test
    void lineShowsBytesRateAndEta() {
        assertThat(ProgressReporter.line("reading", 50L << 20, 200L << 20, 1_500_000, "events", 10.0))
                .isEqualTo("reading  50.0 MB / 200.0 MB   25%  150.0 k events/s  ETA 0:30");
        assertThat(ProgressReporter.line("reading", -1, 0, 2_000_000, "messages", 1.0))
                .isEqualTo("reading  2.00 M messages/s");
        assertThat(ProgressReporter.line("reading", 3 << 10, 0, 10, "events", 0.0))
                .isEqualTo("reading  3 KB  0 events/s");
    }

    @Test
    void noDisplayWithoutATerminal() {
        // surefire runs without a console: the reporter must stay silent (and quiet always wins)
        assertThat(ProgressReporter.wanted(true)).isFalse();
        assertThat(ProgressReporter.wanted(false)).isEqualTo(System.console() != null && System.getenv("CI") == null
                && !"dumb".equals(System.getenv("TERM")));
        try (ProgressReporter p = ProgressReporter.start("x", 10, () -> 5, () -> 1, "events", true)) {
            assertThat(p.active()).isFalse();
        }
    }

    /** Issue #12 item 16: after reading, each phase is named with its own clock, not a frozen "reading 100 %". */
    @Test
    void phasesAreNamedWithTheirOwnElapsedTime() {
        assertThat(ProgressReporter.phaseLine("solving the global program (2 groups)", 12.4))
                .isEqualTo("solving the global program (2 groups)  12 s");
        assertThat(ProgressReporter.phaseLine("estimating 1225 pairs", 0.2)).isEqualTo("estimating 1225 pairs  0 s");
        try (ProgressReporter p = ProgressReporter.start("x", 10, () -> 5, () -> 1, "events", true)) {
            p.phase("estimating 3 pairs");
            assertThat(p.currentLine(1.0)).isEqualTo("estimating 3 pairs  1 s");
        }
    }

}
