package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue #12 items 7–8 and #11 item 11: exit 0 only when every node has an estimate that no
 * message contradicts; only real usage errors exit 2; internal failures exit 4 with a hint; an
 * exhausted heap exits 5 with the remedy.
 */
class ExitCodesTest {

    @TempDir
    Path dir;

    @Test
    void noCommandIsAUsageError() {
        CommandRun run = CommandRun.of();
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("Usage: tracesync").endsWith("tracesync: give a command (see 'tracesync --help')\n");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aLoneNodeIsNotAllSynchronized() throws IOException {
        Path a = Files.writeString(dir.resolve("a.jsonl"), "{\"node\":\"a\",\"t\":1000,\"dir\":\"send\",\"msg\":\"x\"}\n");
        CommandRun run = CommandRun.of("sync", a.toString());
        assertThat(run.exitCode()).isEqualTo(ExitCode.SYNC_INCOMPLETE);
        assertThat(run.out()).startsWith("1 node, 0 messages, reference a");
        assertThat(run.err().strip()).isEqualTo("tracesync: only one node (a): nothing to synchronize it with");
    }

    @Test
    void contradictedFallbackEstimatesAreNotAllSynchronized() throws IOException {
        // the hulls cross: 0->1 says offset >= 0.5 s, 1->0 says offset <= 0.2 s
        Path in = Files.writeString(dir.resolve("crossing.txt"),
                "2\n0 1 1.0 1.5\n0 1 3.0 3.5\n1 0 1.6 1.0\n1 0 3.6 3.0\n");
        CommandRun run = CommandRun.of("sync", in.toString());
        assertThat(run.out()).contains("fallback");
        assertThat(run.exitCode()).isEqualTo(ExitCode.SYNC_INCOMPLETE);
        assertThat(run.err().strip()).isEqualTo("tracesync: 1 of 2 nodes synchronized only by a line that messages"
                + " contradict (fallback): 1");
    }

    @Test
    void separateGroupsAreNotAllSynchronized() throws IOException {
        Path in = Files.writeString(dir.resolve("groups.txt"),
                "4\n0 1 1.0 1.5\n1 0 2.0 1.6\n0 1 5.0 5.5\n1 0 6.0 5.6\n"
                        + "2 3 1.0 1.5\n3 2 2.0 1.6\n2 3 5.0 5.5\n3 2 6.0 5.6\n");
        CommandRun run = CommandRun.of("sync", in.toString());
        assertThat(run.exitCode()).as(run.out()).isEqualTo(ExitCode.SYNC_INCOMPLETE);
        assertThat(run.err().strip()).startsWith("tracesync: the nodes form 2 groups with no messages between them");
    }

    @Test
    void everyNodeAccurateIsExitZero() throws IOException {
        Path in = Files.writeString(dir.resolve("two.txt"),
                "2\n0 1 10.000100 10.080200\n0 1 70.000100 70.080260\n1 0 10.080300 10.000250\n1 0 70.080400 70.000390\n");
        CommandRun run = CommandRun.of("sync", in.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
    }

    private static CommandRun runWith(Callable<Integer> command, String... args) {
        CommandLine cl = TracesyncCommand.newCommandLine();
        cl.addSubcommand("boom", new CommandLine(command));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = TracesyncCommand.execute(cl, args);
        return new CommandRun(code, out.toString(), err.toString());
    }

    @CommandLine.Command(name = "boom")
    static final class Failing implements Callable<Integer> {
        final RuntimeException failure;

        Failing(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public Integer call() {
            throw failure;
        }
    }

    @Test
    void aBrokenInvariantIsAnInternalErrorNotAUsageError() {
        CommandRun run = runWith(new Failing(new IllegalArgumentException("samples must increase")), "boom");
        assertThat(run.exitCode()).isEqualTo(ExitCode.INTERNAL);
        assertThat(run.err().strip()).isEqualTo("tracesync: internal error: java.lang.IllegalArgumentException: samples"
                + " must increase (a bug; rerun with --debug for the stack trace and report it)");
        CommandRun request = runWith(new Failing(new org.tracesync.core.model.InvalidRequestException(
                "two captures have the node name 'h1': rename one (--name)")), "boom");
        assertThat(request.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(request.err().strip()).isEqualTo("tracesync: two captures have the node name 'h1': rename one (--name)");
    }

    @CommandLine.Command(name = "boom")
    static final class Exhausting implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    @Test
    void outOfMemoryIsOneLineWithTheRemedy() {
        CommandRun run = runWith(new Exhausting(), "boom");
        assertThat(run.exitCode()).isEqualTo(ExitCode.OUT_OF_MEMORY);
        assertThat(run.err()).doesNotContain("\tat ");
        assertThat(run.err().strip()).doesNotContain("\n").startsWith("tracesync: out of memory (the ")
                .contains("Java heap space").contains("TRACESYNC_JAVA_OPTS=-Xmx");
        assertThat(TracesyncCommand.suggestedHeap(1L << 30)).isEqualTo("4g");
        assertThat(TracesyncCommand.suggestedHeap(3L << 30)).isEqualTo("12g");
    }

    @Test
    void matchWindowOutOfRangeSaysWhy() {
        CommandRun run = CommandRun.of("sync", "--match-window", "1e12", "x.pcap", "y.pcap");
        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err().strip()).isEqualTo("tracesync: --match-window: at most 1000000 seconds (11.6 days);"
                + " offsets larger than that are not clocks to synchronize");
    }
}
