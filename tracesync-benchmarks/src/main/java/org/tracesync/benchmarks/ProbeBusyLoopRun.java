package org.tracesync.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.formats.latency.ProbeTraceReader;
import org.tracesync.probe.Probe;

/**
 * The error metric of Pääkkönen et al. (their Figures 6–7): a busy loop of known length L between
 * a simple event's start and stop; error = measured length (from the trace, read back by
 * {@link ProbeTraceReader}) − L. The loop spins on {@code System.nanoTime()} until L ns have passed
 * since its own first reading, so its true length is L plus at most one clock read.
 * <pre>  ProbeBusyLoopRun [REPEATS]   (default 10,000 per length; lengths 1, 10, 100, 1000 µs)</pre>
 */
public final class ProbeBusyLoopRun {

    private ProbeBusyLoopRun() {
    }

    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        long[] lengths = {1_000, 10_000, 100_000, 1_000_000};
        Path dir = Files.createTempDirectory("probe-busy");
        Probe probe = Probe.open(dir, "busy", 1 << 16, 10, 1000);
        int[] ids = new int[lengths.length];
        for (int k = 0; k < lengths.length; k++) {
            ids[k] = probe.event("busy_" + lengths[k] / 1000 + "us");
        }
        for (int r = 0; r < repeats; r++) {
            for (int k = 0; k < lengths.length; k++) {
                if (lengths[k] >= 1_000_000 && r >= repeats / 10) {
                    continue; // 1 ms loops: a tenth of the repeats keeps the run short
                }
                probe.start(ids[k], r);
                long t0 = System.nanoTime();
                while (System.nanoTime() - t0 < lengths[k]) {
                    Thread.onSpinWait();
                }
                probe.stop(ids[k], r);
            }
        }
        probe.close();
        LatencyEvents ev = new LatencyEvents();
        new ProbeTraceReader().read(probe.directory(), ev);
        LatencyInstances inst = LatencyInstances.find(ev);
        LatencyInstances.Measurements m = inst.measurements();
        System.out.println("length  count   error min / mean / p50 / p99 / max (ns), relative p50");
        for (int k = 0; k < lengths.length; k++) {
            long[] err = new long[m.size()];
            int n = 0;
            for (int i = 0; i < m.size(); i++) {
                if (ev.eventName(m.event(i)).equals("busy_" + lengths[k] / 1000 + "us")) {
                    err[n++] = (m.timeTo(i) - m.timeFrom(i)) - lengths[k];
                }
            }
            err = Arrays.copyOf(err, n);
            Arrays.sort(err);
            double mean = Arrays.stream(err).average().orElse(Double.NaN);
            System.out.printf("%5d us %6d   %d / %.0f / %d / %d / %d   %.4f %%%n", lengths[k] / 1000, n, err[0], mean,
                    err[n / 2], err[(int) Math.ceil(0.99 * n) - 1], err[n - 1], 100.0 * err[n / 2] / lengths[k]);
        }
        System.out.println("lost " + probe.lost());
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
