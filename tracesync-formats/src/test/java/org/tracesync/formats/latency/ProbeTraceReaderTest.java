package org.tracesync.formats.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.probe.Probe;

/** Probe traces written by the real probe library, read back. */
class ProbeTraceReaderTest {

    @TempDir
    Path tmp;

    @Test
    void twoTracesOfOneMachineShareItsMonotonicClockExactly() throws Exception {
        long[] before = new long[2];
        long[] after = new long[2];
        Path rootA = tmp.resolve("a");
        Path rootB = tmp.resolve("b");
        try (Probe a = Probe.open(rootA, "m1"); Probe b = Probe.open(rootB, "m1")) {
            int ea = a.event("order");
            int eb = b.event("order");
            int ra = a.event("render");
            before[0] = System.nanoTime();
            a.step(ea, 42, 1);
            after[0] = System.nanoTime();
            Thread.sleep(3);
            before[1] = System.nanoTime();
            b.step(eb, 42, 2);
            after[1] = System.nanoTime();
            a.start(ra, 7);
            a.stop(ra, 7);
            a.send(99);
            b.receive(1234567890123L);
        }
        LatencyInputs in = LatencyInputs.open(List.of(rootA, rootB));
        LatencyEvents ev = in.events();
        assertThat(ev.nodeNames()).containsExactly("m1");
        assertThat(ev.size()).isEqualTo(6);
        assertThat(in.others()).isEmpty();
        assertThat(in.warnings()).isEmpty();
        LatencyInstances inst = LatencyInstances.find(ev);
        LatencyInstances.Measurements m = inst.measurements();
        assertThat(m.size()).isEqualTo(3); // 1 -> 2, end to end, render
        long measured = m.timeTo(0) - m.timeFrom(0);
        // recorded on one clock: the difference lies between the calls' brackets, to the ns
        assertThat(measured).isBetween(before[1] - after[0], after[1] - before[0]);
        assertThat(inst.events().messageId(0)).isEqualTo("99");
        assertThat(inst.events().messageId(1)).isEqualTo("1234567890123");
        // epoch-based: within a minute of the wall clock
        assertThat(Math.abs(m.timeFrom(0) - System.currentTimeMillis() * 1_000_000L)).isLessThan(60_000_000_000L);
    }

    @Test
    void recordsLostToAFullBufferAreReported() throws Exception {
        Probe p = Probe.open(tmp, "busy", 4, 10_000, 10_000);
        int e = p.event("x");
        for (int k = 0; k < 100; k++) {
            p.start(e, k);
        }
        p.close();
        long lost = p.lost();
        // the writer drains at start and at close only: at most 2 rings of 4 records are kept
        assertThat(lost).isBetween(92L, 96L);
        ProbeTraceReader r = new ProbeTraceReader();
        LatencyEvents ev = new LatencyEvents();
        assertThat(r.read(p.directory(), ev)).isEqualTo(100 - lost);
        // one warning per packet after losses (one or two packets here), together naming every loss
        long named = 0;
        for (String w : r.warnings()) {
            java.util.regex.Matcher mt = java.util.regex.Pattern.compile("thread_\\d+:offset \\d+: the tracer discarded (\\d+) events")
                    .matcher(w);
            assertThat(mt.find()).as(w).isTrue();
            named += Long.parseLong(mt.group(1));
        }
        assertThat(named).isEqualTo(lost);
    }

    @Test
    void aProbeOutputRootIsRecognizedAndAPlainCtfTraceIsNot() throws Exception {
        try (Probe p = Probe.open(tmp, "n")) {
            p.step(p.event("x"), 1, 1);
        }
        assertThat(ProbeTraceReader.probeTracesIn(tmp)).hasSize(1);
        assertThat(ProbeTraceReader.isProbeTrace(ProbeTraceReader.probeTracesIn(tmp).get(0))).isTrue();
        assertThat(ProbeTraceReader.isProbeTrace(tmp)).isFalse();
    }
}
