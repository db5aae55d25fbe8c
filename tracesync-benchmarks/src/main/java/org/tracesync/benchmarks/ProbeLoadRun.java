package org.tracesync.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.tracesync.probe.Probe;

/**
 * Whole-process load of the probe (docs/PERFORMANCE.md, "Latency probe"):
 * <pre>
 *   ProbeLoadRun rate EVENTS_PER_S SECONDS probe|clock|none   paced: EVENTS_PER_S/1000 step() calls every ms
 *   ProbeLoadRun max THREADS SECONDS                    throughput: every thread records as fast as it can
 * </pre>
 * "rate ... none" runs the same pacing loop without the probe (the baseline), "clock" reads
 * {@code System.nanoTime()} instead of each call (the clock's share). Prints the process's
 * CPU time (all threads: JIT, GC and the background writer included) as a percentage of one core
 * over the run and over its second half (after class loading and JIT compilation), records
 * written and lost, the trace size, and the mean time per call on the calling thread (each tick's
 * batch of calls timed as a whole, so the two clock reads around it add 2/batch readings per call).
 * The writer's final drain is in the second half.
 */
public final class ProbeLoadRun {

    private ProbeLoadRun() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        if (mode.equals("rate")) {
            rate(Long.parseLong(args[1]), Integer.parseInt(args[2]), args[3]);
        } else {
            max(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
        }
    }

    private static long cpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void rate(long perSecond, int seconds, String mode) throws IOException {
        boolean withProbe = mode.equals("probe");
        boolean clock = mode.equals("clock");
        Path dir = Files.createTempDirectory("probe-load");
        Probe probe = withProbe ? Probe.open(dir, "load") : null;
        int order = withProbe ? probe.event("order") : 0;
        int perTick = (int) (perSecond / 1000);
        long cpu0 = cpu();
        long t0 = System.nanoTime();
        long next = t0;
        long seq = 0;
        long end = t0 + seconds * 1_000_000_000L;
        long sink = 0;
        long half = t0 + (end - t0) / 2;
        long cpuHalf = -1;
        long wallHalf = 0;
        long inCalls = 0;
        while (next < end) {
            if (cpuHalf < 0 && next >= half) {
                cpuHalf = cpu();
                wallHalf = System.nanoTime();
            }
            long c0 = System.nanoTime();
            for (int k = 0; k < perTick; k++) {
                if (probe != null) {
                    probe.step(order, seq, (int) (seq & 7));
                } else if (clock) {
                    sink += System.nanoTime();
                } else {
                    sink += seq;
                }
                seq++;
            }
            inCalls += System.nanoTime() - c0;
            next += 1_000_000L;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
        }
        if (probe != null) {
            probe.close();
        }
        long cpuEnd = cpu();
        long wallEnd = System.nanoTime();
        long wall = wallEnd - t0;
        long cpu = cpuEnd - cpu0;
        System.out.printf("rate %d/s for %d s, %s: %d calls, process CPU %.3f %% of one core (%d ms CPU in %d ms),"
                        + " second half %.3f %%, %.1f ns per call on the calling thread%s%n",
                perSecond, seconds, mode, seq, 100.0 * cpu / wall, cpu / 1_000_000, wall / 1_000_000,
                100.0 * (cpuEnd - cpuHalf) / (wallEnd - wallHalf), (double) inCalls / seq,
                probe == null ? " " + (sink & 1) : ", lost " + probe.lost() + ", trace " + size(dir) + " bytes");
        delete(dir);
    }

    private static void max(int threads, int seconds) throws Exception {
        Path dir = Files.createTempDirectory("probe-max");
        Probe probe = Probe.open(dir, "max", 1 << 20, 10, 1000);
        int order = probe.event("order");
        long[] counts = new long[threads];
        Thread[] ts = new Thread[threads];
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long t0 = System.nanoTime();
        for (int k = 0; k < threads; k++) {
            int id = k;
            ts[k] = new Thread(() -> {
                long n = 0;
                while (System.nanoTime() < end) {
                    for (int j = 0; j < 1000; j++) {
                        probe.step(order, n++, 1);
                    }
                }
                counts[id] = n;
            });
            ts[k].start();
        }
        long total = 0;
        for (int k = 0; k < threads; k++) {
            ts[k].join();
            total += counts[k];
        }
        long wall = System.nanoTime() - t0;
        probe.close();
        long lost = probe.lost();
        System.out.printf("max: %d threads, %d s: %d calls (%.1f M/s), %d written (%.1f M/s), %d lost, trace %d bytes%n",
                threads, seconds, total, total * 1e3 / wall, total - lost, (total - lost) * 1e3 / wall, lost, size(dir));
        delete(dir);
    }

    private static long size(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    private static void delete(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
