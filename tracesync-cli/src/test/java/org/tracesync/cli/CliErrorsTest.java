package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every documented error case of docs/USER_GUIDE.md ("Exit codes"): one line on stderr naming the
 * problem, no stack trace unless --debug, and the documented exit code.
 */
class CliErrorsTest {

    @TempDir
    Path dir;

    private Path file(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    /** Runs with System.out captured too (the sync summary goes there). */
    private static CommandRun runCapturingStdout(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            CommandRun r = CommandRun.of(args);
            return new CommandRun(r.exitCode(), r.out() + bytes.toString(StandardCharsets.UTF_8), r.err());
        } finally {
            System.setOut(saved);
        }
    }

    private static void assertOneLine(CommandRun run, String expected) {
        assertThat(run.err()).endsWith("\n");
        assertThat(run.err().strip()).doesNotContain("\n").isEqualTo(expected);
    }

    @Test
    void missingTraceIsAnInputError() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":1000,\"dir\":\"send\",\"msg\":\"x\"}\n");
        CommandRun run = CommandRun.of("sync", a.toString(), dir.resolve("nope.jsonl").toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + dir.resolve("nope.jsonl") + ": no such file or directory");
    }

    /** issue #12 item 7: the same trace twice or one node name twice used to exit 0 with nothing synchronized. */
    @Test
    void theSameTraceTwiceOrOneNodeNameTwiceIsAUsageError() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":1000,\"dir\":\"send\",\"msg\":\"x\"}\n");
        Path b = file("b.jsonl", "{\"node\":\"a\",\"t\":1500,\"dir\":\"recv\",\"msg\":\"x\"}\n");
        CommandRun twice = CommandRun.of("sync", a.toString(), a.toString());
        assertThat(twice.exitCode()).isEqualTo(2);
        assertOneLine(twice, "tracesync: trace " + a + " is given twice: give each node's trace once");
        CommandRun sameName = CommandRun.of("sync", a.toString(), b.toString());
        assertThat(sameName.exitCode()).isEqualTo(2);
        assertOneLine(sameName, "tracesync: traces " + a + " and " + b + " both have the node name 'a': give each"
                + " node's trace once (captures can be renamed with --name)");
        CommandRun eval = CommandRun.of("eval", file("r.json", "{}").toString(), a.toString(), a.toString());
        assertThat(eval.exitCode()).isIn(2, 3); // the result file is checked first or the traces: never 0
    }

    @Test
    void missingResultFileIsAnInputError() {
        CommandRun run = CommandRun.of("report", dir.resolve("nope.json").toString(), "-o", dir.resolve("r.html").toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).startsWith("tracesync: " + dir.resolve("nope.json")).doesNotContain("\tat ");
        assertThat(run.err().strip()).doesNotContain("\n");
    }

    @Test
    void unknownFormatIsAnInputError() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":1000,\"dir\":\"send\",\"msg\":\"x\"}\n");
        Path bin = dir.resolve("capture.bin");
        Files.write(bin, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0});
        CommandRun run = CommandRun.of("sync", a.toString(), bin.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err().strip()).doesNotContain("\n").startsWith("tracesync: " + bin + ": unknown trace format");
    }

    @Test
    void unreadableTraceNamesFileAndLine() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":1000,\"dir\":\"send\",\"msg\":\"x\"}\n{\"node\":\"a\",\"t\":1.5e3}\n");
        Path b = file("b.jsonl", "{\"node\":\"b\",\"t\":1100,\"dir\":\"recv\",\"msg\":\"x\"}\n");
        CommandRun run = CommandRun.of("sync", a.toString(), b.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + a + ":line 2: \"t\" = 1.5e3 is not an integer; expected integer "
                + "nanoseconds like 1700000000123456789");
    }

    @Test
    void debugAddsTheStackTrace() throws IOException {
        Path a = file("a.jsonl", "garbage\n");
        Path b = file("b.jsonl", "{\"node\":\"b\",\"t\":1100,\"dir\":\"recv\",\"msg\":\"x\"}\n");
        CommandRun quiet = CommandRun.of("sync", a.toString(), b.toString());
        assertThat(quiet.exitCode()).isEqualTo(3);
        assertThat(quiet.err()).doesNotContain("\tat ");
        CommandRun debug = CommandRun.of("sync", "--debug", a.toString(), b.toString());
        assertThat(debug.exitCode()).isEqualTo(3);
        assertThat(debug.err()).startsWith(quiet.err()).contains("TraceFormatException", "\tat org.tracesync.");
    }

    @Test
    void nothingInCommonIsExitOneNamingNodesAndWhy() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":1000,\"dir\":\"send\",\"msg\":\"x1\"}\n"
                + "{\"node\":\"a\",\"t\":2000,\"dir\":\"recv\",\"msg\":\"y1\"}\n");
        Path b = file("b.jsonl", "{\"node\":\"b\",\"t\":1500,\"dir\":\"send\",\"msg\":\"z1\"}\n");
        CommandRun run = runCapturingStdout("sync", a.toString(), b.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("node a is not synchronized: no messages with any other node",
                "node b is not synchronized: no messages with any other node");
        assertOneLine(run, "tracesync: 2 of 2 nodes could not be synchronized: a (no messages with any other node); "
                + "b (no messages with any other node)");
    }

    @Test
    void badOptionIsAUsageErrorOnOneLine() {
        CommandRun run = CommandRun.of("sync", "--bogus", "x.jsonl");
        assertThat(run.exitCode()).isEqualTo(2);
        assertOneLine(run, "tracesync sync: Unknown option: '--bogus' (see 'tracesync sync --help')");
        run = CommandRun.of("frobnicate");
        assertThat(run.exitCode()).isEqualTo(2);
        assertOneLine(run, "tracesync: Unmatched argument at index 0: 'frobnicate' (see 'tracesync --help')");
        run = CommandRun.of("report");
        assertThat(run.exitCode()).isEqualTo(2);
        assertOneLine(run, "tracesync report: Missing required parameter: 'RESULT' (see 'tracesync report --help')");
    }

    @Test
    void unknownReferenceIsAUsageError() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":1000,\"dir\":\"send\",\"msg\":\"x\"}\n");
        Path b = file("b.jsonl", "{\"node\":\"b\",\"t\":1100,\"dir\":\"recv\",\"msg\":\"x\"}\n");
        CommandRun run = CommandRun.of("sync", "--reference", "zz", a.toString(), b.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip()).doesNotContain("\n").contains("--reference zz: no such node");
    }

    // Issue #12 item 11: the true reason, in the user's words

    private Path b() throws IOException {
        return file("b.jsonl", "{\"node\":\"b\",\"t\":1100,\"dir\":\"recv\",\"msg\":\"x\"}\n");
    }

    @Test
    void anEmptyCaptureIsCalledEmpty() throws IOException {
        Path empty = file("h1.pcap", "");
        CommandRun run = CommandRun.of("sync", empty.toString(), b().toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + empty + ": empty file (0 bytes): not a trace");
        CommandRun inspect = CommandRun.of("inspect", empty.toString());
        assertThat(inspect.exitCode()).isEqualTo(3);
        assertOneLine(inspect, "tracesync: " + empty + ": empty file (0 bytes): not a trace");
    }

    @Test
    void aCaptureWithABadHeaderSaysSo() throws IOException {
        Path bad = file("h1.pcapng", "not a capture at all");
        CommandRun run = CommandRun.of("sync", bad.toString(), b().toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + bad + ": not a pcap or pcapng capture (its first 4 bytes, 6e 6f 74 20, are"
                + " neither magic number)");
    }

    @Test
    void aDirectoryWithoutMetadataSaysItIsNotACtfTrace() throws IOException {
        Path d = Files.createDirectories(dir.resolve("session"));
        Files.createDirectories(d.resolve("ust/uid/0/64-bit"));
        Files.writeString(d.resolve("ust/uid/0/64-bit/metadata"), "/* CTF 1.8 */");
        CommandRun run = CommandRun.of("sync", d.toString(), b().toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + d + ": a directory without a CTF 'metadata' file; the traces inside it are "
                + d.resolve("ust/uid/0/64-bit") + ": give them instead");
    }

    @Test
    void anLttvFileWithABadTraceCountSaysSo() throws IOException {
        Path t = file("set.txt", "0 1 1.0 1.5\n1 0 2.0 1.6\n");
        CommandRun run = CommandRun.of("sync", t.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + t + ":line 1: looks like LTTV text, but expected the number of traces (a lone"
                + " integer) on the first significant line, found '0 1 1.0 1.5'");
    }

    @Test
    void lttvNegativeTimesAreRejectedAsJsonLinesOnesAre() throws IOException {
        Path t = file("neg.txt", "2\n0 1 -1.0 1.5\n1 0 2.0 1.6\n");
        CommandRun run = CommandRun.of("sync", t.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + t + ":line 2: the send time '-1.0' is negative; expected seconds since the"
                + " trace's origin (e.g. 12.000000345)");
    }

    @Test
    void inspectOfAMissingPathSaysItDoesNotExist() {
        CommandRun run = CommandRun.of("inspect", dir.resolve("nosuch").toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + dir.resolve("nosuch") + ": no such file or directory");
    }

    @Test
    void aHugeNumberIsNotAJacksonMessage() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":" + "1".repeat(21_000_000) + ",\"dir\":\"send\",\"msg\":\"x\"}\n");
        CommandRun run = CommandRun.of("sync", a.toString(), b().toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).doesNotContain("StreamReadConstraints").doesNotContain("String value length");
        assertOneLine(run, "tracesync: " + a + ":line 1: a value longer than 20000000 characters; expected one JSON"
                + " event per line");
    }

    @Test
    void aNodeAddressForANodeThatDoesNotExistIsAUsageError() throws IOException {
        Path sim = dir.resolve("sim");
        assertThat(CommandRun.of("simulate", "--format", "pcap", "--duration", "1s", "-o", sim.toString()).exitCode()).isZero();
        CommandRun run = CommandRun.of("sync", sim.resolve("h1.pcapng").toString(), sim.resolve("h2.pcapng").toString(),
                "--node-address", "zz=10.0.0.9");
        assertThat(run.exitCode()).isEqualTo(2);
        assertOneLine(run, "tracesync: --node-address zz: no capture of that node (nodes: [h1, h2])");
    }


    @Test
    void jsonErrorsInResultAndTruthFilesSayLineAndColumnWithoutJacksonInternals() throws IOException {
        Path bad = file("bad.json", "{\"format\": \"tracesync/1\", \"nodes\": [\n");
        CommandRun run = CommandRun.of("report", bad.toString(), "-o", dir.resolve("x.html").toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err()).doesNotContain("Source:", "StreamReadFeature", "REDACTED");
        assertOneLine(run, "tracesync: " + bad + ":line 2, column 1: not valid JSON: Unexpected end-of-input: expected"
                + " close marker for Array (start marker at line 1, column 36)");
    }

    @Test
    void anRttFileNamingNoTracedPairIsAnInputError() throws IOException {
        Path sim = dir.resolve("sim");
        assertThat(CommandRun.of("simulate", "--format", "pcap", "--nodes", "2", "--duration", "1s", "-o", sim.toString())
                .exitCode()).isZero();
        Path result = dir.resolve("r.json");
        String h1 = sim.resolve("h1.pcapng").toString();
        String h2 = sim.resolve("h2.pcapng").toString();
        assertThat(CommandRun.of("sync", "-q", h1, h2, "-o", result.toString()).exitCode()).isZero();
        Path rtt = file("rtt.txt", "# minimum round trips\n10.9.9.1 10.9.9.2 0.5\n");
        CommandRun run = CommandRun.of("eval", result.toString(), h1, h2, "--rtt", rtt.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertOneLine(run, "tracesync: " + rtt + ": none of its 1 round trips is between two traced nodes (give node"
                + " names or their addresses: h1 [10.0.0.1], h2 [10.0.0.2])");
    }

}
