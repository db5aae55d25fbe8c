package org.tracesync.formats.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.estimate.RegressionEstimator;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.pcap.LinkTypes;
import org.tracesync.formats.pcap.PacketBuilder;
import org.tracesync.formats.pcap.PcapWriter;

/**
 * Issue #11 item 6: the regression's offset samples are the TCP matcher's exchanges (a data
 * segment and the acknowledgement that covers it), not "each reply with the latest request".
 *
 * <p>The captures: a client a and a server b, two connections used in turn; every round a sends
 * two pipelined requests, b answers each (its reply acknowledges that request), and a acknowledges
 * the second reply. Every tenth round a's first request is retransmitted (a key sent twice: dropped
 * by the matcher). Pairing each reply with the latest request b received pairs the first reply
 * with the second request — not an exchange — and skips the second reply; the real exchanges are
 * (request 1, reply 1), (request 2, reply 2) and (reply 2, a's ack), minus the retransmitted ones.
 */
class RegressionExchangesTest {

    @TempDir
    Path tmp;

    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};
    static final long T0 = 1_700_000_000_000_000_000L;
    static final long OFFSET = 3_000_000L;   // b's clock ahead by 3 ms
    static final double DRIFT = 20e-6;       // and faster by 20 ppm

    /** One captured packet: local time and frame. */
    private record Frame(long time, byte[] bytes) {
    }

    /** An exchange in local times: data sent t1, received t2, ack sent t3, received t4. */
    record Exchange(boolean dataFromA, long t1, long t2, long t3, long t4) {
    }

    static long onB(long t) {
        return t + OFFSET + Math.round(DRIFT * (double) (t - T0));
    }

    private final List<Frame> onA = new ArrayList<>();
    private final List<Frame> onBFrames = new ArrayList<>();
    final List<Exchange> exchanges = new ArrayList<>();
    /** Nanosecond captures (else microsecond ones). */
    boolean nanos = true;

    /** A segment sent at true time {@code send} and received {@code latency} later (true times). */
    private void segment(boolean fromA, long send, long latency, int port, long seq, long ack, int flags, int len) {
        byte[] buf = new byte[128];
        PacketBuilder p = new PacketBuilder().link(LinkTypes.RAW, 0).addresses(fromA ? A : B, fromA ? B : A)
                .tcp(fromA ? port : 80, fromA ? 80 : port, seq, ack, flags, len);
        int n = p.build(buf);
        byte[] frame = java.util.Arrays.copyOf(buf, n);
        if (fromA) {
            onA.add(new Frame(send, frame));
            onBFrames.add(new Frame(onB(send + latency), frame));
        } else {
            onBFrames.add(new Frame(onB(send), frame));
            onA.add(new Frame(send + latency, frame));
        }
    }

    private static long latency(SplittableRandom r) {
        return 60_000 + (long) (-Math.log(1 - r.nextDouble()) * 20_000);
    }

    List<Path> write(int rounds, long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        long[] seqA = {1_000, 500_000};
        long[] seqB = {9_000_000, 7_000_000};
        for (int k = 0; k < rounds; k++) {
            long t = T0 + k * 10_000_000L;
            int c = k % 2;
            int port = 40_000 + c;
            boolean retransmit = k % 10 == 3;
            long r1 = seqA[c];
            long r2 = r1 + 100;
            long l1 = latency(r);
            segment(true, t, l1, port, r1, seqB[c], 0x18, 100);
            long lr = 0;
            if (retransmit) {
                lr = latency(r);
                segment(true, t + 2_000, lr, port, r1, seqB[c], 0x18, 100);
            }
            long l2 = latency(r);
            segment(true, t + 5_000, l2, port, r2, seqB[c], 0x18, 100);
            long rep1 = Math.max(t + 5_000 + l2, retransmit ? t + 2_000 + lr : 0) + 10_000;
            long l3 = latency(r);
            segment(false, rep1, l3, port, seqB[c], r2, 0x18, 200);
            long rep2 = rep1 + 5_000;
            long l4 = latency(r);
            segment(false, rep2, l4, port, seqB[c] + 200, r2 + 100, 0x18, 200);
            long ackA = Math.max(rep1 + l3, rep2 + l4) + 1_000;
            long l5 = latency(r);
            segment(true, ackA, l5, port, r2 + 100, seqB[c] + 400, 0x10, 0);
            // reply 1 carries ack = end of request 1, reply 2 the end of request 2, a's ack the end of reply 2
            if (!retransmit) {
                exchanges.add(new Exchange(true, t, onB(t + l1), onB(rep1), rep1 + l3));
            }
            exchanges.add(new Exchange(true, t + 5_000, onB(t + 5_000 + l2), onB(rep2), rep2 + l4));
            exchanges.add(new Exchange(false, onB(rep2), rep2 + l4, ackA, onB(ackA + l5)));
            seqA[c] = r2 + 100;
            seqB[c] += 400;
        }
        return List.of(capture("a.pcap", onA), capture("b.pcap", onBFrames));
    }

    private Path capture(String name, List<Frame> frames) throws IOException {
        frames.sort(Comparator.comparingLong(Frame::time));
        Path p = tmp.resolve(name);
        try (PcapWriter w = new PcapWriter(p, LinkTypes.RAW, nanos, false, 128)) {
            for (Frame f : frames) {
                w.write(f.time(), f.bytes(), 0, f.bytes().length, f.bytes().length);
            }
        }
        return p;
    }

    static MessageInput open(List<Path> captures) throws IOException {
        return TraceInputs.open(captures, InputOptions.defaults()
                .withNodeAddresses(Map.of("a", List.of("10.0.0.1"), "b", List.of("10.0.0.2"))));
    }

    /**
     * The samples of the expected exchanges, oriented for the pair (a, b): the a → b message of
     * each exchange (x_s on a, y_r on b) and its b → a message (y_s on b, x_r on a); θ, u and the
     * margin as the class comment of {@link RegressionEstimator} defines them.
     */
    static double[][] expectedSamples(List<Exchange> exchanges, long x0, long v0) {
        int n = exchanges.size();
        double[] u = new double[n];
        double[] theta = new double[n];
        double[] margin = new double[n];
        for (int i = 0; i < n; i++) {
            Exchange e = exchanges.get(i);
            long xs = e.dataFromA() ? e.t1() : e.t3();
            long yr = e.dataFromA() ? e.t2() : e.t4();
            long ys = e.dataFromA() ? e.t3() : e.t1();
            long xr = e.dataFromA() ? e.t4() : e.t2();
            u[i] = 0.5 * ((double) (xs - x0) + (double) (xr - x0));
            theta[i] = 0.5 * ((double) (yr - xs - v0) + (double) (ys - xr - v0));
            margin[i] = 0.5 * ((double) (xr - xs) - (double) (ys - yr));
        }
        return new double[][] {u, theta, margin};
    }

    /** Every exchange the input reads, as "a b t1 t2 t3 t4" (node names), sorted; and whether the input can find them. */
    static List<String> exchangesOf(MessageInput input, boolean[] known) throws IOException {
        List<String> out = new ArrayList<>();
        known[0] = input.readMessages((s, r, ts, tr) -> { }, (a, b, t1, t2, t3, t4) -> out.add(input.nodes().get(a).name()
                + " " + input.nodes().get(b).name() + " " + t1 + " " + t2 + " " + t3 + " " + t4));
        out.sort(null);
        return out;
    }

    /** The matcher's exchanges are exactly the generator's, at local times, from either side. */
    @Test
    void theInputGivesExactlyTheRealExchanges() throws Exception {
        List<Path> captures = write(400, 12);
        List<String> expected = new ArrayList<>();
        for (Exchange e : exchanges) {
            expected.add((e.dataFromA() ? "a b " : "b a ") + e.t1() + " " + e.t2() + " " + e.t3() + " " + e.t4());
        }
        expected.sort(null);
        boolean[] known = new boolean[1];
        assertThat(exchangesOf(open(captures), known)).isEqualTo(expected);
        assertThat(known[0]).isTrue();
    }

    /**
     * Microsecond captures: a timestamp stands for any instant of its microsecond, so each
     * exchange is widened like its two messages — sends 1 µs earlier, receipts 1 µs later — and its
     * margin grows by 2 µs while its offset sample stays the same.
     */
    @Test
    void microsecondCapturesWidenEachExchangeLikeItsMessages() throws Exception {
        nanos = false;
        List<Path> captures = write(100, 14);
        List<String> expected = new ArrayList<>();
        for (Exchange e : exchanges) {
            expected.add((e.dataFromA() ? "a b " : "b a ") + (micro(e.t1()) - 1000) + " " + (micro(e.t2()) + 1000) + " "
                    + (micro(e.t3()) - 1000) + " " + (micro(e.t4()) + 1000));
        }
        expected.sort(null);
        assertThat(exchangesOf(open(captures), new boolean[1])).isEqualTo(expected);
    }

    private static long micro(long ns) {
        return ns / 1000 * 1000;
    }

    /**
     * The CTF path goes through the same matcher: the captures converted to LTTng-style kernel
     * traces (TCP headers with addresses) give the same exchanges and the same regression line.
     */
    @Test
    void kernelTracesGiveTheSameExchanges() throws Exception {
        List<Path> captures = write(200, 13);
        MessageInput fromCaptures = open(captures);
        List<Path> traces = new ArrayList<>();
        for (org.tracesync.formats.ctf.CaptureToCtf.Outcome o
                : org.tracesync.formats.ctf.CaptureToCtf.convertAll(captures, fromCaptures.nodes(), tmp.resolve("ctf"))) {
            traces.add(o.trace());
        }
        MessageInput fromCtf = TraceInputs.open(traces);
        boolean[] known = new boolean[1];
        List<String> ctf = exchangesOf(fromCtf, known);
        assertThat(known[0]).isTrue();
        assertThat(ctf).hasSize(200 * 3 - 20).isEqualTo(exchangesOf(fromCaptures, new boolean[1]));
        Synchronizer.Options regression = Synchronizer.Options.defaults().withEstimator(Synchronizer.Estimator.REGRESSION);
        PairEstimate p = Synchronizer.synchronize(fromCtf, regression).pairs().get(0);
        PairEstimate q = Synchronizer.synchronize(fromCaptures, regression).pairs().get(0);
        assertThat(p.line()).isEqualTo(q.line());
        assertThat(p.line().regression().samplesFrom()).isEqualTo("exchanges");
    }

    /**
     * Kernel traces whose TCP events have no addresses (the shared scp traces: add-on
     * {@code inet_sock_*} events) cannot give exchanges: the input says so, and the regression
     * pairs replies with requests, saying so in the note and the statistics.
     */
    @Test
    void tracesWithoutAddressesHaveNoExchanges() throws Exception {
        Path ctf = org.tracesync.formats.SharedData.file("ctf");
        MessageInput scp = TraceInputs.open(List.of(ctf.resolve("scp_src"), ctf.resolve("scp_dest")));
        boolean[] known = {true};
        assertThat(exchangesOf(scp, known)).isEmpty();
        assertThat(known[0]).isFalse();
        PairEstimate p = Synchronizer.synchronize(scp, Synchronizer.Options.defaults()
                .withEstimator(Synchronizer.Estimator.REGRESSION)).pairs().get(0);
        assertThat(p.line().regression().samplesFrom()).isEqualTo("paired messages");
        assertThat(p.note()).contains("replies paired with requests (the input has no acknowledgements)");
    }

    @Test
    void regressionIsFittedOnTheMatchersExchanges() throws Exception {
        List<Path> captures = write(400, 11);
        assertThat(exchanges).hasSize(400 * 3 - 40);
        MessageInput input = open(captures);
        Synchronizer.Synchronization s = Synchronizer.synchronize(input, Synchronizer.Options.defaults()
                .withEstimator(Synchronizer.Estimator.REGRESSION).withReference("a"));
        PairEstimate p = s.pairs().get(0);
        double[][] expected = expectedSamples(exchanges, p.x0(), p.v0());
        RegressionEstimator.Fit fit = RegressionEstimator.fit(expected[0], expected[1], expected[2], 0.95);
        assertThat(p.note()).contains("regression on " + fit.samples() + " exchanges (" + fit.rejected() + " rejected");
        assertThat(p.d()).isCloseTo(fit.d(), within(1e-12));
        assertThat(p.c()).isCloseTo(fit.c(), within(1e-3));
        // and the line is the true clock, to within the latency asymmetry's noise
        double trueC = OFFSET + DRIFT * (double) (p.x0() - T0) - p.v0();
        assertThat(p.d()).isCloseTo(DRIFT, within(1e-6));
        assertThat(p.c()).isCloseTo(trueC, within(5_000.0));
    }
}
