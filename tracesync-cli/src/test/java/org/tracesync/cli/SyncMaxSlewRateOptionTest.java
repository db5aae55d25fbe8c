package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.cli.report.ReportGenerator;
import org.tracesync.core.estimate.PiecewiseEstimator;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.result.ResultFile;

/**
 * {@code sync --max-slew-rate PPM}: parsed (with or without "ppm"), rejected with one clear line
 * when it is no rate or outside (0, 1000] ppm, absent from the result by default, and on
 * clocks that slew faster than it, a warning (core's SlewRateBoundTest scores the fit itself).
 */
class SyncMaxSlewRateOptionTest {

    @TempDir
    Path dir;

    private Path twoNodes() throws Exception {
        return Files.writeString(dir.resolve("two.txt"), "2\n0 1 10.000100 10.080200\n0 1 70.000100 70.080260\n"
                + "1 0 40.080000 40.000300\n1 0 100.080000 100.000400\n");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"500, 500.0", "500ppm, 500.0", "83.5 ppm, 83.5", "1000, 1000.0"})
    void theBoundIsParsedAndRecorded(String value, double ppm) throws Exception {
        Path out = dir.resolve("r.json");
        CommandRun run = CommandRun.of("sync", twoNodes().toString(), "--max-slew-rate", value, "-o", out.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        SyncResult r = ResultFile.read(out);
        assertThat(r.stats().get("max_slew_rate_ppm")).isEqualTo(ppm);
        assertThat(r.stats().get("slews_beyond_bound")).isEqualTo(0L);
        // report fits each pair's geometry again with the bound the result was made with
        assertThat(ReportGenerator.slewBound(r)).isEqualTo(ppm * 1e-6);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "0      | --max-slew-rate must be above 0 and at most 1000 ppm (a faster change is taken for a step), not 0",
        "-5     | --max-slew-rate must be above 0 and at most 1000 ppm (a faster change is taken for a step), not -5",
        "1000.5 | --max-slew-rate must be above 0 and at most 1000 ppm (a faster change is taken for a step), not 1000.5",
        "fast   | Invalid value for option '--max-slew-rate': 'fast' is not a rate in ppm like 500 or 500ppm",
        "NaN    | Invalid value for option '--max-slew-rate': 'NaN' is not a rate in ppm like 500 or 500ppm",
        "5e2ms  | Invalid value for option '--max-slew-rate': '5e2ms' is not a rate in ppm like 500 or 500ppm"})
    void aBadBoundIsAUsageErrorOfOneLine(String value, String message) throws Exception {
        Path out = dir.resolve("r.json");
        CommandRun run = CommandRun.of("sync", twoNodes().toString(), "--max-slew-rate", value, "-o", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).isEqualTo("tracesync sync: " + message + " (see 'tracesync sync --help')\n");
        assertThat(out).doesNotExist();
    }

    @Test
    void withoutTheOptionTheResultSaysNoBound() throws Exception {
        Path out = dir.resolve("r.json");
        CommandRun run = CommandRun.of("sync", twoNodes().toString(), "-o", out.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(ResultFile.read(out).stats()).doesNotContainKeys("max_slew_rate_ppm", "slews_beyond_bound");
        assertThat(ReportGenerator.slewBound(ResultFile.read(out))).isEqualTo(PiecewiseEstimator.NO_SLEW_RATE_BOUND);
    }

    /** Clocks slewing at 900 ppm under a 500 ppm bound: the summary warns, eval finds no inversion. */
    @Test
    void slewsFasterThanTheBoundAreWarnedOf() throws Exception {
        CommandRun sim = CommandRun.of("simulate", "-o", dir.toString(), "--nodes", "2", "--rate", "5", "--format", "text",
                "--duration", "2h", "--min-latency", "60us", "--min-latency-back", "60us", "--ntp", "1", "--slews", "2",
                "--slew-rate", "900", "--seed", "1");
        assertThat(sim.exitCode()).as(sim.err()).isZero();
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", dir.resolve("messages.txt").toString(), "--max-slew-rate", "500",
                "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("Warnings").contains("faster than the slew-rate bound of 500.0 ppm kept");
        assertThat(Files.readString(result)).contains("\"max_slew_rate_ppm\" : 500.0");
        CommandRun eval = CommandRun.of("eval", result.toString(), dir.resolve("messages.txt").toString(),
                "--truth", dir.resolve("truth.json").toString());
        assertThat(eval.exitCode()).as(eval.err()).isZero();
        assertThat(eval.out()).contains("no inversion").contains("bounds contain the truth at 100.00%");
        // the report re-fits the pair's geometry under the recorded bound and draws it
        Path html = dir.resolve("report.html");
        CommandRun report = CommandRun.of("report", result.toString(), dir.resolve("messages.txt").toString(),
                "-o", html.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        assertThat(Files.readString(html)).contains("piecewise");
    }
}
