package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #12 item 5: simulate never replaces a user's files and estimates its output before writing. */
class SimulateSafetyTest {

    @TempDir
    Path dir;

    @Test
    void aDirectoryHoldingOtherFilesIsRefusedAndLeftAlone() throws IOException {
        Path out = Files.createDirectory(dir.resolve("out"));
        Path mine = Files.writeString(out.resolve("notes.txt"), "mine");
        CommandRun run = CommandRun.of("simulate", "--duration", "1s", "-o", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo("tracesync: simulate -o " + out + " holds other files (notes.txt);"
                + " choose a new or empty directory, or add --force");
        assertThat(Files.readString(mine)).isEqualTo("mine");
        try (var s = Files.list(out)) {
            assertThat(s.count()).isEqualTo(1);
        }
        CommandRun forced = CommandRun.of("simulate", "--duration", "1s", "--force", "-o", out.toString());
        assertThat(forced.exitCode()).as(forced.err()).isZero();
        assertThat(Files.readString(mine)).isEqualTo("mine");
    }

    @Test
    void simulateSpansRefusesADirectoryHoldingOtherFilesAndRerunsIntoItsOwn() throws IOException {
        Path out = Files.createDirectory(dir.resolve("spans"));
        Path mine = Files.writeString(out.resolve("spans.csv"), "mine");
        CommandRun run = CommandRun.of("simulate-spans", "--traces", "5", "--format", "zipkin", "-o", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo("tracesync: simulate-spans -o " + out + " holds other files (spans.csv);"
                + " choose a new or empty directory");
        assertThat(Files.readString(mine)).isEqualTo("mine");
        try (var s = Files.list(out)) {
            assertThat(s.count()).isEqualTo(1);
        }
        Path own = dir.resolve("own");
        for (int k = 0; k < 2; k++) {
            CommandRun again = CommandRun.of("simulate-spans", "--traces", "5", "--format", "zipkin", "-o", own.toString());
            assertThat(again.exitCode()).as(again.err()).isZero();
        }
        assertThat(own.resolve("spans.zipkin.json")).isNotEmptyFile();
        assertThat(own.resolve("truth.json")).isNotEmptyFile();
    }

    @Test
    void rerunningIntoItsOwnOutputIsAllowed() {
        Path out = dir.resolve("out");
        assertThat(CommandRun.of("simulate", "--duration", "1s", "--format", "jsonl,pcap", "-o", out.toString())
                .exitCode()).isZero();
        CommandRun again = CommandRun.of("simulate", "--duration", "1s", "--format", "jsonl,pcap", "-o", out.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
    }

    @Test
    void absurdSizesAreRefusedWithTheEstimateBeforeWriting() {
        Path out = dir.resolve("out");
        CommandRun run = CommandRun.of("simulate", "--duration", "100000h", "-o", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        // 3 nodes, mesh: 3 links x 2 directions x 100/s x 3.6e8 s = 2.16e11 messages x 160 bytes
        assertThat(run.err().strip()).isEqualTo("tracesync: simulate would write about 2.16e+11 messages, 34560.0 GB"
                + " (more than 1 GB); lower --duration or --rate, or add --force");
        assertThat(out).doesNotExist();
        CommandRun rate = CommandRun.of("simulate", "--rate", "1e12", "--format", "pcap", "-o", out.toString());
        assertThat(rate.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(rate.err()).contains("6.00e+13 messages", "add --force");
        assertThat(out).doesNotExist();
    }

    @Test
    void outputSizeEstimateIsCloseToWhatIsWritten() throws IOException {
        for (String f : new String[] {"text", "jsonl", "pcap", "ctf"}) {
            Path out = dir.resolve(f);
            CommandRun run = CommandRun.of("simulate", "--nodes", "4", "--duration", "10s", "--rate", "50", "--format", f,
                    "-o", out.toString());
            assertThat(run.exitCode()).as(run.err()).isZero();
            long bytes;
            try (var s = Files.walk(out)) {
                bytes = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
            }
            double estimate = SimulateCommand.bytesPerMessage(SimulateCommand.Format.valueOf(f)) * 6 * 2 * 50 * 10;
            assertThat(bytes / estimate).as(f).isBetween(0.8, 1.25);
        }
    }

    @Test
    void theDemoRefusesADirectoryOfTheUsersAndRerunsIntoItsOwn() throws IOException {
        Path out = Files.createDirectory(dir.resolve("mine"));
        Files.writeString(out.resolve("thesis.tex"), "mine");
        CommandRun run = CommandRun.of("demo", "-q", "-o", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo("tracesync: demo -o " + out + " holds other files (thesis.tex); choose a"
                + " new or empty directory");
        Path demo = dir.resolve("demo");
        assertThat(CommandRun.of("demo", "-q", "--nodes", "3", "-o", demo.toString()).exitCode()).isZero();
        CommandRun again = CommandRun.of("demo", "-q", "--nodes", "2", "-o", demo.toString());
        assertThat(again.exitCode()).as(again.err()).isZero();
    }

}
