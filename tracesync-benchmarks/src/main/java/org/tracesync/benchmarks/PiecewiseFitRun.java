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
        }
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
