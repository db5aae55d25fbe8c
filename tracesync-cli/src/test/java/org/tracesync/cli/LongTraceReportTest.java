package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.cli.report.HtmlReportTestAccess;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.result.ResultFile;

/** The report of a long trace (wandering clocks, a clock step): pieces, knots and steps drawn, rendered by Chromium. */
class LongTraceReportTest {

    @TempDir
    Path dir;

    @Test
    void longTraceReportDrawsPiecesKnotsAndStepsAndRendersCleanly() throws Exception {
        Path sim = dir.resolve("sim");
        CommandRun simulate = CommandRun.of("simulate", "-o", sim.toString(), "--nodes", "3", "--walk", "0.01", "--ntp", "1",
                "--steps", "1", "--duration", "1h", "--seed", "1", "--rate", "5", "--format", "text",
                "--min-latency", "40us", "--min-latency-back", "50us");
        assertThat(simulate.exitCode()).as(simulate.err()).isZero();
        Path trace = sim.resolve("messages.txt");
        Path resultFile = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", "-q", trace.toString(), "-o", resultFile.toString());
        assertThat(sync.err()).doesNotContain("Exception");
        assertThat(Files.exists(resultFile)).as(sync.err()).isTrue();
        SyncResult result = ResultFile.read(resultFile);

        List<ClockStep> steps = result.pairs().stream().flatMap(p -> p.steps().stream()).toList();
        assertThat(steps).as("the simulated step is found").isNotEmpty();
        NodeResult stepped = result.nodes().stream().filter(n -> n.transform().segments().size() > 1).findFirst().orElseThrow();

        Path html = Path.of("target").toAbsolutePath().resolve("report-long-trace.html");
        Files.createDirectories(html.getParent());
        CommandRun report = CommandRun.of("report", resultFile.toString(), trace.toString(),
                "--truth", sim.resolve("truth.json").toString(), "-o", html.toString());
        assertThat(report.exitCode()).as(report.err()).isZero();
        String page = Files.readString(html);

        // every pair plot draws its pieces' knots; every step of every pair is drawn with its size and bounds
        for (PairResult p : result.pairs()) {
            assertThat(page).contains("<h3>" + p.a() + " – " + p.b(), "knots (" + p.pieces() + " pieces)");
        }
        for (ClockStep st : steps) {
            assertThat(page).contains(">" + HtmlReportTestAccess.stepLabel(st) + "</text>");
        }
        assertThat(count(page, "<line class=\"step\"")).isGreaterThanOrEqualTo(2 * steps.size());
        assertThat(count(page, "<path class=\"knots\"")).isGreaterThanOrEqualTo(2 * result.pairs().size());
        // node plots: the transform's segments, its knots and its jumps
        assertThat(page).contains("estimate (" + stepped.transform().segments().size() + " segments)",
                "Piecewise transform: " + stepped.transform().segments().size() + " segments");
        assertThat(Pattern.compile(">jump [+-]\\d+\\.\\d{3} ms</text>").matcher(page).find()).isTrue();

        Assumptions.assumeTrue(Files.isExecutable(HeadlessChromium.CHROMIUM), "chromium is not installed: rendering skipped");
        List<String> console = HeadlessChromium.render(html, html.resolveSibling("report-long-trace.png"), 1400, 6000);
        assertThat(console).isEmpty();
    }

    private static int count(String page, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(page);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
