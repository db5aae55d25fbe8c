package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.result.ResultFile;
import picocli.CommandLine;

class SyncCommandTest {

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cl = TracesyncCommand.newCommandLine();
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(out));
        int exit = cl.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    private Path twoNodes() throws Exception {
        Path in = tmp.resolve("two.txt");
        Files.writeString(in, "2\n0 1 10.000100 10.080200\n0 1 70.000100 70.080260\n"
                + "1 0 10.080300 10.000250\n1 0 70.080400 70.000390\n");
        return in;
    }

    @Test
    void syncWritesTheResultAndASummary() throws Exception {
        Path out = tmp.resolve("result.json");
        Run r = run("sync", twoNodes().toString(), "-o", out.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("2 nodes, 4 messages, reference 0").contains("accurate").contains("result written to");
        SyncResult result = ResultFile.read(out);
        assertThat(result.node("1").quality()).isEqualTo(Quality.ACCURATE);
        assertThat(result.node("1").transform().linearSegment().offset()).isBetween(-80.1e6, -80.0e6);
    }

    /**
     * Node 2 only receives from 1, and its clock reads 0.1 s early: it is placed on the reference
     * with the smallest correction that removes the violation (+0.1 s), flagged one-way, with a
     * lower bound only (the reference time is no earlier than the message allows); the summary
     * says so, and no message is contradicted (exit 0).
     */
    @Test
    void aOneWayNodeGetsTheSmallestCorrectionAndAOneSidedBound() throws Exception {
        Path in = tmp.resolve("oneway.txt");
        Path out = tmp.resolve("oneway.json");
        Files.writeString(in, "3\n0 1 1.0 1.5\n1 0 2.0 1.7\n1 2 3.0 2.9\n");
        Run r = run("sync", in.toString(), "-o", out.toString());
        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains("node 2 is tied one way only (to 1): its own clock shifted by +100000000 ns")
                .contains("the smallest shift that removes every violation").contains("one-sided bound");
        SyncResult result = ResultFile.read(out);
        var node = result.node("2");
        assertThat(node.quality()).isEqualTo(Quality.ONE_WAY);
        assertThat(node.reference()).isEqualTo("1");
        assertThat(node.transform().correction(2_900_000_000L)).isEqualTo(100_000_000.0);
        // at the receive: exactly the send time, no earlier; no upper side
        assertThat(node.bounds().minus(2_900_000_000L)).isZero();
        assertThat(node.bounds().plus(2_900_000_000L)).isInfinite();
        assertThat(Files.readString(out)).contains("[ 2900000000, 0.0, null ]");
    }

    @Test
    void missingInputIsAnInputErrorOnOneLine() {
        Run r = run("sync", tmp.resolve("missing.txt").toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err().strip()).startsWith("tracesync: ").contains("missing.txt").contains("no such file")
                .doesNotContain("Exception").doesNotContain("\n");
    }

    @Test
    void corruptInputNamesTheLine() throws Exception {
        Path in = tmp.resolve("bad.txt");
        Files.writeString(in, "2\n0 1 1.0 1.5\n0 1 x 1.7\n");
        Run r = run("sync", in.toString());
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err()).contains("bad.txt:line 3: expected the send time in decimal seconds");
        assertThat(Files.exists(tmp.resolve("result.json"))).isFalse();
    }

    @Test
    void unknownReferenceAndBadOptionsAreUsageErrors() throws Exception {
        assertThat(run("sync", twoNodes().toString(), "--reference", "zz").exit()).isEqualTo(2);
        Run bad = run("sync", "--no-such-option", twoNodes().toString());
        assertThat(bad.exit()).isEqualTo(2);
        // one line (docs/USER_GUIDE.md, "Exit codes and errors")
        assertThat(bad.err()).isEqualTo("tracesync sync: Unknown option: '--no-such-option' (see 'tracesync sync --help')"
                + System.lineSeparator());
        assertThat(run("sync").exit()).isEqualTo(2);
    }

    @Test
    void referenceCanBeChosenAndRegressionSelected() throws Exception {
        Path out = tmp.resolve("r.json");
        Run r = run("sync", twoNodes().toString(), "--reference", "1", "--estimator", "regression", "-o", out.toString());
        assertThat(r.exit()).isZero();
        SyncResult result = ResultFile.read(out);
        assertThat(result.reference()).isEqualTo("1");
        assertThat(result.node("0").transform().linearSegment().offset()).isBetween(80.0e6, 80.1e6);
        assertThat(result.pairs().get(0).note()).contains("regression on 2 replies paired with requests");
        assertThat(result.pairs().get(0).regression().samplesFrom()).isEqualTo("paired messages");
        assertThat(r.out()).contains("Regression (statistical", "0/1: 2 replies paired with requests (0 rejected)");
    }

    @Test
    void versionAndHelpWork() {
        Run v = run("--version");
        assertThat(v.exit()).isZero();
        assertThat(v.out()).as("stderr: %s", v.err()).startsWith("tracesync ");
        Run h = run("--help");
        assertThat(h.exit()).isZero();
        assertThat(h.out()).contains("sync");
    }

    /** Issue #12 item 10: a drift no real clock has (more than 1 %) is warned about, not reported as plain "accurate". */
    @Test
    void anImplausibleDriftIsWarned() throws Exception {
        // node 1 runs 5 % fast: local = 1.05 t; 1 ms latency each way
        Path in = tmp.resolve("fast.txt");
        Files.writeString(in, "2\n0 1 1.000 1.05105\n0 1 10.000 10.50105\n1 0 2.100 2.001\n1 0 11.550 11.001\n");
        Run r = run("sync", in.toString());
        assertThat(r.out()).contains("Warnings").contains("node 1: drift -47642.8557 ppm against 0 (4.76 %) is not a real"
                + " clock's (crystals stay within 0.01 %): check the trace's clock (CTF freq and offsets) or the unit of"
                + " its timestamps");
    }


    /** Issue #12 item 16: a 12-node mesh (66 pairs) is summarized; --all-pairs lists every pair. */
    @Test
    void manyPairsAreSummarizedUnlessAllPairsIsAsked() throws Exception {
        Path sim = tmp.resolve("mesh");
        assertThat(run("simulate", "--nodes", "12", "--duration", "1s", "--rate", "20", "--format", "text", "-o",
                sim.toString()).exit()).isZero();
        Run r = run("sync", "--reduction", "path", sim.resolve("messages.txt").toString());
        assertThat(r.out()).containsPattern("  66 pairs \\([0-9]+ accurate[^)]*\\); the 30 weakest below \\(--all-pairs for"
                + " every pair; the result file holds them all\\)");
        long rows = r.out().lines().filter(l -> l.matches("  \\d+ +\\d+ +\\d+ +\\d+ .*")).count();
        assertThat(rows).isEqualTo(30);
        Run all = run("sync", "--reduction", "path", "--all-pairs", sim.resolve("messages.txt").toString());
        assertThat(all.out().lines().filter(l -> l.matches("  \\d+ +\\d+ +\\d+ +\\d+ .*")).count()).isEqualTo(66);
    }

    /** Issue #12 "Also": the summary speaks the report's units: µs, ppm, offset at the node's first message. */
    @Test
    void summaryUnitsMatchTheReport() throws Exception {
        Run r = run("sync", twoNodes().toString());
        assertThat(r.out()).contains("offset at start", "mean bound width", " ppm").doesNotContain(" us ", "e-05");
        assertThat(r.out()).containsPattern("[0-9] µs");
    }

}
