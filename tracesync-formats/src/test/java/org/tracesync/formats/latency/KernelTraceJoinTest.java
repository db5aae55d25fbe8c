package org.tracesync.formats.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.latency.LatencyBars;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.core.latency.LatencyMessageInput;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfTraceWriter;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.probe.Probe;

/**
 * A kernel trace (CTF, CLOCK_MONOTONIC) of a probed machine joins the probe's node on its clock:
 * here the chains only go h1 → h2, so h1 and h2 can be bounded only with the kernel traces' TCP
 * segments h2 → h1, and the true latencies (everything is recorded on this JVM's one clock) must
 * lie inside the bars.
 */
class KernelTraceJoinTest {

    @TempDir
    Path tmp;

    private static byte[] ipv4Tcp(byte[] src, byte[] dst, long seq) {
        ByteBuffer tcp = ByteBuffer.allocate(20).putShort((short) 40000).putShort((short) 5000).putInt((int) seq).putInt(7)
                .putShort((short) ((5 << 12) | 0x18)).putShort((short) 512).putShort((short) 0).putShort((short) 0);
        ByteBuffer b = ByteBuffer.allocate(40);
        b.put((byte) 0x45).put((byte) 0).putShort((short) 40).putShort((short) 1).putShort((short) 0x4000).put((byte) 64)
                .put((byte) 6).putShort((short) 0).put(src).put(dst).put(tcp.array());
        return b.array();
    }

    @Test
    void aKernelTraceOfAProbedMachineJoinsItsNodeOnItsClock() throws Exception {
        Path probes = tmp.resolve("probe");
        int n = 30;
        long[] before1 = new long[n];
        long[] after1 = new long[n];
        long[] before2 = new long[n];
        long[] after2 = new long[n];
        long[] raw = new long[n];
        try (Probe h1 = Probe.open(probes, "h1"); Probe h2 = Probe.open(probes, "h2")) {
            int e1 = h1.event("order");
            int e2 = h2.event("order");
            for (int s = 0; s < n; s++) {
                before1[s] = System.nanoTime();
                h1.step(e1, s, 1);
                after1[s] = System.nanoTime();
                Thread.sleep(1);
                before2[s] = System.nanoTime();
                h2.step(e2, s, 2);
                after2[s] = System.nanoTime();
                raw[s] = System.nanoTime();
                Thread.sleep(1);
            }
        }
        // kernel traces of the same machines, with clock offsets of their own: h2 sends to h1
        byte[] a1 = {10, 0, 0, 1};
        byte[] a2 = {10, 0, 0, 2};
        long k1 = 1_500_000_000_000_000_000L;
        long k2 = 1_600_000_000_123_456_789L;
        try (CtfTraceWriter w1 = new CtfTraceWriter(tmp.resolve("k1"), "h1", k1);
             CtfTraceWriter w2 = new CtfTraceWriter(tmp.resolve("k2"), "h2", k2)) {
            for (int s = 0; s < n; s++) {
                w2.networkPacket(0, k2 + raw[s] + 1_000, true, "eth0", 1, ipv4Tcp(a2, a1, 1000 + s));
                w1.networkPacket(0, k1 + raw[s] + 30_000, false, "eth0", 2, ipv4Tcp(a2, a1, 1000 + s));
            }
        }
        LatencyInputs in = LatencyInputs.open(List.of(probes, tmp.resolve("k1"), tmp.resolve("k2")));
        assertThat(in.events().nodeNames()).containsExactly("h1", "h2");
        assertThat(in.otherNodes()).containsExactly(0, 1);
        LatencyInstances inst = LatencyInstances.find(in.events());
        LatencyMessageInput messages = new LatencyMessageInput(inst, in.otherMessages(), in.otherNodes());
        assertThat(messages.nodes()).hasSize(2);
        Synchronizer.Synchronization sync = Synchronizer.synchronize(messages, Synchronizer.Options.defaults());
        LatencyBars bars = new LatencyBars(sync.result(), sync.pairs(), 5e-4);
        // every probe trace is on this JVM's clock: raw value = node time - that trace's clock offset
        long[] offset = new long[2];
        for (Path dir : ProbeTraceReader.probeTracesIn(probes)) {
            org.tracesync.formats.ctf.CtfTrace t = org.tracesync.formats.ctf.CtfTrace.open(dir);
            var c = t.metadata().clock("monotonic");
            offset[t.nodeName().equals("h1") ? 0 : 1] = c.offsetSeconds() * 1_000_000_000L + c.offset();
        }
        LatencyInstances.Measurements m = inst.measurements();
        long[] out = new long[3];
        int checked = 0;
        for (int i = 0; i < m.size(); i++) {
            if (m.kind(i) != LatencyInstances.Kind.TRANSITION) {
                continue;
            }
            assertThat(bars.measure(m.fromNode(i), m.timeFrom(i), m.toNode(i), m.timeTo(i), out))
                    .isEqualTo(LatencyBars.Status.BOUNDED);
            int s = (int) m.seq(i);
            long truth = (m.timeTo(i) - offset[1]) - (m.timeFrom(i) - offset[0]);
            assertThat(truth).isBetween(before2[s] - after1[s], after2[s] - before1[s]);
            assertThat(truth).isBetween(out[0] - out[1], out[0] + out[2]);
            checked++;
        }
        assertThat(checked).isEqualTo(n);
    }

    @Test
    void anotherTraceMayNotTakeALatencyNodesName() throws Exception {
        Path probes = tmp.resolve("probe");
        try (Probe h1 = Probe.open(probes, "h1")) {
            h1.step(h1.event("x"), 1, 1);
        }
        Path jsonl = tmp.resolve("h1.jsonl");
        java.nio.file.Files.writeString(jsonl, "{\"node\":\"j\",\"t\":5,\"event\":\"x\",\"seq\":1,\"step\":2}\n");
        try (CtfTraceWriter w = new CtfTraceWriter(tmp.resolve("kj"), "j", 0)) {
            w.networkInterface(0, 10, "eth0", new byte[] {10, 0, 0, 9});
        }
        assertThat(CaptureReader.isCapture(jsonl)).isFalse();
        assertThatThrownBy(() -> LatencyInputs.open(List.of(probes, jsonl, tmp.resolve("kj"))))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("kj").hasMessageContaining("'j' is a latency node's");
    }
}
