package org.tracesync.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Locale;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.formats.lttv.LttvTextInput;

/**
 * The piecewise fit of a long two-node trace, in process (docs/PERFORMANCE.md, "Long traces",
 * seventh session): reads an LTTV text file as {@code sync} does (two threads), then estimates its
 * first pair ROUNDS times, each round printing the calling thread's CPU time, the whole process's
 * (the fit's second threads, the JIT compiling it and the collector) and the wall time, with the
 * number of segments and a digest of the transform and bounds that must not change with the
 * fit's code. Round 1 is what one {@code sync} run pays (the reading's code is warm, the fit's
 * not); the later rounds are the steady state.
 *
 * <pre>java -Xmx1g -XX:+UseParallelGC &lt;the launcher's JIT flags&gt; -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.PiecewiseFitRun FILE ROUNDS</pre>
 */
public final class PiecewiseFitRun {

    private PiecewiseFitRun() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int rounds = Integer.parseInt(args[1]);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long w = System.nanoTime();
        PairAccumulator acc = LttvTextInput.open(file).accumulate(2).nonEmptyPairs().get(0);
        System.out.printf(Locale.ROOT, "read %s: %.2f s wall; load %.2f%n", file, (System.nanoTime() - w) / 1e9,
                os.getSystemLoadAverage());
        for (int r = 1; r <= rounds; r++) {
            java.util.Map<String, Long> t0 = threadTicks();
            long c0 = cpu.getCurrentThreadCpuTime();
            long p0 = os.getProcessCpuTime();
            long w0 = System.nanoTime();
            PairEstimate e = ConvexHullEstimator.estimate(acc);
            long c1 = cpu.getCurrentThreadCpuTime();
            long p1 = os.getProcessCpuTime();
            long w1 = System.nanoTime();
            System.out.printf(Locale.ROOT, "round %d: fit thread %.3f s CPU, process %.3f s CPU, %.3f s wall; %s, %d segments, digest %016x%n",
                    r, (c1 - c0) / 1e9, (p1 - p0) / 1e9, (w1 - w0) / 1e9, e.quality(),
                    e.transformAToB().segments().size(), digest(e));
            System.out.println("  by thread (s CPU): " + byThread(t0, threadTicks()));
        }
    }

    /**
     * CPU ticks (user + system) of every thread of this process by kind (C2, C1, GC, and the
     * others by name), from /proc/self/task/N/stat (Linux; empty elsewhere): the JIT's compiler
     * threads are not visible to ThreadMXBean.
     */
    private static java.util.Map<String, Long> threadTicks() {
        java.util.Map<String, Long> out = new java.util.TreeMap<>();
        java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
        if (tasks == null) {
            return out;
        }
        for (java.io.File task : tasks) {
            try {
                String s = java.nio.file.Files.readString(task.toPath().resolve("stat"));
                String name = s.substring(s.indexOf('(') + 1, s.lastIndexOf(')'));
                String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                String kind = name.startsWith("C2 ") ? "C2" : name.startsWith("C1 ") ? "C1"
                        : name.contains("GC") ? "GC" : name;
                out.merge(kind, ticks, Long::sum);
            } catch (IOException | RuntimeException gone) {
                // a thread that ended meanwhile
            }
        }
        return out;
    }

    private static String byThread(java.util.Map<String, Long> before, java.util.Map<String, Long> after) {
        StringBuilder b = new StringBuilder();
        for (var e : after.entrySet()) {
            long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
            if (d > 0) {
                b.append(String.format(Locale.ROOT, "%s %.2f  ", e.getKey(), d / 100.0));
            }
        }
        return b.toString().trim();
    }

    /** A digest of every segment's numbers and of the bounds' rows. */
    private static long digest(PairEstimate e) {
        long h = 1125899906842597L;
        for (var s : e.transformAToB().segments()) {
            h = 31 * h + java.util.Objects.hash(s.from(), s.to(), s.origin(), s.offset(), s.drift());
        }
        if (e.hasBounds()) {
            for (var f : new org.tracesync.core.transform.MonotoneBound[] {e.bounds().lowerAToB(), e.bounds().upperAToB()}) {
                for (int k = 0; k < f.size(); k++) {
                    h = 31 * h + f.t(k);
                    h = 31 * h + f.r(k);
                }
            }
        }
        return h;
    }
}
