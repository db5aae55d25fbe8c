package org.tracesync.formats.input;

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
import org.tracesync.formats.pcap.LinkTypes;
import org.tracesync.formats.pcap.PacketBuilder;
import org.tracesync.formats.pcap.PcapWriter;

/**
 * Microsecond captures: a timestamp stands for any instant of its microsecond, so a message's
 * constraint must be widened by the two captures' resolutions, or the corridor can exclude the
 * true clocks. Two hosts whose clocks differ by a fraction of a microsecond, with sub-µs latencies,
 * captured at µs resolution: the bounds must contain the true offset at every message instant.
 */
class MicrosecondCaptureBoundsTest {

    @TempDir
    Path tmp;

    private static final byte[] A = {10, 0, 0, 1};
    private static final byte[] B = {10, 0, 0, 2};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void boundsOfMicrosecondCapturesContainTheTrueClock(long seed) throws Exception {
        SplittableRandom rnd = new SplittableRandom(seed);
        long offset = 100 + rnd.nextLong(800); // B's clock ahead of A's by a fraction of a µs
        long t0 = 1_700_000_000_000_000_000L;
        Path pa = tmp.resolve("a.pcap");
        Path pb = tmp.resolve("b.pcap");
        byte[] buf = new byte[128];
        int messages = 2_000;
        try (PcapWriter wa = new PcapWriter(pa, LinkTypes.RAW, false, false, 128);
             PcapWriter wb = new PcapWriter(pb, LinkTypes.RAW, false, false, 128)) {
            long seqA = 1_000;
            long seqB = 9_000_000;
            for (int k = 0; k < messages; k++) {
                long t = t0 + k * 1_000_000L + rnd.nextLong(1_000); // true send time, ns
                long latency = 300 + rnd.nextLong(400);           // true latency, ns
                boolean fromA = (k & 1) == 0;
                PacketBuilder p = new PacketBuilder().link(LinkTypes.RAW, 0)
                        .addresses(fromA ? A : B, fromA ? B : A)
                        .tcp(fromA ? 40_000 : 7_000, fromA ? 7_000 : 40_000, fromA ? seqA : seqB, fromA ? seqB : seqA, 0x18, 10);
                int n = p.build(buf);
                if (fromA) {
                    wa.write(t, buf, 0, n, n);
                    wb.write(t + latency + offset, buf, 0, n, n);
                    seqA += 10;
                } else {
                    wb.write(t + offset, buf, 0, n, n);
                    wa.write(t + latency, buf, 0, n, n);
                    seqB += 10;
                }
            }
        }
        MessageInput input = TraceInputs.open(List.of(pa, pb), InputOptions.defaults()
                .withNodeAddresses(java.util.Map.of("a", List.of("10.0.0.1"), "b", List.of("10.0.0.2"))));
        SyncResult r = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("a")).result();
        NodeResult b = r.node("b");
        assertThat(b.reference()).isEqualTo("a");
        NodeBounds bounds = b.bounds();
        // at every instant of B's trace (and between), the true correction is -offset
        for (long t = t0; t < t0 + messages * 1_000_000L; t += 250_003) {
            double est = b.transform().correction(t);
            assertThat(-offset).as("true correction at %d (seed %d)", t, seed)
                    .isBetween((long) Math.floor(est - bounds.minus(t)), (long) Math.ceil(est + bounds.plus(t)));
        }
    }
}
