package org.tracesync.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The capture reading half of two builds alternated in one process (docs/PERFORMANCE.md,
 * "Captures, twelfth session"): as {@link StageAlternation}, each benchmarks jar in a class loader
 * of its own, but only the reading half ({@code MergedEventReader} filling blocks, as
 * {@code TraceStageRun}'s first part and {@code sync}'s reading thread), so that a turn takes a
 * second instead of the matching half's replay. The order of the two builds alternates from round
 * to round; round 1 is left out of the medians. CPU time of the calling thread per event.
 *
 * <pre>java -Xmx1g -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.ReadAlternation \
 *     ROUNDS OLD_BENCHMARKS_JAR NEW_BENCHMARKS_JAR TRACE...</pre>
 * Reaches the package-private reader by reflection, so any build since the tenth session can be
 * either side.
 */
public final class ReadAlternation {

    private ReadAlternation() {
    }

    /** One build's reading half. */
    private static final class Build {
        final Method open;
        final Method addressTable;
        final Constructor<?> reader;
        final Method fill;
        final Method clear;
        final Constructor<?> block;
        final Field events;
        final Method node;
        final Class<?> options;

        Build(String jar) throws Exception {
            ClassLoader l = new URLClassLoader(new URL[] {Path.of(jar).toUri().toURL()},
                    ClassLoader.getPlatformClassLoader());
            options = l.loadClass("org.tracesync.formats.InputOptions");
            Class<?> stage = l.loadClass("org.tracesync.formats.input.TraceStageRun");
            Class<?> input = l.loadClass("org.tracesync.formats.input.MergedTraceInput");
            Class<?> merged = l.loadClass("org.tracesync.formats.input.MergedEventReader");
            Class<?> table = l.loadClass("org.tracesync.formats.AddressTable");
            Class<?> eventBlock = l.loadClass("org.tracesync.core.matching.EventBlock");
            open = stage.getDeclaredMethod("open", List.class, options);
            open.setAccessible(true);
            addressTable = input.getDeclaredMethod("addressTable", List.class);
            addressTable.setAccessible(true);
            reader = merged.getDeclaredConstructor(List.class, table, long[].class, long.class);
            reader.setAccessible(true);
            fill = merged.getDeclaredMethod("fill", eventBlock);
            fill.setAccessible(true);
            events = merged.getDeclaredField("events");
            events.setAccessible(true);
            block = eventBlock.getConstructor(int.class);
            clear = eventBlock.getMethod("clear");
            node = l.loadClass("org.tracesync.formats.EventTrace").getMethod("node");
        }

        /** One pass: {ns of CPU per event, events, ns of user CPU per event}. */
        double[] pass(List<Path> files, ThreadMXBean cpu) throws Exception {
            Object opts = options.getMethod("defaults").invoke(null);
            List<?> traces = (List<?>) open.invoke(null, files, opts);
            List<Object> nodes = new ArrayList<>();
            for (Object t : traces) {
                nodes.add(node.invoke(t));
            }
            Object b = block.newInstance(4096);
            long start = cpu.getCurrentThreadCpuTime();
            long user = cpu.getCurrentThreadUserTime();
            Object r = reader.newInstance(traces, addressTable.invoke(null, nodes), new long[nodes.size()], Long.MAX_VALUE);
            try {
                boolean more;
                do {
                    clear.invoke(b);
                    more = (Boolean) fill.invoke(r, b);
                } while (more);
            } finally {
                ((AutoCloseable) r).close();
            }
            long n = events.getLong(r);
            return new double[] {(cpu.getCurrentThreadCpuTime() - start) / (double) n, n,
                (cpu.getCurrentThreadUserTime() - user) / (double) n};
        }
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        Build[] build = {new Build(args[1]), new Build(args[2])};
        List<Path> files = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            files.add(Path.of(args[i]));
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[][] ns = new double[2][rounds];
        double[][] userNs = new double[2][rounds];
        double[] events = new double[2];
        for (int k = 0; k < rounds; k++) {
            for (int turn = 0; turn < 2; turn++) {
                int v = k % 2 == 0 ? turn : 1 - turn;
                double[] r = build[v].pass(files, cpu);
                ns[v][k] = r[0];
                userNs[v][k] = r[2];
                events[v] = r[1];
            }
            System.out.printf("round %d: old %.1f (user %.1f) | new %.1f (user %.1f) ns CPU per event | new/old %.3f"
                    + " | load %s%n", k + 1, ns[0][k], userNs[0][k], ns[1][k], userNs[1][k], ns[1][k] / ns[0][k],
                    RunStats.load());
        }
        if (events[0] != events[1]) {
            throw new IllegalStateException("the builds read different numbers of events: " + Arrays.toString(events));
        }
        double[] o = Arrays.copyOfRange(ns[0], 1, rounds);
        double[] n = Arrays.copyOfRange(ns[1], 1, rounds);
        double[] q = new double[rounds - 1];
        for (int k = 1; k < rounds; k++) {
            q[k - 1] = ns[1][k] / ns[0][k];
        }
        Arrays.sort(o);
        Arrays.sort(n);
        Arrays.sort(q);
        System.out.printf("reading half, rounds 2..%d: old %.1f ns, new %.1f ns per event (medians, %d events);"
                + " new/old %.3f (rounds %.3f-%.3f)%n", rounds, RunStats.median(o), RunStats.median(n), (long) events[0],
                RunStats.median(q), q[0], q[q.length - 1]);
    }
}
