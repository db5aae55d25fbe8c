package org.tracesync.formats.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.latency.LatencyBars;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.core.latency.LatencyMessageInput;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfTrace;
import org.tracesync.formats.pcap.LinkTypes;
import org.tracesync.formats.pcap.PcapWriter;
import org.tracesync.probe.Probe;

/**
 * Captures (CLOCK_REALTIME) and span files of probed machines join the probes' nodes through the
 * probes' epoch-offset samples: here the chains only go h1 → h2, so the pair is bounded only by what
 * the captures (TCP h2 → h1) or the spans (a SERVER on h1 ending before its CLIENT on h2) add; the
 * true latencies (every probe on this JVM's one clock) must lie inside the bars.
 */
class RealtimeJoinTest {

    @TempDir
    Path tmp;

    record Run(Path probes, long[] before1, long[] after1, long[] before2, long[] after2, long[] raw, long epoch) {
    }

    /** Probes h1 and h2 on this JVM: chains h1 → h2 only. */
    private Run record(int n) throws Exception {
        Path probes = tmp.resolve("probe");
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
        // the machine's realtime − monotonic, as h1's probe sampled it at start (its clock offset)
        long epoch = 0;
        for (Path dir : ProbeTraceReader.probeTracesIn(probes)) {
            CtfTrace t = CtfTrace.open(dir);
            if (t.nodeName().equals("h1")) {
                var c = t.metadata().clock("monotonic");
                epoch = c.offsetSeconds() * 1_000_000_000L + c.offset();
            }
        }
        return new Run(probes, before1, after1, before2, after2, raw, epoch);
    }

    private static byte[] ipv4Tcp(byte[] src, byte[] dst, long seq) {
        ByteBuffer tcp = ByteBuffer.allocate(20).putShort((short) 40000).putShort((short) 5000).putInt((int) seq).putInt(7)
                .putShort((short) ((5 << 12) | 0x18)).putShort((short) 512).putShort((short) 0).putShort((short) 0);
        ByteBuffer b = ByteBuffer.allocate(40);
        b.put((byte) 0x45).put((byte) 0).putShort((short) 40).putShort((short) 1).putShort((short) 0x4000).put((byte) 64)
                .put((byte) 6).putShort((short) 0).put(src).put(dst).put(tcp.array());
        return b.array();
    }

    /** Every transition bounded, its bar holding the true latency (probes on one clock: raw differences). */
    private static void checkBars(Run run, LatencyInputs in) throws Exception {
        LatencyInstances inst = LatencyInstances.find(in.events());
        LatencyMessageInput messages = in.messageInput(inst);
        assertThat(messages.nodes()).hasSize(2);
        Synchronizer.Synchronization sync = Synchronizer.synchronize(messages, Synchronizer.Options.defaults());
        assertThat(sync.result().nodes().get(1).quality().label()).isEqualTo("accurate");
        LatencyBars bars = new LatencyBars(sync.result(), sync.pairs(), 5e-4);
        long[] offset = new long[2];
        for (Path dir : ProbeTraceReader.probeTracesIn(run.probes())) {
            CtfTrace t = CtfTrace.open(dir);
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
            assertThat(truth).isBetween(run.before2()[s] - run.after1()[s], run.after2()[s] - run.before1()[s]);
            assertThat(truth).isBetween(out[0] - out[1], out[0] + out[2]);
            checked++;
        }
        assertThat(checked).isEqualTo(run.raw().length);
    }

    @Test
    void capturesOfProbedMachinesJoinTheirNodesThroughTheEpochOffsetSamples() throws Exception {
        int n = 30;
        Run run = record(n);
        byte[] a1 = {10, 0, 0, 1};
        byte[] a2 = {10, 0, 0, 2};
        byte[] a3 = {10, 0, 0, 3};
        // realtime captures: h2 sends each segment 1 µs after its step's end, h1 receives it 30 µs later;
        // a few packets to a third host make each capture's own address the most frequent one
        try (PcapWriter w1 = new PcapWriter(tmp.resolve("h1.pcap"), LinkTypes.RAW, true, false, 128);
             PcapWriter w2 = new PcapWriter(tmp.resolve("h2.pcap"), LinkTypes.RAW, true, false, 128)) {
            for (int s = 0; s < n; s++) {
                byte[] p = ipv4Tcp(a2, a1, 1000 + s);
                w2.write(run.epoch() + run.raw()[s] + 1_000, p, 0, p.length, p.length);
                w1.write(run.epoch() + run.raw()[s] + 30_000, p, 0, p.length, p.length);
                byte[] q1 = ipv4Tcp(a1, a3, 5000 + s);
                byte[] q2 = ipv4Tcp(a2, a3, 9000 + s);
                w1.write(run.epoch() + run.raw()[s] + 40_000, q1, 0, q1.length, q1.length);
                w2.write(run.epoch() + run.raw()[s] + 40_000, q2, 0, q2.length, q2.length);
            }
        }
        LatencyInputs in = LatencyInputs.open(List.of(run.probes(), tmp.resolve("h1.pcap"), tmp.resolve("h2.pcap")));
        assertThat(in.events().nodeNames()).containsExactly("h1", "h2");
        assertThat(in.otherNodes()).containsExactly(0, 1);
        assertThat(in.otherMappings()).doesNotContainNull();
        assertThat(in.otherMappings()[0].segments()).isPositive();
        assertThat(in.otherMappings()[0].uncertainty()).isLessThan(1_000_000);
        assertThat(in.warnings()).anyMatch(w -> w.startsWith("h1.pcap joins probed node 'h1' through its epoch-offset samples"));
        checkBars(run, in);
    }

    @Test
    void spanFilesOfProbedMachinesJoinTheirNodesToo() throws Exception {
        int n = 30;
        Run run = record(n);
        // OTLP JSON: a CLIENT on h2 around each step 2 calls a SERVER on h1 (host.name = the probe's node name)
        StringBuilder b = new StringBuilder();
        for (int s = 0; s < n; s++) {
            long c0 = run.epoch() + run.raw()[s] + 1_000;
            long c1 = c0 + 200_000;
            String trace = String.format("%032x", s + 1L);
            b.append(line("h2", trace, String.format("%016x", 2 * s + 1L), "", 3, c0, c1)).append('\n');
            b.append(line("h1", trace, String.format("%016x", 2 * s + 2L), String.format("%016x", 2 * s + 1L), 2,
                    c0 + 40_000, c1 - 40_000)).append('\n');
        }
        Path spans = tmp.resolve("spans.jsonl");
        Files.writeString(spans, b.toString());
        LatencyInputs in = LatencyInputs.open(List.of(run.probes(), spans));
        assertThat(in.spans()).isNotNull();
        assertThat(in.otherNodes()).containsExactly(1, 0); // span hosts in order of appearance: h2, h1
        checkBars(run, in);
    }

    private static String line(String host, String trace, String id, String parent, int kind, long start, long end) {
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"host.name\",\"value\":{\"stringValue\":\"" + host
                + "\"}}]},\"scopeSpans\":[{\"spans\":[{\"traceId\":\"" + trace + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\""
                + parent + "\",\"kind\":" + kind + ",\"startTimeUnixNano\":\"" + start + "\",\"endTimeUnixNano\":\"" + end
                + "\"}]}]}]}";
    }

    @Test
    void aSpanHostNamedLikeAJsonLinesNodeIsRefused() throws Exception {
        Path jsonl = tmp.resolve("w.jsonl");
        Files.writeString(jsonl, "{\"node\":\"w\",\"t\":5,\"event\":\"x\",\"seq\":1,\"step\":1}\n");
        Path spans = tmp.resolve("spans.jsonl");
        Files.writeString(spans, line("w", "0".repeat(31) + "1", "0".repeat(15) + "1", "", 3, 1_700_000_000_000_000_000L,
                1_700_000_000_000_100_000L) + "\n");
        assertThatThrownBy(() -> LatencyInputs.open(List.of(jsonl, spans)))
                .isInstanceOf(TraceFormatException.class)
                .hasMessage(spans + ": span host 'w' has a latency node's name, and only a probed machine's spans can join it"
                        + " (through the probe's epoch-offset samples); choose another host attribute with a different name");
    }
}
