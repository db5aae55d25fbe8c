package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.input.TraceInputs;

/**
 * Issue #11 item 6 on the shared three-hosts captures: the matcher's exchanges against tshark's
 * acknowledgement analysis, and the regression line fitted on them against the hull's drift range
 * and the true clocks (truth.json).
 */
class ThreeHostsRegressionTest {

    private static final String[] HOSTS = {"h1", "h2", "h3"};
    private static final String[] ADDRESSES = {"10.200.1.1", "10.200.2.1", "10.200.3.1"};
    /** truth.json: local = t + alpha + beta·(t − T0); the drift of b relative to a is (1 + β_b)/(1 + β_a) − 1. */
    private static final double[] BETA = {0.0, -2.9346598021578506e-05, 5.309403405324603e-05};

    private static List<Path> captures(Path dir) {
        return List.of(dir.resolve("h1.pcap"), dir.resolve("h2.pcap"), dir.resolve("h3.pcap"));
    }

    private static double trueDrift(int a, int b) {
        return (1 + BETA[b]) / (1 + BETA[a]) - 1;
    }

    /**
     * The oracle: tshark's {@code tcp.analysis.acks_frame} in each capture links a segment the host
     * acknowledges to the data segment it covers. Taking the data segments the host sent (payload
     * &gt; 0) whose data and acknowledgement are both messages the matcher matched, the exchanges the
     * matcher reports with that host as data sender are exactly those (data sent t1, acknowledgement
     * received t4, peer), in all three captures: 16,617 exchanges.
     */
    @Test
    void exchangesAreTsharksAcknowledgedSegmentsAmongTheMatchedMessages() throws Exception {
        Path dir = SharedCaptures.threeHosts();
        SharedCaptures.assumeTshark();
        MessageInput input = TraceInputs.open(captures(dir));
        Set<String> sent = new HashSet<>();
        Set<String> received = new HashSet<>();
        List<long[]> found = new ArrayList<>();
        boolean known = input.readMessages((s, r, ts, tr) -> {
            sent.add(s + " " + ts);
            received.add(r + " " + tr);
        }, (a, b, t1, t2, t3, t4) -> found.add(new long[] {a, b, t1, t2, t3, t4}));
        assertThat(known).isTrue();
        assertThat(sent).hasSize(19_401);
        assertThat(found).hasSize(16_617);
        for (int h = 0; h < 3; h++) {
            Map<String, String[]> frames = new HashMap<>();
            List<String[]> rows = SharedCaptures.tsharkFields(dir.resolve(HOSTS[h] + ".pcap"), "frame.number",
                    "frame.time_epoch", "ip.src", "ip.dst", "tcp.len", "tcp.analysis.acks_frame");
            for (String[] r : rows) {
                frames.put(r[0], r);
            }
            Set<String> expected = new HashSet<>();
            for (String[] ack : rows) {
                if (ack[5].isEmpty() || !ack[3].equals(ADDRESSES[h])) {
                    continue; // not an acknowledgement this host received
                }
                String[] data = frames.get(ack[5]);
                long t1 = SharedCaptures.seconds(data[1]);
                long t4 = SharedCaptures.seconds(ack[1]);
                if (data[2].equals(ADDRESSES[h]) && Integer.parseInt(data[4]) > 0
                        && sent.contains(h + " " + t1) && received.contains(h + " " + t4)) {
                    expected.add(ack[2] + " " + t1 + " " + t4);
                }
            }
            Set<String> ours = new HashSet<>();
            for (long[] e : found) {
                if (e[0] == h) {
                    ours.add(ADDRESSES[(int) e[1]] + " " + e[2] + " " + e[5]);
                    // t2 and t3 are the peer's receipt of the data and sending of the acknowledgement
                    assertThat(received.contains(e[1] + " " + e[3]) && sent.contains(e[1] + " " + e[4]))
                            .as("t2, t3 of an exchange are a matched receipt and a matched send").isTrue();
                }
            }
            assertThat(ours).as(HOSTS[h]).isEqualTo(expected);
        }
    }

    /**
     * The regression line on those exchanges, against the hull. h1/h3 (no rate limiter on the
     * path): the regression drift lies inside the hull's feasible drift range, within 2 nanoseconds
     * per second of the truth, and its 95 % interval holds the truth; but its offset is off by half
     * the paths' latency asymmetry (2.48 µs), more than the corridor is wide, so the line inverts
     * 352 messages and the pair is fallback. Pairs with h2 do worse: the rate
     * limiter toward h2 queues h1 → h2 and h3 → h2 traffic by an amount that follows the load (the
     * bulk transfer), so the offset samples, biased by half the latency asymmetry, are biased by a
     * different amount over the trace, and the least-squares line tilts outside the corridor —
     * their residual standard error is over 100 times h1/h3's. The one rejection pass does not
     * remove them: the queued exchanges (margins up to 23 ms, median 4.7 µs on h1/h2) inflate the
     * mean + z·sd threshold itself, which then drops 344 of 5,579. The synchronizer says so: the
     * pair is fallback, the note counts the messages the line inverts, and the hull's strict bounds
     * are kept. The statistical interval does not hold the truth there: it assumes errors that do
     * not depend on time.
     */
    @Test
    void regressionLineAgainstTheHullsDriftRange() throws Exception {
        Path dir = SharedCaptures.threeHosts();
        MessageInput input = TraceInputs.open(captures(dir));
        Synchronizer.Synchronization s = Synchronizer.synchronize(input, Synchronizer.Options.defaults()
                .withEstimator(Synchronizer.Estimator.REGRESSION));
        Map<String, PairEstimate> pairs = new HashMap<>();
        for (PairEstimate p : s.pairs()) {
            pairs.put(HOSTS[p.a()] + "/" + HOSTS[p.b()], p);
        }
        Map<String, RegressionStatistics> stats = new HashMap<>();
        for (PairResult p : s.result().pairs()) {
            stats.put(p.a() + "/" + p.b(), p.regression());
        }
        PairEstimate h13 = pairs.get("h1/h3");
        RegressionStatistics r13 = stats.get("h1/h3");
        assertThat(r13.samplesFrom()).isEqualTo(RegressionStatistics.EXCHANGES);
        assertThat(r13.samples() + r13.rejected()).isEqualTo(5_930); // h1 → h3 data 2,965, h3 → h1 data 2,965
        assertThat(h13.d()).isBetween(h13.driftMin(), h13.driftMax());
        assertThat(h13.d()).isCloseTo(trueDrift(0, 2), within(2e-9));
        assertThat(Math.abs(h13.d() - trueDrift(0, 2))).isLessThan(r13.driftInterval());
        assertThat(r13.residualStandardError()).isLessThan(5_000.0);
        // its offset, though, carries half the paths' latency asymmetry, which no offset sample can
        // see: 2.48 µs off the truth (its interval says ± 106 ns), outside a corridor 2.15 µs wide
        double trueOffset13 = 965446622 + BETA[2] * (double) (h13.x0() - 1795276271412493002L);
        double offsetError = h13.v0() + h13.c() - trueOffset13;
        assertThat(offsetError).isBetween(2_000.0, 3_000.0).isGreaterThan(10 * r13.offsetInterval());
        assertThat(h13.meanAccuracy()).isLessThan(offsetError);
        assertThat(h13.quality()).isEqualTo(Quality.FALLBACK);
        assertThat(h13.violations()).isEqualTo(352);
        assertThat(h13.note()).contains("the regression line leaves the feasible region", "inverts 352 of 5944 messages");

        assertThat(stats.get("h1/h2").samples() + stats.get("h1/h2").rejected()).isEqualTo(5_579);
        assertThat(stats.get("h1/h2").rejected()).isEqualTo(344);
        for (String name : List.of("h1/h2", "h2/h3")) {
            PairEstimate p = pairs.get(name);
            RegressionStatistics r = stats.get(name);
            double truth = trueDrift(p.a(), p.b());
            assertThat(truth).as(name + ": the truth is in the hull's range").isBetween(p.driftMin(), p.driftMax());
            assertThat(p.d() < p.driftMin() || p.d() > p.driftMax()).as(name + ": regression drift outside the range").isTrue();
            assertThat(Math.abs(p.d() - truth)).as(name).isGreaterThan(r.driftInterval());
            assertThat(r.residualStandardError()).as(name).isGreaterThan(100 * r13.residualStandardError());
            assertThat(p.quality()).isEqualTo(Quality.FALLBACK);
            assertThat(p.violations()).isPositive();
            assertThat(p.note()).contains("the regression line leaves the feasible region", "regression on "
                    + r.samples() + " exchanges");
            assertThat(p.hasBounds()).isTrue();
        }
    }
}
