package org.tracesync.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.formats.lttv.LttvTextInput;

/**
 * The LTTV text reading path of {@code sync}, in process (docs/PERFORMANCE.md, "Synchronization
 * engine"), REPEAT rounds in one JVM, each of:
 * <ul>
 *   <li>{@code parse}: every message parsed into a sink that only sums the times (CPU time of the
 *       calling thread: the parser alone);</li>
 *   <li>{@code read}: into pair accumulators (hulls, bucket hulls, counts), one thread (its CPU
 *       time);</li>
 *   <li>{@code parts}: the same in parts on THREADS threads, merged, as {@code sync} reads
 *       (CPU time of the whole process, compiler threads included, and wall time).</li>
 * </ul>
 * The first round includes the JIT's work (it is what one {@code sync} run pays); the later ones
 * are the steady state. After the rounds, the CPU time of each live thread group (Linux
 * /proc; e.g. the C2 compiler). The hull sizes and a checksum of the times must not change with
 * the reader's code.
 *
 * <pre>java -Xmx1g -XX:+UseParallelGC -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.LttvReadRun FILE REPEAT [THREADS]</pre>
 */
public final class LttvReadRun {

    private LttvReadRun() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        int repeat = Integer.parseInt(args[1]);
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : Runtime.getRuntime().availableProcessors();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double mb = Files.size(file) / 1e6;
        System.out.printf(Locale.ROOT, "file %s, %.1f MB; %d processors; load %s%n", file, mb,
                Runtime.getRuntime().availableProcessors(), load());
        for (int k = 0; k < repeat; k++) {
            long[] sum = {0};
            long c0 = cpu.getCurrentThreadCpuTime();
            LttvTextInput.open(file).readMessages((s, r, ts, tr) -> sum[0] += ts ^ tr);
            long parse = cpu.getCurrentThreadCpuTime() - c0;

            c0 = cpu.getCurrentThreadCpuTime();
            LttvTextInput input = LttvTextInput.open(file);
            PairAccumulators one = new PairAccumulators(input.nodes().size());
            input.readMessages(one);
            long read = cpu.getCurrentThreadCpuTime() - c0;

            long p0 = os.getProcessCpuTime();
            long w0 = System.nanoTime();
            PairAccumulators parts = LttvTextInput.open(file).accumulate(threads);
            long partsCpu = os.getProcessCpuTime() - p0;
            long partsWall = System.nanoTime() - w0;

            System.out.printf(Locale.ROOT, "round %d: parse %4d ms (%.2f GB/s) | read 1 thread %4d ms | parts on %d threads:"
                            + " %4d ms CPU, %4d ms wall | hulls %s, checksum %d%n", k, parse / 1_000_000, mb / 1e3 / (parse / 1e9),
                    read / 1_000_000, threads, partsCpu / 1_000_000, partsWall / 1_000_000, hulls(one, parts), sum[0]);
        }
        System.out.println("CPU time of the live threads (ms): " + threadGroups());
        System.out.printf(Locale.ROOT, "load %s%n", load());
    }

    /** Hull vertex counts of every pair, once when the one-thread and parts reads agree. */
    private static String hulls(PairAccumulators one, PairAccumulators parts) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < one.nonEmptyPairs().size(); i++) {
            PairAccumulator p = one.nonEmptyPairs().get(i);
            PairAccumulator q = parts.nonEmptyPairs().get(i);
            boolean same = java.util.Arrays.equals(p.aToB().us(), q.aToB().us()) && java.util.Arrays.equals(p.bToA().vs(), q.bToA().vs());
            b.append(p.aToB().size()).append('/').append(p.bToA().size()).append(same ? "" : " (parts differ!)").append(' ');
        }
        return b.toString().trim();
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** User + system CPU time of the live threads, by name without digits (Linux /proc; empty elsewhere). */
    private static Map<String, Long> threadGroups() {
        Map<String, Long> out = new TreeMap<>();
        try (var tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                String stat = Files.readString(t.resolve("stat"));
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "#").trim();
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime in clock ticks (1/100 s)
                if (ticks > 0) {
                    out.merge(name, ticks * 10, Long::sum);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: nothing to show
        }
        return out;
    }
}
