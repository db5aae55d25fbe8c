package org.tracesync.formats.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.SharedData;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.lttv.LttvTextInput;

class ResultFileTest {

    @TempDir
    Path tmp;

    /** Issue #11 item 3: an incomplete node's bounds where finite, with null (absent) sides elsewhere. */
    @Test
    void oneSidedRowsAreWrittenAsNullAndReadBack() throws Exception {
        // test4: the drift is unbounded above (incomplete): node 0's reference time (on node 1's clock)
        // has an upper bound only up to its last message to 1, a lower bound only from 1's first reply
        SyncResult r = Synchronizer.synchronize(LttvTextInput.open(SharedData.file("lttv-text/test4.txt")),
                Synchronizer.Options.defaults().withReference("1")).result();
        NodeResult n = r.node("0");
        assertThat(n.quality()).isEqualTo(Quality.INCOMPLETE);
        assertThat(n.bounds().isEmpty()).isFalse();
        assertThat(n.bounds().plus(54_530_000_000L)).isFinite();
        assertThat(n.bounds().plus(54_530_000_001L)).isInfinite();
        assertThat(n.bounds().minus(58_260_000_000L)).isFinite();
        assertThat(n.bounds().minus(58_259_999_999L)).isInfinite();
        assertThat(n.bounds().twoSided()).isFalse();
        Path f = tmp.resolve("incomplete.json");
        ResultFile.write(r, f);
        JsonNode rows = new ObjectMapper().readTree(f.toFile()).get("nodes").get(n.name().equals("0") ? 0 : 1).get("bounds");
        boolean sawNull = false;
        for (JsonNode row : rows) {
            sawNull |= row.get(1).isNull() || row.get(2).isNull();
        }
        assertThat(sawNull).isTrue();
        NodeResult back = ResultFile.read(f).node(n.name());
        assertThat(back.bounds()).isEqualTo(n.bounds());
        long mid = (n.start() + n.end()) / 2;
        assertThat(back.bounds().at(mid)).containsExactly(n.bounds().at(mid));
    }

    @Test
    void writesTheDesignContractAndReadsItBack() throws Exception {
        Path in = tmp.resolve("epoch.txt");
        Files.writeString(in, "2\n0 1 1700000000.000100000 1700000000.080200000\n0 1 1700000060.000100000 1700000060.080260000\n"
                + "1 0 1700000000.080300000 1700000000.000250000\n1 0 1700000060.080400000 1700000060.000390000\n");
        SyncResult r = Synchronizer.synchronize(LttvTextInput.open(in), Synchronizer.Options.defaults()).result();
        Path out = tmp.resolve("sub/result.json");
        ResultFile.write(r, out);
        String text = Files.readString(out);
        JsonNode root = new ObjectMapper().readTree(text);
        assertThat(root.get("format").asText()).isEqualTo("tracesync/1");
        assertThat(root.get("reference").asText()).isEqualTo("0");
        JsonNode node1 = root.get("nodes").get(1);
        assertThat(node1.get("reference").asText()).isEqualTo("0");
        assertThat(node1.get("quality").asText()).isEqualTo("accurate");
        JsonNode seg = node1.get("transform").get("segments").get(0);
        assertThat(seg.get("from").isNull()).isTrue();
        assertThat(seg.get("origin").isIntegralNumber()).as("origin stays an integer").isTrue();
        assertThat(seg.get("origin").asLong()).isGreaterThan(1_700_000_000_000_000_000L);
        assertThat(text).doesNotContainPattern("\\d\\.\\d+E18");
        JsonNode row = node1.get("bounds").get(0);
        assertThat(row.get(0).isIntegralNumber()).isTrue();
        assertThat(root.get("pairs").get(0).get("messages").get("a_to_b").asLong()).isEqualTo(2);
        assertThat(root.get("pairs").get(0).get("hull_points").get("b_to_a").asInt()).isEqualTo(2);
        // no temporary file left behind
        try (var files = Files.list(out.getParent())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("result.json");
        }
        SyncResult back = ResultFile.read(out);
        assertThat(back.reference()).isEqualTo("0");
        NodeResult n1 = back.node("1");
        assertThat(n1.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(n1.transform()).isEqualTo(r.node("1").transform());
        assertThat(n1.bounds()).isEqualTo(r.node("1").bounds());
        assertThat(back.pairs()).hasSize(1);
    }

    /**
     * Issue #13: a segment that starts at a clock step carries the step's either-side local times
     * ({@code either_from}, {@code either_to}: integers, only on such segments) and reads them back,
     * so eval and apply place the ends around the step as sync did. Two nodes, 20 minutes at 50
     * messages/s each way, a step of −4.1 ms and one of +4.3 ms on node 1's clock (seed 1).
     */
    @Test
    void aStepsEitherSideTimesAreWrittenAndReadBack() throws Exception {
        org.tracesync.core.simulate.LatencyModel latency = new org.tracesync.core.simulate.LatencyModel(30_000, 30_000,
                org.tracesync.core.simulate.LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        long start = org.tracesync.core.simulate.SimulationConfig.DEFAULT_START;
        long duration = 20 * 60_000_000_000L;
        List<org.tracesync.core.simulate.ClockModel> clocks = org.tracesync.core.simulate.SimulationConfig.randomClocks(
                org.tracesync.core.simulate.SimulationConfig.names(2, null), start, 1, 1_000_000_000L, 50e-6, 0.0);
        clocks = org.tracesync.core.simulate.ClockWander.NONE.withSteps(2, 5_000_000L).apply(clocks, 1, start, duration);
        var config = new org.tracesync.core.simulate.SimulationConfig(1, clocks,
                org.tracesync.core.simulate.Topology.CHAIN.links(2, latency), start, duration, 50, false, 0, 0.0,
                org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        SyncResult r = Synchronizer.synchronize(new org.tracesync.core.model.MessageInput() {
            @Override
            public List<org.tracesync.core.model.NodeInfo> nodes() {
                return config.names().stream().map(n -> new org.tracesync.core.model.NodeInfo(n, "sim")).toList();
            }

            @Override
            public void readMessages(org.tracesync.core.model.MessageSink sink) {
                new org.tracesync.core.simulate.ClusterSimulator(config).run(sink);
            }
        }, Synchronizer.Options.defaults().withReference("0")).result();
        Path out = tmp.resolve("steps.json");
        ResultFile.write(r, out);
        JsonNode segs = new ObjectMapper().readTree(out.toFile()).get("nodes").get(1).get("transform").get("segments");
        assertThat(segs).hasSize(3);
        assertThat(segs.get(0).has("either_from")).isFalse();
        for (int k = 1; k < 3; k++) {
            JsonNode s = segs.get(k);
            assertThat(s.get("either_from").isIntegralNumber()).isTrue();
            assertThat(s.get("either_to").isIntegralNumber()).isTrue();
            // the cut lies inside the step's either-side times
            assertThat(s.get("from").asLong()).isBetween(s.get("either_from").asLong(), s.get("either_to").asLong());
        }
        NodeResult back = ResultFile.read(out).node("1");
        assertThat(back.transform()).isEqualTo(r.node("1").transform());
        assertThat(back.transform().segments().get(1).eitherFrom()).isEqualTo(segs.get(1).get("either_from").asLong());
    }

    /**
     * Issue #11 item 6: a regression pair writes its statistics as the optional {@code regression}
     * object (docs/RESULT_FORMAT.md), NaN as null, and reads them back; other pairs have none.
     */
    @Test
    void regressionStatisticsAreWrittenAndReadBack() throws Exception {
        Path in = tmp.resolve("epoch.txt");
        Files.writeString(in, "2\n0 1 1700000000.000100000 1700000000.080200000\n0 1 1700000060.000100000 1700000060.080260000\n"
                + "1 0 1700000000.080300000 1700000000.000250000\n1 0 1700000060.080400000 1700000060.000390000\n");
        SyncResult r = Synchronizer.synchronize(LttvTextInput.open(in), Synchronizer.Options.defaults()
                .withEstimator(Synchronizer.Estimator.REGRESSION)).result();
        org.tracesync.core.estimate.RegressionStatistics stats = r.pairs().get(0).regression();
        assertThat(stats.samplesFrom()).isEqualTo("paired messages");
        assertThat(stats.samples()).isEqualTo(2);
        Path out = tmp.resolve("regression.json");
        ResultFile.write(r, out);
        JsonNode pair = new ObjectMapper().readTree(Files.readString(out)).get("pairs").get(0);
        JsonNode reg = pair.get("regression");
        assertThat(reg.get("samples_from").asText()).isEqualTo("paired messages");
        assertThat(reg.get("samples").isIntegralNumber()).isTrue();
        assertThat(reg.get("samples").asInt()).isEqualTo(2);
        assertThat(reg.get("rejected").asInt()).isZero();
        assertThat(reg.get("confidence").asDouble()).isEqualTo(0.95);
        assertThat(reg.get("drift").get("standard_error").isNull()).as("two samples: no standard error").isTrue();
        assertThat(reg.get("offset").get("interval").isNull()).isTrue();
        assertThat(ResultFile.read(out).pairs().get(0).regression()).isEqualTo(stats);
        // a pair whose line is the bisector has no regression object
        SyncResult plain = Synchronizer.synchronize(LttvTextInput.open(in), Synchronizer.Options.defaults()).result();
        ResultFile.write(plain, out);
        assertThat(new ObjectMapper().readTree(Files.readString(out)).get("pairs").get(0).has("regression")).isFalse();
        assertThat(ResultFile.read(out).pairs().get(0).regression()).isNull();
    }

    @Test
    void corruptResultFilesAreClearErrors() throws Exception {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"format\": \"tracesync/1\", \"reference\": \"a\", \"nodes\": [ {\"name\": 3} ]}");
        assertThatThrownBy(() -> ResultFile.read(bad)).isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("nodes[0].name").hasMessageContaining("expected a string");
        Files.writeString(bad, "{\"format\": \"other\"}");
        assertThatThrownBy(() -> ResultFile.read(bad)).hasMessageContaining("expected \"tracesync/1\"");
        Files.writeString(bad, "{\"format\": ");
        assertThatThrownBy(() -> ResultFile.read(bad)).isInstanceOf(TraceFormatException.class).hasMessageContaining("not valid JSON");
    }

    @Test
    void threeHostsMessagesSynchronizeAndTheBoundsContainTheTruth() throws Exception {
        // messages.txt lists the uniquely matching segments of all six directions: every pair is
        // accurate, and every node's bounds hold the true clock at every message instant.
        Path messages = SharedData.file("pcap/three-hosts/messages.txt");
        LttvTextInput input = LttvTextInput.open(messages);
        SyncResult r = Synchronizer.synchronize(input, Synchronizer.Options.defaults()).result();
        assertThat(r.stats().get("messages")).isEqualTo(19442L);
        assertThat(r.reference()).isEqualTo("h3");
        for (String n : List.of("h1", "h2")) {
            assertThat(r.node(n).quality()).isEqualTo(Quality.ACCURATE);
            assertThat(r.node(n).reference()).isEqualTo("h3");
        }

        JsonNode truth = new ObjectMapper().readTree(SharedData.file("pcap/three-hosts/truth.json").toFile());
        long t0 = truth.get("T0").asLong();
        Map<String, double[]> model = new HashMap<>(); // name -> {alpha, beta}
        for (JsonNode n : truth.get("nodes")) {
            assertThat(n.get("delta").asDouble()).isZero();
            model.put(n.get("name").asText(), new double[] {n.get("alpha").asDouble(), n.get("beta").asDouble()});
        }
        double[] ref = model.get("h3");
        List<String> names = input.nodes().stream().map(org.tracesync.core.model.NodeInfo::name).toList();
        int[] checked = {0};
        double[] worst = {0};
        input.readMessages((s, d, ts, tr) -> {
            for (int k = 0; k < 2; k++) {
                String name = names.get(k == 0 ? s : d);
                long t = k == 0 ? ts : tr;
                double[] m = model.get(name);
                // local t = T + alpha + beta (T - T0): the true time, then h3's clock at that time
                double tau = ((double) (t - t0) - m[0]) / (1 + m[1]);
                double truthCorr = tau + ref[0] + ref[1] * tau - (double) (t - t0);
                NodeResult node = r.node(name);
                double est = node.transform().correction(t);
                double[] mp = node.bounds().at(t);
                if (!name.equals("h3")) {
                    assertThat(truthCorr).as("%s at %d", name, t).isBetween(est - mp[0] - 1, est + mp[1] + 1);
                }
                worst[0] = Math.max(worst[0], Math.abs(truthCorr - est));
                checked[0]++;
            }
        });
        assertThat(checked[0]).isEqualTo(2 * 19442);
        assertThat(worst[0]).isLessThan(2_000);
    }
}
