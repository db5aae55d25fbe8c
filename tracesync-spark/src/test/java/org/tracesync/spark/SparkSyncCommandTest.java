package org.tracesync.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.cli.TracesyncCommand;
import picocli.CommandLine;

/** {@code tracesync-spark sync} as a user runs it: exit codes, summary, result file. */
class SparkSyncCommandTest {

    @TempDir
    Path tmp;

    private record Run(int exit, String out, String err) {
    }

    private static Run run(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private static List<String> args(String first, List<Path> files, String... rest) {
        List<String> a = new ArrayList<>(List.of(first, "--master", "local[2]"));
        files.forEach(f -> a.add(f.toString()));
        a.addAll(List.of(rest));
        return a;
    }

    @Test
    void syncWritesTheResultFileOfTracesyncSync() throws Exception {
        List<Path> files = SharedCaptures.threeHosts();
        Path spark = tmp.resolve("spark.json");
        Path one = tmp.resolve("one.json");
        Run s = run(TracesyncSpark.newCommandLine(), args("sync", files, "-o", spark.toString(), "--split-size", "262144")
                .toArray(String[]::new));
        assertThat(s.exit()).as(s.err()).isZero();
        assertThat(s.out()).contains("3 nodes, 19401 messages, reference h3").contains("spark: 46112 packets in 24 decoding tasks");
        List<String> plain = new ArrayList<>(List.of("sync", "-q", "-o", one.toString()));
        files.forEach(f -> plain.add(f.toString()));
        assertThat(run(TracesyncCommand.newCommandLine(), plain.toArray(String[]::new)).exit()).isZero();
        assertThat(Files.readString(spark)).isEqualTo(Files.readString(one));
    }

    @Test
    void aBadCaptureExitsWithTheInputCodeAndWritesNoResult() throws Exception {
        List<Path> files = new ArrayList<>(SharedCaptures.threeHosts());
        Path bad = tmp.resolve("h4.pcap");
        byte[] head = Files.readAllBytes(files.get(0));
        Files.write(bad, java.util.Arrays.copyOf(head, 24 + 16 + 10)); // a record cut short
        files.add(bad);
        Path result = tmp.resolve("result.json");
        Run r = run(TracesyncSpark.newCommandLine(), args("sync", files, "-o", result.toString()).toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err().strip()).isEqualTo("tracesync: " + bad + ":offset 24: truncated packet record: 74 bytes announced, 10 present");
        assertThat(result).doesNotExist();
    }

    @Test
    void anOutputOverAnInputCaptureIsRefusedBeforeAnythingIsRead() throws Exception {
        List<Path> files = new ArrayList<>();
        for (Path f : SharedCaptures.threeHosts()) {
            files.add(Files.copy(f, tmp.resolve(f.getFileName())));
        }
        byte[] before = Files.readAllBytes(files.get(0));
        Run r = run(TracesyncSpark.newCommandLine(), args("sync", files, "-o", files.get(0).toString()).toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("tracesync: -o " + files.get(0) + " is the input " + files.get(0)
                + "; choose another output");
        assertThat(Files.readAllBytes(files.get(0))).isEqualTo(before);
    }

    /** The shared options check themselves as in sync, before Spark starts. */
    @Test
    void sharedOptionsAreCheckedAsTracesyncSyncChecksThem() throws Exception {
        List<Path> files = SharedCaptures.threeHosts();
        Run w = run(TracesyncSpark.newCommandLine(), args("sync", files, "--match-window", "0").toArray(String[]::new));
        List<String> plain = new ArrayList<>(List.of("sync"));
        files.forEach(f -> plain.add(f.toString()));
        plain.addAll(List.of("--match-window", "0"));
        Run one = run(TracesyncCommand.newCommandLine(), plain.toArray(String[]::new));
        assertThat(w.exit()).isEqualTo(2).isEqualTo(one.exit());
        assertThat(w.err()).isEqualTo(one.err()).contains("--match-window: a number of seconds greater than 0");
        Run both = run(TracesyncSpark.newCommandLine(), args("sync", files, "--rtt", "exchanges", "--min-latency", "5us")
                .toArray(String[]::new));
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("give either --rtt or --min-latency, not both");
    }

    @Test
    void anLttvTextFileIsRefusedWithAPointerToTheDocs() throws Exception {
        Path text = tmp.resolve("messages.txt");
        Files.writeString(text, "2\n0 1 1.0 1.5\n");
        Run r = run(TracesyncSpark.newCommandLine(), "sync", "--master", "local[2]", text.toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err().strip()).isEqualTo("tracesync: " + text + ":offset 0: not a pcap/pcapng capture, CTF trace or"
                + " JSON-lines log: tracesync-spark reads those (LTTV text and span files: tracesync sync, see docs/SPARK.md)");
    }

    @Test
    void aDirectoryThatIsNotACtfTraceIsRefused() throws Exception {
        Run r = run(TracesyncSpark.newCommandLine(), "sync", "--master", "local[2]", tmp.toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err().strip()).isEqualTo("tracesync: " + tmp + ": a directory that is not a CTF trace (no metadata file)");
    }

    /** The CTF scp traces with the regression estimator: the options mean what they mean to sync. */
    @Test
    void ctfTracesWithTheRegressionEstimatorGiveTheResultFileOfTracesyncSync() throws Exception {
        List<Path> traces = SharedCaptures.scpTraces();
        Path spark = tmp.resolve("spark.json");
        Path one = tmp.resolve("one.json");
        Run s = run(TracesyncSpark.newCommandLine(), args("sync", traces, "-o", spark.toString(), "--estimator",
                "regression").toArray(String[]::new));
        assertThat(s.exit()).as(s.err()).isZero();
        assertThat(s.out()).contains("2 nodes, 46 messages").contains("trace events in 2 trace tasks");
        assertThat(Files.readString(spark)).contains("regression on ");
        List<String> plain = new ArrayList<>(List.of("sync", "-q", "-o", one.toString(), "--estimator", "regression"));
        traces.forEach(f -> plain.add(f.toString()));
        assertThat(run(TracesyncCommand.newCommandLine(), plain.toArray(String[]::new)).exit()).isZero();
        assertThat(Files.readString(spark)).isEqualTo(Files.readString(one));
    }
}
