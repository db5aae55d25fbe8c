package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.stream.Collectors;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.TruthScore;
import org.tracesync.formats.input.TraceInputs;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.jsonl.JsonLinesReader;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.formats.truth.TruthFile;

class SimulateCommandTest {

    @TempDir
    Path dir;

    static Path repository() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("examples"))) {
            p = p.getParent();
        }
        return p;
    }

    @Test
    void regeneratesTheCommittedExampleByteForByte() throws IOException {
        Path example = repository().resolve("examples/cluster-3");
        CommandRun run = CommandRun.of("simulate", "--nodes", "3", "--topology", "mesh", "--seed", "42",
                "--duration", "10s", "--rate", "35", "--format", "text,jsonl", "-o", dir.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("3 nodes, 2052 messages");
        for (String f : List.of("text/messages.txt", "text/truth.json", "jsonl/h1.jsonl", "jsonl/h2.jsonl",
                "jsonl/h3.jsonl", "jsonl/truth.json")) {
            assertThat(dir.resolve(f)).as(f).hasSameBinaryContentAs(example.resolve(f));
        }
    }

    @Test
    void bothFormatsOfTheExampleSynchronizeToTheSameClocks() throws IOException {
        Path example = repository().resolve("examples/cluster-3");
        Path text = dir.resolve("text.json");
        Path jsonl = dir.resolve("jsonl.json");
        assertThat(CommandRun.of("sync", "-q", "--reference", "0", example.resolve("text/messages.txt").toString(),
                "-o", text.toString()).exitCode()).isZero();
        assertThat(CommandRun.of("sync", "-q", "--reference", "h1", example.resolve("jsonl/h1.jsonl").toString(),
                example.resolve("jsonl/h2.jsonl").toString(), example.resolve("jsonl/h3.jsonl").toString(),
                "-o", jsonl.toString()).exitCode()).isZero();
        SyncResult a = ResultFile.read(text);
        SyncResult b = ResultFile.read(jsonl);
        for (int i = 0; i < 3; i++) {
            NodeResult x = a.node(Integer.toString(i));
            NodeResult y = b.node("h" + (i + 1));
            assertThat(y.quality()).isEqualTo(x.quality());
            // the same line (origins may differ): equal corrections at the node's first and last message
            for (long t : new long[] {x.start(), x.end()}) {
                assertThat(y.transform().correction(t)).isCloseTo(x.transform().correction(t), within(1e-3));
            }
        }
    }

    @Test
    void writesReadableTracesAndTruthInOneDirectory() throws IOException {
        CommandRun run = CommandRun.of("simulate", "--nodes", "4", "--topology", "star", "--seed", "3",
                "--duration", "500ms", "--rate", "20", "--acks", "--broadcast", "--max-drift-change", "2",
                "--names", "a,b,c,d", "-o", dir.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted())
                    .containsExactly("a.jsonl", "b.jsonl", "c.jsonl", "d.jsonl", "truth.json");
        }
        TruthFile truth = TruthFile.read(dir.resolve("truth.json"));
        assertThat(truth.clocks()).extracting(c -> c.name()).containsExactly("a", "b", "c", "d");
        assertThat(truth.clocks().get(1).delta()).isNotZero();
        JsonLinesReader reader = new JsonLinesReader(dir.resolve("b.jsonl"));
        long[] events = {0};
        reader.stream(e -> events[0]++);
        assertThat(reader.node().name()).isEqualTo("b");
        assertThat(events[0]).isGreaterThan(20);
        assertThat(Files.readString(dir.resolve("a.jsonl"))).contains("\"msg\":\"ack-m", "\"msg\":\"b");
    }

    @Test
    void capturesSynchronizeAndHoldAgainstTheirTruth() throws IOException {
        CommandRun run = CommandRun.of("simulate", "--nodes", "3", "--topology", "star", "--seed", "8",
                "--duration", "2s", "--rate", "50", "--acks", "--format", "pcap", "-o", dir.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Path> captures = List.of(dir.resolve("h1.pcapng"), dir.resolve("h2.pcapng"), dir.resolve("h3.pcapng"));
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", "-q", captures.get(0).toString(), captures.get(1).toString(),
                captures.get(2).toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        SyncResult r = ResultFile.read(result);
        TruthFile truth = TruthFile.read(dir.resolve("truth.json"));
        MessageInput input = TraceInputs.open(captures);
        TruthScore score = new TruthScore(r, input.nodes().stream().map(NodeInfo::name).toList(),
                truth.clocks().stream().collect(Collectors.toMap(ClockModel::name, c -> c)), 2.0);
        input.readMessages(score);
        TruthScore.Score s = score.score();
        // every simulated segment is matched (data and acks), and the result holds
        assertThat(s.messages()).isEqualTo(truth.messages());
        assertThat(s.inversions()).isZero();
        assertThat(s.violations()).as(s.firstViolation()).isZero();
    }

    /**
     * Issue #11 item 6 end to end: on simulated captures with acknowledgements, {@code sync
     * --estimator regression} fits each pair on the matcher's exchanges, every one of them (the
     * input's own exchanges counted independently), and reports the standard errors in the summary
     * and the result file.
     */
    @Test
    void regressionOnCapturesUsesTheirExchangesAndReportsStandardErrors() throws IOException {
        CommandRun run = CommandRun.of("simulate", "--nodes", "2", "--seed", "8",
                "--duration", "2s", "--rate", "50", "--acks", "--format", "pcap", "-o", dir.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Path> captures = List.of(dir.resolve("h1.pcapng"), dir.resolve("h2.pcapng"));
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", captures.get(0).toString(), captures.get(1).toString(),
                "--estimator", "regression", "-o", result.toString());
        long[] exchanges = new long[1];
        assertThat(TraceInputs.open(captures).readMessages((s, r, ts, tr) -> { }, (a, b, t1, t2, t3, t4) -> exchanges[0]++))
                .isTrue();
        assertThat(exchanges[0]).isGreaterThan(50);
        org.tracesync.core.reduce.PairResult pair = ResultFile.read(result).pairs().get(0);
        org.tracesync.core.estimate.RegressionStatistics reg = pair.regression();
        assertThat(reg.samplesFrom()).isEqualTo("exchanges");
        assertThat(reg.samples() + reg.rejected()).isEqualTo(exchanges[0]);
        assertThat(reg.driftStandardError()).isPositive();
        assertThat(reg.offsetInterval()).isGreaterThan(reg.offsetStandardError());
        assertThat(pair.note()).contains("regression on " + reg.samples() + " exchanges");
        assertThat(sync.out()).contains("Regression (statistical", "h1/h2: " + reg.samples() + " exchanges ("
                + reg.rejected() + " rejected), drift ", "residual standard error", "at 95 %");
    }

    @Test
    void kernelTracesSynchronizeAndHoldAgainstTheirTruth() throws Exception {
        CommandRun run = CommandRun.of("simulate", "--nodes", "3", "--topology", "chain", "--seed", "9",
                "--duration", "2s", "--rate", "50", "--acks", "--format", "ctf", "-o", dir.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        List<Path> traces = List.of(dir.resolve("h1"), dir.resolve("h2"), dir.resolve("h3"));
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", "-q", traces.get(0).toString(), traces.get(1).toString(),
                traces.get(2).toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        SyncResult r = ResultFile.read(result);
        TruthFile truth = TruthFile.read(dir.resolve("truth.json"));
        MessageInput input = TraceInputs.open(traces);
        assertThat(input.nodes()).extracting(NodeInfo::name).containsExactly("h1", "h2", "h3");
        TruthScore score = new TruthScore(r, input.nodes().stream().map(NodeInfo::name).toList(),
                truth.clocks().stream().collect(Collectors.toMap(ClockModel::name, c -> c)), 2.0);
        input.readMessages(score);
        TruthScore.Score s = score.score();
        assertThat(s.messages()).isEqualTo(truth.messages());
        assertThat(s.inversions()).isZero();
        assertThat(s.violations()).as(s.firstViolation()).isZero();
        // the reference decoder reads what we wrote
        Path babeltrace = Path.of("/usr/bin/babeltrace2");
        if (Files.isExecutable(babeltrace)) {
            Process p = new ProcessBuilder(babeltrace.toString(), traces.get(1).toString()).redirectErrorStream(true).start();
            long lines = new String(p.getInputStream().readAllBytes()).lines()
                    .filter(l -> l.contains("net_dev_queue") || l.contains("net_if_receive_skb")).count();
            assertThat(p.waitFor()).isZero();
            // in a chain h1 – h2 – h3, every message has one end on h2
            assertThat(lines).isEqualTo(truth.messages());
        }
    }

    @Test
    void badOptionsAreUsageErrors() {
        CommandRun run = CommandRun.of("simulate", "-o", dir.toString(), "--topology", "ring");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(
                "tracesync simulate: --topology must be chain, star or mesh, got 'ring' (see 'tracesync simulate --help')\n");
        run = CommandRun.of("simulate", "-o", dir.toString(), "--nodes", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--nodes must be between 2 and 10000");
        run = CommandRun.of("simulate", "-o", dir.toString(), "--duration", "ten");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'ten' is not a duration");
    }
}
