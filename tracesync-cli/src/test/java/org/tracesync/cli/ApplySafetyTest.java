package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #12 items 1–2: {@code apply --out/--merge} never writes over an input and checks everything first. */
class ApplySafetyTest {

    @TempDir
    Path dir;

    private Path simulateAndSync(String format) {
        Path sim = dir.resolve(format);
        CommandRun s = CommandRun.of("simulate", "--nodes", "3", "--duration", "2s", "--rate", "20", "--format", format,
                "-o", sim.toString());
        assertThat(s.exitCode()).as(s.err()).isZero();
        Path result = dir.resolve(format + ".json");
        String[] traces = format.equals("ctf")
                ? new String[] {sim.resolve("h1").toString(), sim.resolve("h2").toString(), sim.resolve("h3").toString()}
                : new String[] {sim.resolve("h1.pcapng").toString(), sim.resolve("h2.pcapng").toString(),
                    sim.resolve("h3.pcapng").toString()};
        String[] args = new String[traces.length + 4];
        args[0] = "sync";
        args[1] = "-q";
        System.arraycopy(traces, 0, args, 2, traces.length);
        args[traces.length + 2] = "-o";
        args[traces.length + 3] = result.toString();
        CommandRun r = CommandRun.of(args);
        assertThat(r.exitCode()).as(r.err()).isZero();
        return result;
    }

    @Test
    void mergeOverAnInputCaptureIsRefusedAndTheCaptureKept() throws IOException {
        Path result = simulateAndSync("pcap");
        Path h2 = dir.resolve("pcap/h2.pcapng");
        byte[] before = Files.readAllBytes(h2);
        Path out = dir.resolve("out");
        CommandRun run = CommandRun.of("apply", result.toString(), "--out", out.toString(), "--merge", h2.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo("tracesync: --merge " + h2 + " is the input " + h2
                + "; choose another output");
        assertThat(Files.readAllBytes(h2)).isEqualTo(before);
        assertThat(out).doesNotExist();
    }

    @Test
    void outIntoTheInputsDirectoryIsRefusedBeforeAnyCopy() throws IOException {
        Path result = simulateAndSync("pcap");
        Path sim = dir.resolve("pcap");
        byte[] before = Files.readAllBytes(sim.resolve("h1.pcapng"));
        CommandRun run = CommandRun.of("apply", result.toString(), "--out", sim.toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("is the input " + sim.resolve("h1.pcapng"));
        assertThat(Files.readAllBytes(sim.resolve("h1.pcapng"))).isEqualTo(before);
    }

    @Test
    void mergeOfCtfTracesIsAUsageErrorBeforeAnyCopyIsWritten() throws IOException {
        Path result = simulateAndSync("ctf");
        Path out = dir.resolve("out");
        CommandRun run = CommandRun.of("apply", result.toString(), "--out", out.toString(), "--merge",
                dir.resolve("all.pcapng").toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("--merge needs traces of one mergeable format");
        assertThat(out).doesNotExist();
        // and a corrected rerun works
        CommandRun again = CommandRun.of("apply", result.toString(), "--out", out.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(out.resolve("h1/metadata")).exists();
    }

    @Test
    void mergeIsWrittenAtomicallyAndAllCopiesToo() throws IOException {
        Path result = simulateAndSync("pcap");
        Path out = dir.resolve("out");
        Path merged = dir.resolve("all.pcapng");
        CommandRun run = CommandRun.of("apply", result.toString(), "--out", out.toString(), "--merge", merged.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(merged).isNotEmptyFile();
        try (var s = Files.list(dir)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".tmp"));
        }
        try (var s = Files.list(out)) {
            assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("h1.pcapng", "h2.pcapng",
                    "h3.pcapng");
        }
    }
}
