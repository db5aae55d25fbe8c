package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.result.ResultFile;

/**
 * Issue #13 item 4: {@code apply} for JSON-lines traces, end to end on a simulated trace whose
 * h2 clock steps back and forth (seed 1, 2 steps: the transform has 3 pieces). The applied copies
 * are re-synchronized: identity within the bounds, no inversion.
 */
class JsonLinesApplyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path shared;

    static Path sim;
    static Path result;

    @TempDir
    Path dir;

    @BeforeAll
    static void simulateAndSync() {
        sim = shared.resolve("sim");
        CommandRun s = CommandRun.of("simulate", "-o", sim.toString(), "--nodes", "2", "--rate", "50", "--format", "jsonl",
                "--duration", "20m", "--steps", "2", "--seed", "1");
        assertThat(s.exitCode()).as(s.err()).isZero();
        result = shared.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", "-q", h(1), h(2), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
    }

    private static String h(int i) {
        return sim.resolve("h" + i + ".jsonl").toString();
    }

    private static List<Long> times(Path file) throws IOException {
        List<Long> t = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                t.add(JSON.readTree(line).get("t").asLong());
            }
        }
        return t;
    }

    @Test
    void theAppliedCopiesOfASteppedTraceResynchronizeToIdentityWithinTheBoundsAndNoInversion() throws IOException {
        SyncResult original = ResultFile.read(result);
        assertThat(original.nodes().stream().filter(n -> n.name().equals("h2")).findFirst().orElseThrow()
                .transform().segments()).hasSize(3);
        Path out = dir.resolve("synced");
        CommandRun apply = CommandRun.of("apply", result.toString(), h(1), h(2), "--out", out.toString());
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        assertThat(apply.out()).contains("h2: " + h(2) + " -> " + out.resolve("h2.jsonl") + " (reference h1); 120250 events");

        // h1 is the reference: its copy is its file, byte for byte
        assertThat(Files.readAllBytes(out.resolve("h1.jsonl"))).isEqualTo(Files.readAllBytes(Path.of(h(1))));
        // h2's copy: only "t" changed; in file order its times never go back (the steps are undone)
        List<String> before = Files.readAllLines(Path.of(h(2)));
        List<String> after = Files.readAllLines(out.resolve("h2.jsonl"));
        assertThat(after).hasSameSizeAs(before);
        for (int i = 0; i < before.size(); i += 997) {
            assertThat(after.get(i).replaceFirst("\"t\":\\d+", "\"t\":0"))
                    .isEqualTo(before.get(i).replaceFirst("\"t\":\\d+", "\"t\":0"));
        }
        List<Long> t2 = times(out.resolve("h2.jsonl"));
        for (int i = 1; i < t2.size(); i++) {
            assertThat(t2.get(i)).as("event %d", i).isGreaterThanOrEqualTo(t2.get(i - 1));
        }

        Path again = dir.resolve("again.json");
        CommandRun sync = CommandRun.of("sync", "-q", out.resolve("h1.jsonl").toString(), out.resolve("h2.jsonl").toString(),
                "-o", again.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        NodeResult h2 = ResultFile.read(again).nodes().stream().filter(n -> n.name().equals("h2")).findFirst().orElseThrow();
        assertThat(h2.transform().isLinear()).isTrue();
        for (long t : new long[] {h2.start(), (h2.start() + h2.end()) / 2, h2.end()}) {
            long mapped = h2.transform().apply(t);
            // the identity is within the re-synchronization's bounds: t in [mapped - Δ−, mapped + Δ+]
            assertThat((double) t).as("at %d", t).isBetween(mapped - h2.bounds().minus(t), mapped + h2.bounds().plus(t));
        }
        CommandRun eval = CommandRun.of("eval", again.toString(), out.resolve("h1.jsonl").toString(),
                out.resolve("h2.jsonl").toString());
        assertThat(eval.exitCode()).as(eval.out() + eval.err()).isZero();
        assertThat(eval.out()).contains("no inversion");
    }

    @Test
    void annotateAddsTheLocalTimeAndTheBoundsNextToTheTime() throws IOException {
        Path out = dir.resolve("annotated");
        CommandRun apply = CommandRun.of("apply", result.toString(), h(1), h(2), "--out", out.toString(), "--annotate");
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        SyncResult res = ResultFile.read(result);
        NodeResult h2 = res.nodes().stream().filter(n -> n.name().equals("h2")).findFirst().orElseThrow();
        String first = Files.readAllLines(Path.of(h(2))).get(0);
        JsonNode line = JSON.readTree(Files.readAllLines(out.resolve("h2.jsonl")).get(0));
        long local = JSON.readTree(first).get("t").asLong();
        JsonNode ts = line.get("tracesync");
        assertThat(ts.get("local_t").asLong()).isEqualTo(local);
        assertThat(line.get("t").asLong()).isEqualTo(h2.transform().apply(local));
        assertThat(ts.get("bound_minus_ns").asLong()).isEqualTo((long) Math.ceil(h2.bounds().minus(local)));
        assertThat(ts.get("bound_plus_ns").asLong()).isEqualTo((long) Math.ceil(h2.bounds().plus(local)));
        assertThat(ts.get("bound_minus_ns").asLong()).isBetween(1L, 1_000_000L);
        JsonNode ref = JSON.readTree(Files.readAllLines(out.resolve("h1.jsonl")).get(0)).get("tracesync");
        assertThat(ref.get("bound_minus_ns").asLong()).isZero();
        assertThat(ref.get("bound_plus_ns").asLong()).isZero();
        // another field name on request
        Path other = dir.resolve("other");
        CommandRun named = CommandRun.of("apply", result.toString(), h(1), h(2), "--out", other.toString(),
                "--annotate-field", "sync_err");
        assertThat(named.exitCode()).as(named.err()).isZero();
        assertThat(JSON.readTree(Files.readAllLines(other.resolve("h2.jsonl")).get(0)).get("sync_err").get("local_t")
                .asLong()).isEqualTo(local);
    }

    @Test
    void anAnnotationFieldTheUserAlreadyHasIsAnInputErrorAndNothingIsWritten() throws IOException {
        Path traces = dir.resolve("mine");
        Files.createDirectories(traces);
        Path a = traces.resolve("h1.jsonl");
        Path b = traces.resolve("h2.jsonl");
        Files.copy(Path.of(h(1)), a);
        List<String> lines = new ArrayList<>(Files.readAllLines(Path.of(h(2))));
        lines.set(4, lines.get(4).replace("}", ",\"tracesync\":\"mine\"}"));
        Files.write(b, lines);
        Path out = dir.resolve("out");
        CommandRun run = CommandRun.of("apply", result.toString(), a.toString(), b.toString(), "--out", out.toString(),
                "--annotate");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.INPUT);
        assertThat(run.err().strip()).isEqualTo("tracesync: " + b + ":line 5: the event already has a field \"tracesync\";"
                + " choose another annotation field (--annotate-field NAME)");
        assertThat(out.resolve("h2.jsonl")).doesNotExist();
        try (var s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains("tmp"));
        }
    }

    @Test
    void aBadLineIsAnInputErrorNamingFileAndLineAndLeavesNoHalfWrittenCopy() throws IOException {
        Path traces = dir.resolve("bad");
        Files.createDirectories(traces);
        Path a = traces.resolve("h1.jsonl");
        Path b = traces.resolve("h2.jsonl");
        Files.copy(Path.of(h(1)), a);
        List<String> lines = new ArrayList<>(Files.readAllLines(Path.of(h(2))));
        lines.set(50_000, "{\"node\":\"h2\",\"t\":\"soon\",\"dir\":\"send\",\"msg\":\"x\"}");
        Files.write(b, lines);
        Path out = dir.resolve("out");
        CommandRun run = CommandRun.of("apply", result.toString(), a.toString(), b.toString(), "--out", out.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.INPUT);
        assertThat(run.err().strip()).isEqualTo("tracesync: " + b + ":line 50001: \"t\" must be an integer number of"
                + " nanoseconds, got the string \"soon\"");
        try (var s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("h1.jsonl");
        }
    }

    @Test
    void anExistingCopyAnInputAsOutputAndAMergeOverAnInputAreRefusedBeforeAnythingIsWritten() throws IOException {
        Path out = dir.resolve("out");
        Files.createDirectories(out);
        Path mine = Files.writeString(out.resolve("h2.jsonl"), "my own file\n");
        CommandRun run = CommandRun.of("apply", result.toString(), h(1), h(2), "--out", out.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains(out.resolve("h2.jsonl") + " already exists");
        assertThat(Files.readString(mine)).isEqualTo("my own file\n");
        try (var s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactly("h2.jsonl");
        }

        // --out the inputs' own directory, directly and through a symlink and '..'
        byte[] h1 = Files.readAllBytes(Path.of(h(1)));
        CommandRun into = CommandRun.of("apply", result.toString(), h(1), h(2), "--out", sim.toString());
        assertThat(into.exitCode()).as(into.err()).isEqualTo(ExitCode.USAGE);
        assertThat(into.err()).contains("is the input");
        Path link = Files.createSymbolicLink(dir.resolve("link"), sim);
        Files.createDirectories(dir.resolve("x"));
        CommandRun viaLink = CommandRun.of("apply", result.toString(), h(1), h(2), "--out",
                dir.resolve("x/../link").toString());
        assertThat(viaLink.exitCode()).as(viaLink.err()).isEqualTo(ExitCode.USAGE);
        assertThat(viaLink.err()).contains("is the input");
        CommandRun mergeOver = CommandRun.of("apply", result.toString(), h(1), h(2), "--merge", h(2));
        assertThat(mergeOver.exitCode()).as(mergeOver.err()).isEqualTo(ExitCode.USAGE);
        assertThat(mergeOver.err()).contains("is the input");
        assertThat(Files.readAllBytes(Path.of(h(1)))).isEqualTo(h1);
    }

    @Test
    void mergeWritesEveryNodesEventsInReferenceTimeOrderAsTheCopiesHaveThem() throws IOException {
        Path out = dir.resolve("copies");
        Path merged = dir.resolve("all.jsonl");
        CommandRun run = CommandRun.of("apply", result.toString(), h(1), h(2), "--out", out.toString(), "--merge",
                merged.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("merged 240500 records into " + merged);
        List<String> all = Files.readAllLines(merged);
        assertThat(all).hasSize(240_500);
        long last = Long.MIN_VALUE;
        List<String> fromH1 = new ArrayList<>();
        List<String> fromH2 = new ArrayList<>();
        for (String line : all) {
            JsonNode e = JSON.readTree(line);
            long t = e.get("t").asLong();
            assertThat(t).isGreaterThanOrEqualTo(last);
            last = t;
            (e.get("node").asText().equals("h1") ? fromH1 : fromH2).add(line);
        }
        // each node's events are its copy's lines, in its copy's order
        assertThat(fromH1).isEqualTo(Files.readAllLines(out.resolve("h1.jsonl")));
        assertThat(fromH2).isEqualTo(Files.readAllLines(out.resolve("h2.jsonl")));
    }

    @Test
    void capturesAndJsonLinesApplyTogetherButDoNotMergeAndATraceOfNoNodeIsNamed() throws IOException {
        Path mix = dir.resolve("mix");
        CommandRun s = CommandRun.of("simulate", "-o", mix.toString(), "--nodes", "2", "--duration", "2s", "--rate", "20",
                "--format", "jsonl,pcap");
        assertThat(s.exitCode()).as(s.err()).isZero();
        Path res = dir.resolve("mix.json");
        String j1 = mix.resolve("jsonl/h1.jsonl").toString();
        CommandRun sync = CommandRun.of("sync", "-q", j1, mix.resolve("jsonl/h2.jsonl").toString(), "-o", res.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        String p2 = mix.resolve("pcap/h2.pcapng").toString();
        CommandRun merge = CommandRun.of("apply", res.toString(), j1, p2, "--merge", dir.resolve("m.jsonl").toString());
        assertThat(merge.exitCode()).as(merge.err()).isEqualTo(ExitCode.USAGE);
        assertThat(merge.err()).contains("--merge needs traces of one mergeable format");
        assertThat(dir.resolve("m.jsonl")).doesNotExist();

        Path stranger = dir.resolve("h9.jsonl");
        Files.writeString(stranger, "{\"node\":\"h9\",\"t\":1,\"dir\":\"send\",\"msg\":\"z\"}\n");
        Path out = dir.resolve("mixed");
        CommandRun apply = CommandRun.of("apply", res.toString(), j1, p2, stranger.toString(), "--out", out.toString());
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        assertThat(apply.err()).contains(stranger + " is the trace of no node of " + res + "; not written");
        try (var l = Files.list(out)) {
            assertThat(l.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("h1.jsonl", "h2.pcapng");
        }
    }

    @Test
    void aJsonLinesTraceIsFoundByTheNodeItsEventsAreOn() throws IOException {
        Path renamed = dir.resolve("second-host.log.jsonl");
        Files.copy(Path.of(h(2)), renamed);
        Path out = dir.resolve("out");
        CommandRun apply = CommandRun.of("apply", result.toString(), h(1), renamed.toString(), "--out", out.toString());
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        assertThat(apply.out()).contains("h2: " + renamed + " -> " + out.resolve("h2.jsonl"));
        assertThat(times(out.resolve("h2.jsonl"))).hasSize(120_250);
    }

    @Test
    void aNodeNameIsMadeASafeFileName() {
        assertThat(JsonLinesApplier.fileName("a/../b")).isEqualTo("a_.._b");
        assertThat(JsonLinesApplier.fileName("..")).isEqualTo("_..");
        assertThat(JsonLinesApplier.fileName("web-1:8080")).isEqualTo("web-1_8080");
        assertThat(JsonLinesApplier.fileName("h1")).isEqualTo("h1");
    }
}
