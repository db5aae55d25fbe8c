package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.junit.jupiter.api.io.TempDir;

/** {@code tracesync report} on the committed example, through the real engine. */
class ReportCommandTest {

    @TempDir
    Path dir;

    private static final Path EXAMPLE = SimulateCommandTest.repository().resolve("examples/cluster-3/jsonl");

    private Path syncExample() {
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", "-q", EXAMPLE.resolve("h1.jsonl").toString(),
                EXAMPLE.resolve("h2.jsonl").toString(), EXAMPLE.resolve("h3.jsonl").toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        return result;
    }

    @Test
    void reportWithTracesAndTruthDrawsExactHullsAndRendersCleanly() throws Exception {
        Path result = syncExample();
        Path html = Path.of("target").toAbsolutePath().resolve("report-cluster-3.html");
        Files.createDirectories(html.getParent());
        CommandRun run = CommandRun.of("report", result.toString(), EXAMPLE.resolve("h1.jsonl").toString(),
                EXAMPLE.resolve("h2.jsonl").toString(), EXAMPLE.resolve("h3.jsonl").toString(),
                "--truth", EXAMPLE.resolve("truth.json").toString(), "-o", html.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("report written to " + html + " (2052 messages, 0 inversions after correction)\n");
        String page = Files.readString(html);
        assertThat(page).contains("exact hulls", "No warnings: no message travels backwards in time after correction.",
                "<h3>h1 – h2", "<h3>h2 – h3", "true error (truth file)", "true conversion (truth file)");
        Assumptions.assumeTrue(Files.isExecutable(HeadlessChromium.CHROMIUM),
                "chromium is not installed: rendering skipped");
        List<String> console = HeadlessChromium.render(html,
                html.resolveSibling("report-cluster-3.png"), 1400, 4600);
        assertThat(console).isEmpty();
    }

    /** A one-way node's bound has one side: the report draws that side (dashed) and says the other is unbounded. */
    @Test
    void aOneWayNodeIsDrawnWithItsOneSide() throws Exception {
        Path in = dir.resolve("oneway.txt");
        Files.writeString(in, "3\n0 1 1.0 1.5\n1 0 2.0 1.7\n0 1 2.5 2.9\n1 2 3.0 2.9\n1 2 4.0 4.3\n1 2 5.0 5.1\n");
        Path result = dir.resolve("oneway.json");
        CommandRun sync = CommandRun.of("sync", "-q", in.toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        Path html = dir.resolve("oneway.html");
        CommandRun run = CommandRun.of("report", result.toString(), in.toString(), "-o", html.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String page = Files.readString(html);
        String node2 = page.substring(page.indexOf("Accuracy of 2"));
        assertThat(node2).contains("−Δ− only (no upper bound)").contains("stroke-dasharray=\"4,3\"");
        assertThat(page).contains("One-sided bounds: the true time of the reference is bounded on one side only")
                .doesNotContain("No accuracy bounds for this node");
    }

    @Test
    void unreadableTracesStillGiveAReportAndExitThree() throws IOException {
        Path result = syncExample();
        Path bad = dir.resolve("h1.jsonl");
        Files.writeString(bad, "{\"node\":\"h1\",\"t\":1,\"dir\":\"send\",\"msg\":\"x\"}\nnot json\n");
        Path html = dir.resolve("r.html");
        CommandRun run = CommandRun.of("report", result.toString(), bad.toString(), EXAMPLE.resolve("h2.jsonl").toString(),
                "-o", html.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).startsWith("tracesync: " + bad + ":line 2: not valid JSON")
                .endsWith("(report written to " + html + " without the message plots)\n");
        assertThat(Files.readString(html)).contains("traces could not be read, so message points are not drawn: "
                + bad + ":line 2: not valid JSON", "Node h1");
        // a missing trace: same
        run = CommandRun.of("report", result.toString(), dir.resolve("gone.jsonl").toString(), "-o", html.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).startsWith("tracesync: " + dir.resolve("gone.jsonl") + ": no such file or directory");
    }

    @Test
    void capturesWithBroadcastsPlotDifferentialDelays() throws IOException {
        Path sim = dir.resolve("sim");
        CommandRun run = CommandRun.of("simulate", "--nodes", "3", "--topology", "mesh", "--seed", "4", "--duration", "2s",
                "--rate", "20", "--broadcast", "10", "--format", "pcap", "-o", sim.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> captures = List.of(sim.resolve("h1.pcapng").toString(), sim.resolve("h2.pcapng").toString(),
                sim.resolve("h3.pcapng").toString());
        Path result = dir.resolve("bcast.json");
        assertThat(CommandRun.of("sync", "-q", captures.get(0), captures.get(1), captures.get(2), "-o",
                result.toString()).exitCode()).isZero();
        Path html = dir.resolve("bcast.html");
        run = CommandRun.of("report", result.toString(), captures.get(0), captures.get(1), captures.get(2),
                "-o", html.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.readString(html)).contains("broadcast differential delay", "groups seen by several hosts");
    }

    @Test
    void largeMeshesDrawAtMostSixtyPairsAndKeepThoseOnThePaths() throws IOException {
        Path sim = dir.resolve("mesh12");
        CommandRun run = CommandRun.of("simulate", "--nodes", "12", "--topology", "mesh", "--seed", "5", "--duration", "2s",
                "--rate", "5", "--format", "text", "-o", sim.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path trace = sim.resolve("messages.txt");
        Path result = dir.resolve("mesh12.json");
        assertThat(CommandRun.of("sync", "-q", trace.toString(), "-o", result.toString()).exitCode()).isZero();
        Path html = dir.resolve("mesh12.html");
        run = CommandRun.of("report", result.toString(), trace.toString(), "-o", html.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String page = Files.readString(html);
        // a 12-node full mesh has 66 pairs
        assertThat(page).contains("60 of 66 pairs are drawn");
        assertThat(page.split("<h3>", -1).length - 1).isEqualTo(60);
        SyncResult r = org.tracesync.formats.result.ResultFile.read(result);
        for (NodeResult n : r.nodes()) {
            for (int i = 0; i + 1 < n.path().size(); i++) {
                String a = n.path().get(i);
                String b = n.path().get(i + 1);
                assertThat(page).as("pair %s-%s on a path is drawn", a, b)
                        .containsAnyOf("<h3>" + a + " – " + b, "<h3>" + b + " – " + a);
            }
        }
    }

    @Test
    void tracesInAnotherOrderThanTheResultStillPlotEachNodesLatencies() throws IOException {
        Path result = syncExample();
        Path html = dir.resolve("reordered.html");
        CommandRun run = CommandRun.of("report", result.toString(), EXAMPLE.resolve("h3.jsonl").toString(),
                EXAMPLE.resolve("h1.jsonl").toString(), EXAMPLE.resolve("h2.jsonl").toString(), "-o", html.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).contains("sent by h1: +latency", "sent by h3: +latency", "No warnings");
    }

    @Test
    void reportWithoutTracesSaysHowToGetThePlots() {
        Path result = syncExample();
        Path html = dir.resolve("plain.html");
        CommandRun run = CommandRun.of("report", result.toString(), "-o", html.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(html).content().contains("No traces were given", "Accuracy of h1 (Figure 6)");
    }
}
