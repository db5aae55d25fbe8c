package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.input.TraceInputs;

/**
 * CTF traces whose clock runs below 1 GHz (here 1 MHz: µs timestamps) are quantized like µs
 * captures: a timestamp stands for any instant of its microsecond, so every message must be
 * widened by the two traces' resolutions or the corridor can exclude the true clocks. Two hosts
 * written by {@link CtfTraceWriter} at 1 MHz, clocks a fraction of a µs apart, sub-µs latencies:
 * the bounds must contain the true offset at every instant of the trace.
 */
class MicrosecondCtfBoundsTest {

    @TempDir
    Path tmp;

    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};

    /** The 1 MHz trace is valid CTF: babeltrace2 decodes the same events at the same (whole µs) times. */
    @org.junit.jupiter.api.Test
    void babeltraceReadsTheMicrosecondTraceAsWeDo() throws Exception {
        SharedCtfData.requireBabeltrace();
        long t0 = 1_700_000_000_000_000_000L;
        Path dir = tmp.resolve("us");
        try (CtfTraceWriter w = new CtfTraceWriter(dir, "us", t0, 4096, 1_000_000)) {
            w.networkInterface(0, t0 + 5, "eth0", A);
            for (int k = 0; k < 50; k++) {
                w.networkPacket(k % 2, t0 + 1_000_000L * k + 123 + k, k % 3 == 0, "eth0", 0x10 + k,
                        CtfTraceWriterTest.ipv4(A, B, 6, CtfTraceWriterTest.tcp(1, 2, k, 0, 0x10), 0));
            }
        }
        CtfBabeltraceComparisonTest.assertSameAsBabeltrace(dir, tmp);
        long[] events = {0};
        CtfTrace.open(dir).read(e -> {
            assertThat(e.timestamp() % 1_000).isZero(); // truncated to the µs
            events[0]++;
        });
        assertThat(events[0]).isEqualTo(52); // 50 packets, the interface and the statedump's end
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void boundsOfMicrosecondCtfTracesContainTheTrueClock(long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        long offset = 100 + rnd.nextLong(800); // B's clock ahead of A's by a fraction of a µs
        long t0 = 1_700_000_000_000_000_000L;
        Path da = tmp.resolve("a");
        Path db = tmp.resolve("b");
        int messages = 2_000;
        try (CtfTraceWriter wa = new CtfTraceWriter(da, "a", t0 - 1_000_000_000L, 4096, 1_000_000);
             CtfTraceWriter wb = new CtfTraceWriter(db, "b", t0 - 1_000_000_000L, 4096, 1_000_000)) {
            wa.networkInterface(0, t0, "eth0", A);
            wb.networkInterface(0, t0, "eth0", B);
            long seqA = 1_000;
            long seqB = 9_000_000;
            for (int k = 0; k < messages; k++) {
                long t = t0 + 1_000_000L + k * 1_000_000L + rnd.nextLong(1_000); // true send time, ns
                long latency = 300 + rnd.nextLong(400);                          // true latency, ns
                boolean fromA = (k & 1) == 0;
                byte[] packet = CtfTraceWriterTest.ipv4(fromA ? A : B, fromA ? B : A, 6,
                        CtfTraceWriterTest.tcp(fromA ? 40_000 : 7_000, fromA ? 7_000 : 40_000,
                                fromA ? seqA : seqB, fromA ? seqB : seqA, 0x18), 10);
                if (fromA) {
                    wa.networkPacket(0, t, true, "eth0", 0x1000 + k, packet);
                    wb.networkPacket(0, t + latency + offset, false, "eth0", 0x2000 + k, packet);
                    seqA += 10;
                } else {
                    wb.networkPacket(0, t + offset, true, "eth0", 0x2000 + k, packet);
                    wa.networkPacket(0, t + latency, false, "eth0", 0x1000 + k, packet);
                    seqB += 10;
                }
            }
        }
        assertThat(CtfTrace.open(da).timestampResolution()).isEqualTo(1_000);
        MessageInput input = TraceInputs.open(List.of(da, db), InputOptions.defaults());
        SyncResult r = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("a")).result();
        NodeResult b = r.node("b");
        assertThat(b.reference()).isEqualTo("a");
        assertThat(r.stats().get("messages")).isEqualTo((long) messages);
        NodeBounds bounds = b.bounds();
        assertThat(bounds.twoSided()).isTrue();
        // at every instant of B's trace (and between), the true correction is −offset
        for (long t = t0; t < t0 + (messages + 2) * 1_000_000L; t += 250_003) {
            double est = b.transform().correction(t);
            assertThat(-offset).as("true correction at %d (seed %d)", t, seed)
                    .isBetween((long) Math.floor(est - bounds.minus(t)), (long) Math.ceil(est + bounds.plus(t)));
        }
    }
}
