package org.tracesync.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.tracesync.cli.HeadlessChromium;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;

class HtmlReportTest {

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
        Assumptions.assumeTrue(HeadlessChromium.available(), "chromium is not installed at "
                + HeadlessChromium.CHROMIUM + ": report rendering test skipped (.ci/run installs it)");
        SimulationConfig config = SimulationConfig.cluster(SimulationConfig.names(3, "h"), Topology.CHAIN, 9, 200)
                .withTraffic(5_000_000_000L, 200);
        Path target = Path.of("target").toAbsolutePath();
        Files.createDirectories(target);
        Path html = target.resolve("report-test.html");
        Files.writeString(html, page(config), StandardCharsets.UTF_8);
        Path png = target.resolve("report-test.png");
        List<String> console = HeadlessChromium.render(html, png, 1400, 5200);
        assertThat(console).as("console messages").isEmpty();
        assertThat(Files.size(png)).isGreaterThan(50_000);
    }

    /** Issue #12 item 14: a zoom on a 2.5 µs corridor between clouds with 5,000 µs tails is framed on the corridor. */
    @Test
    void zoomIsFramedOnTheCorridorNotOnTheTails() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        int n = 2000;
        double[][] ab = new double[2][n];
        double[][] ba = new double[2][n];
        for (int i = 0; i < n; i++) {
            ab[0][i] = i * 0.01;
            ba[0][i] = i * 0.01 + 0.005;
            // corridor: b->a below -1,000,000 µs, a->b above -999,997.5 µs; exponential tails of 5,000 µs
            ab[1][i] = -999_997.5 + -5000 * Math.log(1 - r.nextDouble());
            ba[1][i] = -1_000_000 - -5000 * Math.log(1 - r.nextDouble());
        }
        double[] w = HtmlReport.densestWindow(ab, ba);
        // the corridor between the extreme points of the window (a few tens of µs here) padded by a quarter each
        // side, not the clouds' quartiles (thousands of µs)
        double top = Double.MAX_VALUE;
        double bottom = -Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            if (ab[0][i] >= w[0] && ab[0][i] <= w[1]) {
                top = Math.min(top, ab[1][i]);
            }
            if (ba[0][i] >= w[0] && ba[0][i] <= w[1]) {
                bottom = Math.max(bottom, ba[1][i]);
            }
        }
        assertThat(w[3] - w[2]).as("height of the zoom").isCloseTo(1.5 * (top - bottom),
                org.assertj.core.api.Assertions.within(1e-6)).isLessThan(300.0);
        assertThat(w[2]).isLessThan(-999_990.0);
        assertThat(w[3]).isGreaterThan(-999_990.0);
    }

    /** A drifting corridor (29 ppm: 29 µs per s) is followed, not taken for crossing clouds. */
    @Test
    void zoomFollowsADriftingCorridor() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        int n = 2000;
        double[][] ab = new double[2][n];
        double[][] ba = new double[2][n];
        for (int i = 0; i < n; i++) {
            ab[0][i] = i * 0.01;
            ba[0][i] = i * 0.01 + 0.005;
            ab[1][i] = 675_000 - 29 * ab[0][i] + 1 + 3000 * -Math.log(1 - r.nextDouble());
            ba[1][i] = 675_000 - 29 * ba[0][i] - 1 - 3000 * -Math.log(1 - r.nextDouble());
        }
        double[] w = HtmlReport.densestWindow(ab, ba, -29);
        double windowSeconds = w[1] - w[0];
        assertThat(w[3] - w[2]).isGreaterThan(29 * windowSeconds).isLessThan(29 * windowSeconds + 300);
        assertThat(w[2]).isLessThan(675_000 - 29 * w[1]);
        assertThat(w[3]).isGreaterThan(675_000 - 29 * w[0]);
    }

    /** Issue #12 item 12: widths are computed over the node's own span, not over rows extrapolated beyond it. */
    @Test
    void boundWidthsOverTheNodesOwnSpan() {
        List<org.tracesync.core.transform.BoundRow> rows = List.of(
                new org.tracesync.core.transform.BoundRow(-20_000_000_000L, 300_000, 183_700),
                new org.tracesync.core.transform.BoundRow(0, 60_000, 50_000),
                new org.tracesync.core.transform.BoundRow(10_000_000_000L, 100_000, 63_300),
                new org.tracesync.core.transform.BoundRow(20_000_000_000L, 60_000, 50_000),
                new org.tracesync.core.transform.BoundRow(40_000_000_000L, 300_000, 183_700));
        org.tracesync.core.transform.NodeBounds bounds = org.tracesync.core.transform.NodeBounds.ofRows(rows);
        double[] w = BoundWidths.over(bounds.rowsWithin(0, 20_000_000_000L));
        assertThat(w[1]).isEqualTo(163_300.0); // max within the data, not 483,700
        assertThat(w[0]).isCloseTo((110_000 + 163_300) / 2.0, org.assertj.core.api.Assertions.within(1e-6));
        // time-weighted: 5 s at the start are not worth the same as one row
        double[] part = BoundWidths.over(bounds.rowsWithin(5_000_000_000L, 20_000_000_000L));
        double at5 = 80_000 + 56_650;
        assertThat(part[0]).isCloseTo(((at5 + 163_300) / 2 * 5 + (163_300 + 110_000) / 2.0 * 10) / 15,
                org.assertj.core.api.Assertions.within(1e-6));
    }

}
