package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.result.ResultFile;

/** {@code sync --reduction}: the triangle through the command line. */
class SyncReductionOptionTest {

    @TempDir
    Path tmp;

    /**
     * Same clock everywhere. 0–1: 300 µs one way, 100 µs back; 0–2 the opposite; 1–2: 5 µs, sparse.
     * Path composition misplaces 1 and 2 by 200 µs relative to each other.
     */
    private Path triangle() throws Exception {
        StringBuilder sb = new StringBuilder("3\n");
        for (int k = 1; k <= 9; k++) {
            line(sb, 0, 1, k, 300e-6);
            line(sb, 1, 0, k + 0.5, 100e-6);
            line(sb, 0, 2, k + 0.25, 100e-6);
            line(sb, 2, 0, k + 0.75, 300e-6);
        }
        for (int k = 1; k <= 9; k += 4) {
            line(sb, 1, 2, k + 0.1, 5e-6);
            line(sb, 2, 1, k + 0.6, 5e-6);
        }
        Path in = tmp.resolve("triangle.txt");
        Files.writeString(in, sb.toString());
        return in;
    }

    private static void line(StringBuilder sb, int s, int r, double send, double latency) {
        sb.append(String.format(Locale.ROOT, "%d %d %.6f %.6f%n", s, r, send, send + latency));
    }

    /** Corrected latency (ns) of the 2 → 1 message sent at 1.6 s. */
    private static long latencyTwoToOne(SyncResult r) {
        long send = 1_600_000_000L;
        long recv = 1_600_005_000L;
        return r.node("1").transform().apply(recv) - r.node("2").transform().apply(send);
    }

    @Test
    void globalIsTheDefaultWithRedundantLinksAndInvertsNothing() throws Exception {
        Path out = tmp.resolve("global.json");
        SyncCommandTest.Run run = SyncCommandTest.run("sync", triangle().toString(), "--reference", "0", "-o", out.toString());
        assertThat(run.exit()).isZero();
        SyncResult r = ResultFile.read(out);
        assertThat(r.stats().get("reduction")).isEqualTo("global");
        assertThat(latencyTwoToOne(r)).isBetween(0L, 5_000L);
    }

    @Test
    void pathCompositionInvertsTheThirdLink() throws Exception {
        Path out = tmp.resolve("path.json");
        SyncCommandTest.Run run = SyncCommandTest.run("sync", triangle().toString(), "--reference", "0",
                "--reduction", "path", "-o", out.toString());
        assertThat(run.exit()).isZero();
        SyncResult r = ResultFile.read(out);
        assertThat(r.stats().get("reduction")).isEqualTo("path");
        assertThat(latencyTwoToOne(r)).isBetween(-200_000L, -190_000L);
    }

    /** Largest bound width (minus + plus, ns) of node 1 over the trace. */
    private static double widthOfNodeOne(SyncResult r) {
        var node = r.node("1");
        double w = 0;
        for (long t = node.start(); t <= node.end(); t += (node.end() - node.start()) / 10) {
            double[] mp = node.bounds().at(t);
            w = Math.max(w, mp[0] + mp[1]);
        }
        return w;
    }

    @Test
    void aKnownMinimumLatencyNarrowsTheJointBoundsAndKeepsTheTruth() throws Exception {
        Path plain = tmp.resolve("plain.json");
        Path tau = tmp.resolve("tau.json");
        assertThat(SyncCommandTest.run("sync", triangle().toString(), "--reference", "0", "-o", plain.toString()).exit()).isZero();
        // every message takes at least 5 µs (the 1–2 link); 4 µs is a true minimum
        SyncCommandTest.Run run = SyncCommandTest.run("sync", triangle().toString(), "--reference", "0",
                "--min-latency", "4us", "-o", tau.toString());
        assertThat(run.exit()).isZero();
        SyncResult a = ResultFile.read(plain);
        SyncResult b = ResultFile.read(tau);
        assertThat(b.stats().get("reduction")).isEqualTo("global");
        assertThat(latencyTwoToOne(b)).isBetween(4_000L, 5_000L);
        // all clocks are equal: the truth is a correction of 0, inside the bounds of both runs
        for (SyncResult r : java.util.List.of(a, b)) {
            var node = r.node("1");
            for (long t = node.start(); t <= node.end(); t += (node.end() - node.start()) / 10) {
                double[] mp = node.bounds().at(t);
                double est = node.transform().correction(t);
                assertThat(0.0).isBetween(est - mp[0], est + mp[1]);
            }
        }
        // each of the two slow links' corridors loses 2·4 µs: the 400 µs bounds get ~8 µs narrower
        assertThat(widthOfNodeOne(b)).isLessThan(widthOfNodeOne(a) - 7_000);
    }

    @Test
    void aMinimumLatencyAboveARealOneIsDroppedForThatPairAndSaidSo() throws Exception {
        Path out = tmp.resolve("tau.json");
        SyncCommandTest.Run run = SyncCommandTest.run("sync", triangle().toString(), "--reference", "0",
                "--min-latency", "50us", "-o", out.toString());
        assertThat(run.exit()).isZero();
        // the 1–2 link's messages take 5 µs: with 50 µs its hulls cross, so τ is dropped for that pair
        assertThat(run.out()).contains("pair 1/2: tau ignored").contains("50000 ns a to b");
        SyncResult r = ResultFile.read(out);
        assertThat(r.stats().get("min_latency_ignored_pairs")).isEqualTo(1L);
        assertThat(r.stats().get("reduction")).isEqualTo("global");
        assertThat(latencyTwoToOne(r)).isBetween(0L, 5_000L);
    }

    @Test
    void anRttFileGivesHalfTheRoundTripEachWayAndTheResultSaysWhatThatAssumes() throws Exception {
        Path rtt = tmp.resolve("rtt.txt");
        // 0–2 and 0–1 take 400 µs per round trip; 1–2 10 µs. Halves: 200 µs and 5 µs
        Files.writeString(rtt, "# minimum round trips\n0 1 0.4\n0 2 0.4\n1 2 0.010\n");
        Path out = tmp.resolve("rtt.json");
        SyncCommandTest.Run run = SyncCommandTest.run("sync", triangle().toString(), "--reference", "0",
                "--rtt", rtt.toString(), "-o", out.toString());
        assertThat(run.exit()).isZero();
        SyncResult r = ResultFile.read(out);
        assertThat(r.stats().get("min_latency")).isEqualTo("half the round trips of " + rtt);
        assertThat(r.warnings()).anyMatch(w -> w.contains("assume symmetric paths"));
        // the paths are not symmetric (300/100 µs): the corridor closes on the symmetric guess,
        // which is what the warning says; the pair notes name the latencies used
        assertThat(r.pairs()).anyMatch(p -> p.note().contains("200000 ns a to b, 200000 ns b to a"));
        SyncCommandTest.Run both = SyncCommandTest.run("sync", triangle().toString(), "--rtt", rtt.toString(),
                "--min-latency", "1us");
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("either --rtt or --min-latency");
    }

    @Test
    void aMinimumLatencyNarrowsPathCompositionToo() throws Exception {
        Path plain = tmp.resolve("plain.json");
        Path tau = tmp.resolve("tau.json");
        assertThat(SyncCommandTest.run("sync", triangle().toString(), "--reference", "0", "--reduction", "path",
                "-o", plain.toString()).exit()).isZero();
        SyncCommandTest.Run run = SyncCommandTest.run("sync", triangle().toString(), "--reference", "0",
                "--reduction", "path", "--min-latency", "4us", "-o", tau.toString());
        assertThat(run.exit()).isZero();
        assertThat(ResultFile.read(tau).stats().get("min_latency")).isEqualTo("--min-latency 4000 ns");
        assertThat(widthOfNodeOne(ResultFile.read(tau))).isLessThan(widthOfNodeOne(ResultFile.read(plain)) - 7_000);
    }

    @Test
    void evalChecksTooFastMessagesAgainstAGivenMinimumLatency() throws Exception {
        Path out = tmp.resolve("global.json");
        Path in = triangle();
        assertThat(SyncCommandTest.run("sync", in.toString(), "--reference", "0", "-o", out.toString()).exit()).isZero();
        // the 1–2 link's messages take 5 µs: against 50 µs all six are too fast, against 2 µs none
        var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        SyncCommandTest.Run high = SyncCommandTest.run("eval", out.toString(), in.toString(), "--min-latency", "50us", "--json");
        assertThat(high.exit()).isZero();
        var h = mapper.readTree(high.out());
        assertThat(h.get("too_fast").asLong()).isEqualTo(6);
        assertThat(h.get("tau_min_source").asText()).isEqualTo("--min-latency 50000 ns");
        SyncCommandTest.Run low = SyncCommandTest.run("eval", out.toString(), in.toString(), "--min-latency", "2us", "--json");
        assertThat(mapper.readTree(low.out()).get("too_fast").asLong()).isZero();
        SyncCommandTest.Run both = SyncCommandTest.run("eval", out.toString(), in.toString(), "--min-latency", "2us",
                "--rtt", in.toString());
        assertThat(both.exit()).isEqualTo(2);
        assertThat(both.err()).contains("either --rtt or --min-latency");
    }
}
