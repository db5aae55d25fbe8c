package org.tracesync.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;

class HtmlReportTest {

    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    static String page(SimulationConfig config) {
        SyncResult result = TruthResults.fromTruth(config, 40_000);
        List<NodeInfo> nodes = config.names().stream().map(n -> new NodeInfo(n, "sim")).toList();
        ReportSampler sampler = new ReportSampler(result, nodes);
        new ClusterSimulator(config).run(sampler);
        Map<String, ClockModel> truth = config.clocks().stream().collect(Collectors.toMap(ClockModel::name, Function.identity()));
        return HtmlReport.render(new ReportInput("tracesync report: test", result, sampler,
                List.of("trace x.jsonl could not be read: line 3: missing field \"t\""), truth, Map.of()));
    }

    @Test
    void pageIsSelfContainedAndShowsEveryPart() {
        SimulationConfig config = SimulationConfig.cluster(SimulationConfig.names(3, "h"), Topology.MESH, 5, 100)
                .withTraffic(3_000_000_000L, 100);
        String html = page(config);
        // no network: nothing fetched (the SVG namespace is an identifier, not a request)
        assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://", "https://", "<script", "src=");
        assertThat(html).contains("<h2 id=\"node-h2\">Node h2", "<h3>h1 – h2", "Accuracy of h3 (Figure 6)",
                "Zoom on the densest region", "lower hull of h1 → h2", "upper hull of h2 → h1",
                "true error (truth file)", "line 3: missing field", "q-accurate");
        assertThat(html.length()).isLessThan(2_000_000);
    }

    @Test
    void densestWindowFramesTheCorridor() {
        double[][] ab = {{0, 1, 1.1, 1.2, 5}, {100, 100, 110, 400, 120}};
        double[][] ba = {{0, 1.05, 1.15, 1.2, 5}, {-50, -60, -40, -300, -70}};
        double[] w = HtmlReport.densestWindow(ab, ba);
        assertThat(w[0]).isLessThanOrEqualTo(1.0);
        assertThat(w[1]).isGreaterThanOrEqualTo(1.2);
        assertThat(w[2]).isBetween(-100.0, -40.0);
        assertThat(w[3]).isBetween(100.0, 160.0);
    }

    @Test
    void displayHullsAreHalfHulls() {
        double[][] lower = HtmlReport.hull(new double[] {0, 1, 2, 3}, new double[] {5, 1, 4, 0}, true);
        assertThat(lower[0]).containsExactly(0, 1, 3);
        double[][] upper = HtmlReport.hull(new double[] {0, 1, 2, 3}, new double[] {5, 1, 4, 0}, false);
        assertThat(upper[0]).containsExactly(0, 2, 3);
    }

    /**
     * Opens the page in headless Chromium: fails on any console message of level warning or error,
     * saves a screenshot under target/ for a human to look at.
     */
    @Test
    void rendersInHeadlessChromiumWithoutConsoleErrors() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM), "chromium is not installed at " + CHROMIUM
                + ": report rendering test skipped (.ci/run installs it)");
        SimulationConfig config = SimulationConfig.cluster(SimulationConfig.names(3, "h"), Topology.CHAIN, 9, 200)
                .withTraffic(5_000_000_000L, 200);
        Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        Path html = target.resolve("report-test.html");
        Files.writeString(html, page(config), StandardCharsets.UTF_8);
        Path png = target.resolve("report-test.png");
        List<String> console = renderInChromium(html, png, 1400, 5200);
        assertThat(console).as("console messages").isEmpty();
        assertThat(Files.size(png)).isGreaterThan(50_000);
    }

    /** Runs headless Chromium on {@code html}; returns the console messages it logged. */
    static List<String> renderInChromium(Path html, Path png, int width, int height) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("tracesync-chromium");
        Files.deleteIfExists(png);
        List<String> cmd = List.of(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--hide-scrollbars",
                "--screenshot=" + png, "--window-size=" + width + "," + height, html.toUri().toString());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        List<String> console = new ArrayList<>();
        for (String line : output.split("\n")) {
            if (line.contains("CONSOLE")) {
                console.add(line);
            }
        }
        assertThat(Files.exists(png)).as("screenshot written; chromium said:\n" + output).isTrue();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        return console;
    }
}
