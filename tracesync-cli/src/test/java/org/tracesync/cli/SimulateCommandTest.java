package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.jsonl.JsonLinesReader;
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
