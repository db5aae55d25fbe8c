package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code tracesync latency} on simulated three-tier requests in JSON lines (the acceptance
 * set): every instance measured, the true latency inside the error bar, bars as narrow as the
 * hulls allow.
 */
class LatencyCommandTest {

    @TempDir
    Path tmp;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void twentyThousandThreeTierRequestsAreMeasuredWithBarsThatHoldTheTruth() throws Exception {
        ThreeTierRequests sim = new ThreeTierRequests(tmp, 20_000, 14);
        Path out = tmp.resolve("latency.json");
        Path inst = tmp.resolve("instances.jsonl");
        List<String> args = new ArrayList<>(List.of("latency"));
        for (Path f : sim.files) {
            args.add(f.toString());
        }
        args.addAll(List.of("-o", out.toString(), "--instances", inst.toString(), "-q"));
        CommandRun run = CommandRun.of(args.toArray(new String[0]));
        assertThat(run.exitCode()).as(run.err()).isZero();

        long lines = 0;
        long inside = 0;
        long crossNode = 0;
        double crossWidth = 0;
        long maxCrossWidth = 0;
        try (BufferedReader r = Files.newBufferedReader(inst, StandardCharsets.UTF_8)) {
            String line;
            while ((line = r.readLine()) != null) {
                JsonNode n = JSON.readTree(line);
                lines++;
                String event = n.get("event").asText();
                long seq = n.get("seq").asLong();
                String key;
                if (n.has("node")) {
                    key = event + "/" + seq;
                } else if (n.has("end_to_end")) {
                    key = event + "/" + seq + "/e2e";
                } else {
                    key = event + "/" + seq + "/" + n.get("from_step").asInt() + "/" + n.get("to_step").asInt();
                }
                Long truth = sim.truth.get(key);
                assertThat(truth).as(line).isNotNull();
                assertThat(n.get("minus_ns").isNumber()).as(line).isTrue();
                long latency = n.get("latency_ns").asLong();
                long minus = n.get("minus_ns").asLong();
                long plus = n.get("plus_ns").asLong();
                if (truth >= latency - minus && truth <= latency + plus) {
                    inside++;
                }
                if (n.has("from_node") && !n.get("from_node").asText().equals(n.get("to_node").asText())) {
                    crossNode++;
                    crossWidth += minus + plus;
                    maxCrossWidth = Math.max(maxCrossWidth, minus + plus);
                }
            }
        }
        // every instance: 7 transitions + 1 end to end per request, 2 simple events per request
        assertThat(lines).isEqualTo(sim.truth.size()).isEqualTo(20_000L * (7 + 1 + 2));
        assertThat((double) inside / lines).isGreaterThanOrEqualTo(0.999);
        assertThat(inside).isEqualTo(lines); // with linear clocks the bars are strict
        // 4 of the 7 transitions cross machines. No bar can be narrower than the hulls' corridor,
        // whose width is at least the sum of the two directions' smallest delays (40 us each here):
        // the bars must come within 5 % of that limit on average
        assertThat(crossNode).isEqualTo(20_000L * 4);
        assertThat(crossWidth / crossNode).isBetween(80_000.0, 84_000.0);
        System.out.printf("latency: %d instances, %d inside, cross-node mean bar %.0f ns, max %d ns%n",
                lines, inside, crossWidth / crossNode, maxCrossWidth);

        JsonNode doc = JSON.readTree(out.toFile());
        assertThat(doc.get("format").asText()).isEqualTo("tracesync-latency/1");
        JsonNode chained = doc.get("chained").get(0);
        assertThat(chained.get("event").asText()).isEqualTo("order");
        assertThat(chained.get("instances").asLong()).isEqualTo(20_000);
        assertThat(chained.get("complete").asLong()).isEqualTo(20_000);
        assertThat(chained.get("transitions")).hasSize(7);
        JsonNode t12 = chained.get("transitions").get(0);
        assertThat(t12.get("from_node").asText()).isEqualTo("client");
        assertThat(t12.get("to_node").asText()).isEqualTo("server");
        assertThat(t12.get("count").asLong()).isEqualTo(20_000);
        // the true minimum network delay is 40 us; min's bar must contain the true minimum
        long trueMin = Long.MAX_VALUE;
        for (int s = 1; s <= 20_000; s++) {
            trueMin = Math.min(trueMin, sim.truth.get("order/" + s + "/1/2"));
        }
        JsonNode min = t12.get("min");
        assertThat(trueMin).isBetween(min.get("ns").asLong() - min.get("minus_ns").asLong(),
                min.get("ns").asLong() + min.get("plus_ns").asLong());
        assertThat(doc.get("simple")).hasSize(2);
        assertThat(doc.get("measurements").get("bounded").asLong()).isEqualTo(lines);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void seededSkewsKeepEveryTrueLatencyInsideItsBar(long seed) throws Exception {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed * 7919);
        long[] alpha = new long[3];
        double[] beta = new double[3];
        for (int k = 0; k < 3; k++) {
            alpha[k] = rnd.nextLong(-2_000_000_000L, 2_000_000_000L);
            beta[k] = rnd.nextDouble(-90e-6, 90e-6);
        }
        ThreeTierRequests sim = new ThreeTierRequests(tmp, 2_000, seed, alpha, beta);
        Path inst = tmp.resolve("instances.jsonl");
        List<String> args = new ArrayList<>(List.of("latency"));
        for (Path f : sim.files) {
            args.add(f.toString());
        }
        args.addAll(List.of("--instances", inst.toString(), "-q"));
        CommandRun run = CommandRun.of(args.toArray(new String[0]));
        assertThat(run.exitCode()).as(run.err()).isZero();
        long outside = 0;
        long lines = 0;
        for (String line : Files.readAllLines(inst)) {
            JsonNode n = JSON.readTree(line);
            lines++;
            String event = n.get("event").asText();
            long seq = n.get("seq").asLong();
            String key = n.has("node") ? event + "/" + seq : n.has("end_to_end") ? event + "/" + seq + "/e2e"
                    : event + "/" + seq + "/" + n.get("from_step").asInt() + "/" + n.get("to_step").asInt();
            long truth = sim.truth.get(key);
            long latency = n.get("latency_ns").asLong();
            if (truth < latency - n.get("minus_ns").asLong() || truth > latency + n.get("plus_ns").asLong()) {
                outside++;
            }
        }
        assertThat(lines).isEqualTo(2_000L * 10);
        assertThat(outside).isZero();
    }

    /**
     * The server's drift changes by 80 ppm halfway (a kink: no line fits the client/server and
     * server/backend pairs, they become piecewise): every measurement still gets a bar, and every
     * true latency lies inside it.
     */
    @ParameterizedTest
    @ValueSource(longs = {4, 5})
    void piecewisePairsGiveBarsThatHoldTheTruth(long seed) throws Exception {
        long[] alpha = {37_000_000L, -12_345_678L, 5_432_100L};
        double[] beta = {42e-6, -31e-6, 18e-6};
        double[] beta2 = {42e-6, -31e-6 + (seed % 2 == 0 ? 80e-6 : -80e-6), 18e-6};
        int requests = 6_000;
        long kink = ThreeTierRequests.T0 + 1_000_000_000L + requests * 1_500_000L;
        ThreeTierRequests sim = new ThreeTierRequests(tmp, requests, seed, alpha, beta, beta2, kink);
        Path inst = tmp.resolve("instances.jsonl");
        Path out = tmp.resolve("latency.json");
        List<String> args = new ArrayList<>(List.of("latency"));
        for (Path f : sim.files) {
            args.add(f.toString());
        }
        args.addAll(List.of("--instances", inst.toString(), "-o", out.toString(), "-q"));
        CommandRun run = CommandRun.of(args.toArray(new String[0]));
        JsonNode doc = JSON.readTree(out.toFile());
        assertThat(doc.get("synchronization").get("pairs").toString()).contains("\"quality\":\"piecewise\"");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(doc.get("measurements").get("bounded").asLong()).isEqualTo(requests * 10L);
        long outside = 0;
        for (String line : Files.readAllLines(inst)) {
            JsonNode n = JSON.readTree(line);
            String event = n.get("event").asText();
            long seq = n.get("seq").asLong();
            String key = n.has("node") ? event + "/" + seq : n.has("end_to_end") ? event + "/" + seq + "/e2e"
                    : event + "/" + seq + "/" + n.get("from_step").asInt() + "/" + n.get("to_step").asInt();
            long truth = sim.truth.get(key);
            long latency = n.get("latency_ns").asLong();
            if (truth < latency - n.get("minus_ns").asLong() || truth > latency + n.get("plus_ns").asLong()) {
                outside++;
            }
        }
        assertThat(outside).isZero();
    }

    @Test
    void aBadLineIsOneMessageWithFileAndLineAndNoOutputIsWritten() throws Exception {
        Path f = tmp.resolve("x.jsonl");
        Files.writeString(f, "{\"node\":\"x\",\"t\":10,\"event\":\"o\",\"seq\":1,\"step\":1}\n"
                + "{\"node\":\"x\",\"t\":11,\"event\":\"o\",\"seq\":1,\"phase\":\"end\"}\n");
        Path out = tmp.resolve("latency.json");
        CommandRun run = CommandRun.of("latency", f.toString(), "-o", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.INPUT);
        assertThat(run.err().strip()).isEqualTo("tracesync: " + f + ":line 2: \"phase\" must be \"start\" or \"stop\", got \"end\"");
        assertThat(out).doesNotExist();
        assertThat(tmp.toFile().list()).containsExactly("x.jsonl");
    }

    @Test
    void oneWayChainsGiveCrossNodeEstimatesWithoutErrorBarsAndExitOne() throws Exception {
        // x -> y only: the pair is one-way, so y is placed on x's clock by the smallest correction
        // (none: y reads 5 s late, nothing is violated) with a one-sided bound: the cross-node
        // latencies have an estimate but no error bar
        StringBuilder b = new StringBuilder();
        for (int s = 1; s <= 20; s++) {
            long t = 1_000_000L * s;
            b.append("{\"node\":\"x\",\"t\":").append(t).append(",\"event\":\"o\",\"seq\":").append(s).append(",\"step\":1}\n");
            b.append("{\"node\":\"y\",\"t\":").append(t + 5_000_000_000L).append(",\"event\":\"o\",\"seq\":").append(s)
                    .append(",\"step\":2}\n");
            b.append("{\"node\":\"x\",\"t\":").append(t + 10).append(",\"event\":\"r\",\"seq\":").append(s)
                    .append(",\"phase\":\"start\"}\n");
            b.append("{\"node\":\"x\",\"t\":").append(t + 35).append(",\"event\":\"r\",\"seq\":").append(s)
                    .append(",\"phase\":\"stop\"}\n");
        }
        Path f = tmp.resolve("both.jsonl");
        Files.writeString(f, b);
        Path out = tmp.resolve("latency.json");
        Path inst = tmp.resolve("i.jsonl");
        CommandRun run = CommandRun.of("latency", f.toString(), "-o", out.toString(), "--instances", inst.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.SYNC_INCOMPLETE);
        assertThat(run.err()).contains("40 of 60 measurements have no error bar");
        JsonNode doc = JSON.readTree(out.toFile());
        assertThat(doc.get("measurements").get("bounded").asLong()).isEqualTo(20);
        assertThat(doc.get("measurements").get("estimate_only").asLong()).isEqualTo(40);
        assertThat(doc.get("measurements").get("unsynchronized").asLong()).isZero();
        JsonNode t = doc.get("chained").get(0).get("transitions").get(0);
        assertThat(t.get("count").asLong()).isEqualTo(20);
        assertThat(t.get("unsynchronized").asLong()).isZero();
        assertThat(t.get("p50").get("ns").asLong()).isEqualTo(5_000_000_000L);
        assertThat(t.get("p50").get("minus_ns").isNull()).isTrue();
        assertThat(doc.get("synchronization").get("nodes").get(1).get("quality").asText()).isEqualTo("one-way");
        JsonNode r = doc.get("simple").get(0).get("nodes").get(0);
        assertThat(r.get("p50").get("ns").asLong()).isEqualTo(25);
        List<String> lines = Files.readAllLines(inst);
        assertThat(lines.get(0)).contains("\"latency_ns\":5000000000,\"minus_ns\":null");
        assertThat(lines.get(lines.size() - 1)).contains("\"latency_ns\":25,\"minus_ns\":1,\"plus_ns\":1");
    }

    @Test
    void theReportShowsStatisticsDistributionsAChainTimelineAndRendersCleanly() throws Exception {
        ThreeTierRequests sim = new ThreeTierRequests(tmp, 300, 5);
        Path html = tmp.resolve("latency.html");
        List<String> args = new ArrayList<>(List.of("latency", "-q", "--report", html.toString()));
        sim.files.forEach(f -> args.add(f.toString()));
        CommandRun run = CommandRun.of(args.toArray(new String[0]));
        assertThat(run.exitCode()).as(run.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).contains("<table id=\"statistics\">").contains("step 1 → 2 (client → server)")
                .contains("end to end 1 → 8 (client → client)").contains("chains across machines")
                .contains("<table id=\"sync-pairs\">");
        // a CDF per cross-node transition (4) and per end to end (1), plus the timeline
        assertThat(page.split("<svg", -1).length - 1).isEqualTo(6);
        if (HeadlessChromium.available()) {
            Path target = Path.of("target").toAbsolutePath();
            Files.createDirectories(target);
            Path copy = target.resolve("latency-report-test.html");
            Files.copy(html, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            assertThat(HeadlessChromium.render(copy, target.resolve("latency-report-test.png"), 1300, 4000)).isEmpty();
        }
    }

    /**
     * A span file is synchronization input, read as spans (not as latency lines): its hosts are nodes
     * of their own here (no probe recorded them), synchronized with each other by their CLIENT/SERVER
     * call, and listed in latency.json; a probed machine's spans join its node (RealtimeJoinTest).
     */
    @Test
    void aSpanFileIsSynchronizationInputNotMisreadAsLatencyLines() throws Exception {
        Path lines = tmp.resolve("a.jsonl");
        Files.writeString(lines, "{\"node\":\"x\",\"t\":10,\"event\":\"o\",\"seq\":1,\"step\":1}\n"
                + "{\"node\":\"x\",\"t\":510,\"event\":\"o\",\"seq\":1,\"step\":2}\n");
        Path otlp = tmp.resolve("traces.json");
        String span = "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"host.name\",\"value\":{\"stringValue\":\"%s\"}}]},"
                + "\"scopeSpans\":[{\"spans\":[{\"traceId\":\"0123456789abcdef0123456789abcdef\",\"spanId\":\"%s\","
                + "\"parentSpanId\":\"%s\",\"kind\":%d,\"startTimeUnixNano\":\"%d\",\"endTimeUnixNano\":\"%d\"}]}]}]}\n";
        Files.writeString(otlp, String.format(span, "span-a", "00000000000000a1", "", 3, 1_700_000_000_000_000_000L,
                1_700_000_000_000_900_000L) + String.format(span, "span-b", "00000000000000b1", "00000000000000a1", 2,
                1_700_000_000_000_200_000L, 1_700_000_000_000_700_000L));
        Path out = tmp.resolve("latency.json");
        CommandRun run = CommandRun.of("latency", lines.toString(), otlp.toString(), "-o", out.toString(), "-q");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode doc = JSON.readTree(out.toFile());
        assertThat(doc.get("measurements").get("bounded").asLong()).isEqualTo(2); // 1 -> 2 and its end to end
        List<String> nodes = new ArrayList<>();
        doc.get("synchronization").get("nodes").forEach(n -> nodes.add(n.get("name").asText() + "/" + n.get("quality").asText()));
        // x is alone; the span hosts are a pair (one call: a message each way, drift not bounded)
        assertThat(nodes).containsExactlyInAnyOrder("x/absent", "span-a/reference", "span-b/incomplete");
    }
}
