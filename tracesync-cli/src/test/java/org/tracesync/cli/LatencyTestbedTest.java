package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.formats.latency.LatencyInputs;
import org.tracesync.probe.Probe;

/**
 * The whole latency loop for real (issue 14, part 3): examples/latency-three-tier runs a client,
 * a server and a backend in three network namespaces over real TCP, each process recording with
 * the probe library. All three share one kernel clock, so the true latencies are the unskewed
 * differences. The probe outputs are then rewritten with known clock models (offsets up to 1.3 s,
 * rates within ±60 ppm) as latency JSON lines; {@code tracesync latency} on them must measure every
 * instance and put every true latency inside its error bar. Skips with a message where namespaces
 * are unavailable (not root, no 'ip netns').
 */
class LatencyTestbedTest {

    @TempDir
    Path tmp;

    private static final long[] ALPHA = {250_000_000L, -1_300_000_000L, 17_000_000L};
    private static final double[] BETA = {60e-6, -45e-6, 20e-6};

    @Test
    void probedProcessesOnRealSocketsWithSkewedClocksKeepTheirTrueLatenciesInsideTheBars() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "the latency testbed needs root: skipping");
        Path script = Path.of("..", "examples", "latency-three-tier", "run.sh").toAbsolutePath().normalize();
        assumeTrue(Files.exists(script), "examples/latency-three-tier/run.sh not found");
        Path probeClasses = Path.of(Probe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path out = tmp.resolve("run");
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), out.toString(), "200")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("run.log").toFile());
        pb.environment().put("PROBE_JAR", probeClasses.toString());
        Process p = pb.start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("run.sh finished").isTrue();
        String log = Files.readString(tmp.resolve("run.log"));
        assumeTrue(p.exitValue() != 77, "network namespaces unavailable: " + log);
        assertThat(p.exitValue()).as(log).isZero();

        // the truth: every measurement on the one shared clock
        LatencyEvents shared = LatencyInputs.open(List.of(out.resolve("probe"))).events();
        assertThat(shared.nodeNames()).containsExactlyInAnyOrder("h1", "h2", "h3");
        LatencyInstances found = LatencyInstances.find(shared);
        LatencyInstances.Measurements m = found.measurements();
        Map<String, Long> truth = new HashMap<>();
        for (int i = 0; i < m.size(); i++) {
            truth.put(key(shared.eventName(m.event(i)), m.seq(i), m.kind(i).name(), m.fromStep(i), m.toStep(i)),
                    m.timeTo(i) - m.timeFrom(i));
        }
        // 200 requests: 7 transitions + end to end + render + query
        assertThat(truth).hasSize(200 * 10);

        // the probe outputs rewritten with known clocks, as latency JSON lines
        List<String> args = new ArrayList<>(List.of("latency", "-q", "--instances", tmp.resolve("i.jsonl").toString(),
                "-o", tmp.resolve("latency.json").toString()));
        long t0 = Long.MAX_VALUE;
        for (int i = 0; i < shared.size(); i++) {
            t0 = Math.min(t0, shared.time(i));
        }
        for (int n = 0; n < 3; n++) {
            Path f = tmp.resolve("h" + (n + 1) + ".jsonl");
            int node = shared.nodeNames().indexOf("h" + (n + 1));
            try (BufferedWriter w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
                for (int i = 0; i < shared.size(); i++) {
                    if (shared.node(i) != node) {
                        continue;
                    }
                    long t = shared.time(i) + ALPHA[n] + Math.round(BETA[n] * (double) (shared.time(i) - t0));
                    String head = "{\"node\":\"h" + (n + 1) + "\",\"t\":" + t;
                    switch (shared.kind(i)) {
                        case LatencyEvents.STEP -> w.write(head + ",\"event\":\"" + shared.eventName(shared.event(i))
                                + "\",\"seq\":" + shared.seq(i) + ",\"step\":" + shared.step(i) + "}\n");
                        case LatencyEvents.START, LatencyEvents.STOP -> w.write(head + ",\"event\":\""
                                + shared.eventName(shared.event(i)) + "\",\"seq\":" + shared.seq(i) + ",\"phase\":\""
                                + (shared.kind(i) == LatencyEvents.START ? "start" : "stop") + "\"}\n");
                        default -> throw new AssertionError("the example sends no message events");
                    }
                }
            }
            args.add(f.toString());
        }
        CommandRun run = CommandRun.of(args.toArray(new String[0]));
        assertThat(run.exitCode()).as(run.err()).isZero();

        ObjectMapper json = new ObjectMapper();
        long lines = 0;
        long crossNode = 0;
        for (String line : Files.readAllLines(tmp.resolve("i.jsonl"))) {
            JsonNode n = json.readTree(line);
            lines++;
            String kind = n.has("node") ? "SIMPLE" : n.has("end_to_end") ? "END_TO_END" : "TRANSITION";
            Long t = truth.get(key(n.get("event").asText(), n.get("seq").asLong(), kind,
                    n.path("from_step").asInt(0), n.path("to_step").asInt(0)));
            assertThat(t).as(line).isNotNull();
            long latency = n.get("latency_ns").asLong();
            assertThat(t).as(line).isBetween(latency - n.get("minus_ns").asLong(), latency + n.get("plus_ns").asLong());
            if (kind.equals("TRANSITION") && !n.get("from_node").asText().equals(n.get("to_node").asText())) {
                crossNode++;
            }
        }
        assertThat(lines).isEqualTo(truth.size());
        assertThat(crossNode).isEqualTo(200 * 4);
    }

    private static String key(String event, long seq, String kind, int from, int to) {
        return event + "/" + seq + "/" + kind + "/" + from + "/" + to;
    }
}
