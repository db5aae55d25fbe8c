package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #12 "never damage files": no command writes over one of its inputs (followed through
 * symlinks and {@code ..}), outputs are checked before any input is read, results are written
 * atomically with the permissions the umask (or the file being replaced) gives.
 */
class OutputSafetyTest {

    @TempDir
    Path dir;

    private Path h1;
    private Path h2;
    private Path h3;
    private Path result;

    @BeforeEach
    void simulate() throws IOException {
        Path sim = dir.resolve("sim");
        CommandRun s = CommandRun.of("simulate", "--nodes", "3", "--duration", "2s", "--rate", "20", "-o", sim.toString());
        assertThat(s.exitCode()).as(s.err()).isZero();
        h1 = sim.resolve("h1.jsonl");
        h2 = sim.resolve("h2.jsonl");
        h3 = sim.resolve("h3.jsonl");
        result = dir.resolve("r.json");
        CommandRun r = CommandRun.of("sync", "-q", h1.toString(), h2.toString(), h3.toString(), "-o", result.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
    }

    private static void assertRefused(CommandRun run, String... fragments) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).doesNotContain("\n").doesNotContain("\tat ").doesNotContain(".tmp")
                .contains(fragments);
    }

    private List<String> listing(Path d) throws IOException {
        try (Stream<Path> s = Files.walk(d)) {
            return s.map(p -> d.relativize(p).toString()).sorted().toList();
        }
    }

    @Test
    void syncRefusesToWriteOverAnInput() throws IOException {
        byte[] before = Files.readAllBytes(h1);
        assertRefused(CommandRun.of("sync", h1.toString(), h2.toString(), h3.toString(), "-o", h1.toString()),
                "-o " + h1, "is the input " + h1);
        assertRefused(CommandRun.of("sync", h1.toString(), h2.toString(), h3.toString(), "-o",
                h1.getParent().resolve("x/../h1.jsonl").toString()), "is the input");
        Path link = dir.resolve("link.json");
        Files.createSymbolicLink(link, h1);
        assertRefused(CommandRun.of("sync", h1.toString(), h2.toString(), h3.toString(), "-o", link.toString()),
                "-o " + link, "is the input " + h1);
        assertThat(Files.readAllBytes(h1)).isEqualTo(before);
    }

    @Test
    void reportRefusesToWriteOverAnInputOrTheResult() throws IOException {
        byte[] r = Files.readAllBytes(result);
        byte[] t = Files.readAllBytes(h3);
        assertRefused(CommandRun.of("report", result.toString(), h1.toString(), h2.toString(), h3.toString(),
                "-o", h3.toString()), "is the input " + h3);
        assertRefused(CommandRun.of("report", result.toString(), "-o", result.toString()), "is the input " + result);
        assertThat(Files.readAllBytes(result)).isEqualTo(r);
        assertThat(Files.readAllBytes(h3)).isEqualTo(t);
    }

    @Test
    void emptyOrDirectoryOutputIsRefusedBeforeReadingAndNamesTheUsersPath() throws IOException {
        assertRefused(CommandRun.of("sync", h1.toString(), h2.toString(), "-o", ""), "-o: an empty path");
        Path d = Files.createDirectory(dir.resolve("out"));
        assertRefused(CommandRun.of("sync", h1.toString(), h2.toString(), "-o", d.toString()), "-o " + d + " is a directory");
        assertRefused(CommandRun.of("report", result.toString(), "-o", d.toString()), "-o " + d + " is a directory");
        // checked before the inputs are read: the missing trace is not what is reported
        assertRefused(CommandRun.of("sync", h1.toString(), dir.resolve("missing.jsonl").toString(), "-o", d.toString()),
                "is a directory");
        assertThat(listing(dir)).noneMatch(n -> n.endsWith(".tmp"));
        assertThat(listing(d)).containsExactly("");
    }

    @Test
    void outputInAMissingOrNonDirectoryParentIsRefused() {
        Path out = h1.resolve("r.json");
        CommandRun run = CommandRun.of("sync", h1.toString(), h2.toString(), "-o", out.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo("tracesync: -o " + out + ": " + h1 + " is not a directory");
    }

    @Test
    void resultFilesHonourTheUmaskAndKeepTheModeOfTheFileTheyReplace() throws IOException {
        Path probe = Files.createFile(dir.resolve("probe")); // created with the process umask
        Set<PosixFilePermission> umasked = Files.getPosixFilePermissions(probe);
        assertThat(Files.getPosixFilePermissions(result)).isEqualTo(umasked);
        Path report = dir.resolve("r.html");
        assertThat(CommandRun.of("report", "-q", result.toString(), "-o", report.toString()).exitCode()).isZero();
        assertThat(Files.getPosixFilePermissions(report)).isEqualTo(umasked);
        Set<PosixFilePermission> shared = PosixFilePermissions.fromString("rw-r-----");
        Files.setPosixFilePermissions(result, shared);
        assertThat(CommandRun.of("sync", "-q", h1.toString(), h2.toString(), h3.toString(), "-o", result.toString())
                .exitCode()).isZero();
        assertThat(Files.getPosixFilePermissions(result)).isEqualTo(shared);
    }

    @Test
    void syncPrintsTheSummaryBeforeWriting() throws IOException {
        Path out = dir.resolve("new.json");
        CommandRun run = CommandRun.of("sync", h1.toString(), h2.toString(), h3.toString(), "-o", out.toString());
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("Nodes").endsWith("result written to " + out + "\n");
    }

    @Test
    void latencyRefusesOutputsOverItsInputsOrEachOther() throws IOException {
        byte[] before = Files.readAllBytes(h1);
        assertRefused(CommandRun.of("latency", h1.toString(), "-o", h1.toString()), "-o " + h1, "is the input " + h1);
        Path out = dir.resolve("l.json");
        Files.writeString(out, "old");
        assertRefused(CommandRun.of("latency", h1.toString(), "-o", out.toString(), "--report", out.toString()),
                "--report " + out + " is the output " + out);
        assertThat(Files.readAllBytes(h1)).isEqualTo(before);
        assertThat(Files.readString(out)).isEqualTo("old");
    }

}
