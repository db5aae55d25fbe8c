package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.input.TraceInputs;

/**
 * Real captures turned into LTTng-2.9-style CTF traces with {@link CtfTraceWriter}, then read back
 * (by babeltrace2 and by our reader) and synchronized. The captures (../shared/data/pcap/three-hosts)
 * carry known clock errors ({@code truth.json}); the pcap parsing here is a minimal test fixture
 * (classic nanosecond pcap, Ethernet), not the project's capture reader.
 */
class CtfFromCapturesTest {

    @TempDir
    Path tmp;

    static Path captures() {
        Path p = Path.of(System.getProperty("tracesync.shared.data", "../shared/data"), "pcap", "three-hosts");
        if (!Files.isDirectory(p)) {
            if ("1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
                fail("shared test data missing: " + p);
            }
            assumeTrue(false, "shared test data absent (" + p + "): test skipped");
        }
        return p;
    }

    /** Converts one capture of host {@code own} into a CTF trace; returns the number of packets written. */
    static int convert(Path pcap, String host, byte[] own, Path out) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(pcap)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(0)).isEqualTo(0xa1b23c4d);   // nanosecond pcap, little-endian
        assertThat(b.getInt(20)).isEqualTo(1);           // Ethernet
        long first = (b.getInt(24) & 0xFFFFFFFFL) * 1_000_000_000L + (b.getInt(28) & 0xFFFFFFFFL);
        int n = 0;
        try (CtfTraceWriter w = new CtfTraceWriter(out, host, first - 1_000_000_000L)) {
            w.networkInterface(0, first, "eth0", own);
            int pos = 24;
            while (pos + 16 <= b.limit()) {
                long ts = (b.getInt(pos) & 0xFFFFFFFFL) * 1_000_000_000L + (b.getInt(pos + 4) & 0xFFFFFFFFL);
                int incl = b.getInt(pos + 8);
                int data = pos + 16;
                pos = data + incl;
                int type = ((b.get(data + 12) & 0xFF) << 8) | (b.get(data + 13) & 0xFF);
                if (type != 0x0800 || incl < 14 + 20) {
                    continue;
                }
                byte[] ip = Arrays.copyOfRange(b.array(), data + 14, data + incl);
                boolean send = Arrays.equals(Arrays.copyOfRange(ip, 12, 16), own);
                w.networkPacket(0, Math.max(ts, first), send, "eth0", 0xffff8880_0000_0000L + n, ip);
                n++;
            }
        }
        return n;
    }

    @Test
    void capturesConvertedToCtfSynchronizeLikeTheTruth() throws Exception {
        Path dir = captures();
        List<Path> traces = new ArrayList<>();
        for (int h = 1; h <= 3; h++) {
            Path out = tmp.resolve("h" + h);
            int n = convert(dir.resolve("h" + h + ".pcap"), "h" + h, new byte[] {10, (byte) 200, (byte) h, 1}, out);
            assertThat(n).isGreaterThan(1000);
            traces.add(out);
        }
        // our reader: node names and addresses from the trace, every packet a network event
        CtfTrace h1 = CtfTrace.open(traces.get(0));
        assertThat(h1.node().name()).isEqualTo("h1");
        assertThat(h1.node().addresses()).containsExactly("10.200.1.1");

        MessageInput input = TraceInputs.open(traces);
        long[] messages = {0};
        input.readMessages((s, r, ts, tr) -> messages[0]++);
        SyncResult result = Synchronizer.synchronize(input,
                new Synchronizer.Options(Synchronizer.Estimator.BISECTOR, 0.95, "h1")).result();
        // truth.json: local(t) = t + alpha + beta·(t − T0); h1 has alpha = beta = 0
        long t0 = 1795276271412493002L;
        double[][] truth = {{0, 0}, {675342405, -2.9346598021578506e-05}, {965446622, 5.309403405324603e-05}};
        assertThat(messages[0]).isGreaterThan(5000);
        for (int h = 2; h <= 3; h++) {
            NodeResult n = result.node("h" + h);
            assertThat(n.reference()).isEqualTo("h1");
            long trueTime = t0 + 10_000_000_000L;
            long local = trueTime + Math.round(truth[h - 1][0] + truth[h - 1][1] * 10_000_000_000L);
            long mapped = n.transform().apply(local);
            // the clocks are linear here, so the truth lies inside the reported bounds (about ±1.5 µs)
            assertThat(n.quality().label()).isEqualTo("accurate");
            assertThat(Math.abs(mapped - trueTime)).as("h%d", h).isLessThan(20_000);
        }
    }

    @Test
    void babeltraceReadsAConvertedCapture() throws Exception {
        Path dir = captures();
        SharedCtfData.requireBabeltrace();
        Path out = tmp.resolve("h3");
        convert(dir.resolve("h3.pcap"), "h3", new byte[] {10, (byte) 200, 3, 1}, out);
        CtfBabeltraceComparisonTest.assertSameAsBabeltrace(out, tmp);
    }
}
