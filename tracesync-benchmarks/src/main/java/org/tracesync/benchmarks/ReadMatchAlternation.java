package org.tracesync.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Read + match of two builds alternated in one process, through the API that every build of
 * issue #17's round has: {@link CaptureReadMatchRun} with {@code -DreaderThread=false}, so that
 * one thread (the caller's) reads, decodes, merges and matches into the pair accumulators, as
 * {@code sync} does before estimation (address inference included). The figure is the CPU time of
 * that thread per packet: compiler and collector threads are left out, as in {@code TraceStageRun}.
 * It exists for the comparison with main at the round's start (e6c5d02), which has no
 * {@code TraceStageRun}: each benchmarks jar gets a class loader of its own (as in
 * {@link StageAlternation}), the two take turns, ROUNDS times, round 1 (JIT warm-up) left out.
 *
 * <pre>java -Xmx4g -DreaderThread=false -cp tracesync-benchmarks/target/benchmarks.jar \
 *     org.tracesync.benchmarks.ReadMatchAlternation ROUNDS OLD_BENCHMARKS_JAR NEW_BENCHMARKS_JAR CAPTURE...</pre>
 */
public final class ReadMatchAlternation {

    private static final Pattern RUN = Pattern.compile("run 1 \\(one thread\\): (\\d+) packets.*?; (\\d+) messages");

    private ReadMatchAlternation() {
    }

    public static void main(String[] args) throws Exception {
        if (!"false".equals(System.getProperty("readerThread"))) {
            throw new IllegalArgumentException("run with -DreaderThread=false: the figure is one thread's CPU time");
        }
        int rounds = Integer.parseInt(args[0]);
        String[] captures = Arrays.copyOfRange(args, 3, args.length);
        Method[] run = new Method[2];
        for (int v = 0; v < 2; v++) {
            URL jar = Path.of(args[1 + v]).toUri().toURL();
            ClassLoader loader = new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
            run[v] = loader.loadClass("org.tracesync.benchmarks.CaptureReadMatchRun").getMethod("main", String[].class);
        }
        String[] callArgs = new String[captures.length + 1];
        callArgs[0] = "1";
        System.arraycopy(captures, 0, callArgs, 1, captures.length);
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[][] ns = new double[2][rounds]; // [build][round]
        long[] messages = new long[2];
        long packets = 0;
        PrintStream out = System.out;
        for (int k = 0; k < rounds; k++) {
            for (int turn = 0; turn < 2; turn++) {
                int v = k % 2 == 0 ? turn : 1 - turn; // old first in even rounds, new first in odd ones
                ByteArrayOutputStream captured = new ByteArrayOutputStream();
                System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
                long start = cpu.getCurrentThreadCpuTime();
                try {
                    run[v].invoke(null, (Object) callArgs);
                } finally {
                    System.setOut(out);
                }
                long used = cpu.getCurrentThreadCpuTime() - start;
                String text = captured.toString(StandardCharsets.UTF_8);
                Matcher m = RUN.matcher(text);
                if (!m.find()) {
                    throw new IllegalStateException("unexpected output: " + text);
                }
                packets = Long.parseLong(m.group(1));
                ns[v][k] = used / (double) packets;
                messages[v] = Long.parseLong(m.group(2));
            }
            out.printf("round %d: old %.1f | new %.1f ns CPU per packet (read + match, one thread) | load %s%n", k + 1,
                    ns[0][k], ns[1][k], RunStats.load());
        }
        double[] oldNs = Arrays.copyOfRange(ns[0], 1, rounds);
        double[] newNs = Arrays.copyOfRange(ns[1], 1, rounds);
        double[] ratio = new double[rounds - 1];
        for (int k = 0; k < rounds - 1; k++) {
            ratio[k] = newNs[k] / oldNs[k];
        }
        Arrays.sort(oldNs);
        Arrays.sort(newNs);
        Arrays.sort(ratio);
        out.printf("read + match, rounds 2..%d: old %.1f ns (%.1f-%.1f), new %.1f ns (%.1f-%.1f) per packet (medians);"
                        + " new/old %.3f (rounds %.3f-%.3f); messages old %d, new %d; packets %d%n",
                rounds, RunStats.median(oldNs), oldNs[0], oldNs[oldNs.length - 1], RunStats.median(newNs), newNs[0],
                newNs[newNs.length - 1], RunStats.median(ratio), ratio[0], ratio[ratio.length - 1], messages[0], messages[1], packets);
    }
}
