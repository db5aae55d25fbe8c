package org.tracesync.core.matching;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tracesync.benchmarks.RunStats;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.model.MessageSink;
import org.tracesync.formats.input.TraceStageRun;

/**
 * The floor of the matching half against today's matcher, on a capture set's real key stream
 * (docs/PERFORMANCE.md, "Captures, ninth session"). The set is read once into blocks (as
 * {@code sync} hands them to the matcher); then variants replay them in turns, ROUNDS times, the
 * order rotated each round, each timed in CPU time of the calling thread per event; medians of
 * rounds 2..ROUNDS. Variants:
 * <ul>
 *   <li>{@code scan}: one pass over the blocks' columns (the replay's own cost);</li>
 *   <li>{@code minimal}: {@link MinimalMatcher} (one probe per event, one record per key, decided
 *       by time, one pair update per message), 60 s window, without and with read-ahead, and
 *       with a 1 s window (its tables then stay in the caches: what is left is work per event);</li>
 *   <li>{@code tcp}: {@link TcpMatcher} as {@code sync} runs it, into a sink that does what the
 *       minimal pair update does, with a 60 s and a 1 s window, and into {@link PairAccumulators};
 *       {@code tcp30}, {@code tcp15}, {@code tcp5}: with windows of 30, 15 and 5 s (the window's
 *       tables shrink with it: where the cost steps down is where they fit a cache);</li>
 *   <li>{@code foot}S{@code x}F: {@link FootprintMatcher}, records of S longs, F table slots per
 *       record, 60 s window ({@code w1}: 1 s): the same work over footprints of 40 to 96 MB.</li>
 * </ul>
 *
 * <pre>java -Xmx6g -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.core.matching.MatchFloorRun ROUNDS CAPTURE...</pre>
 * {@code -Dvariants=scan,tcp60,...} runs a subset.
 */
public final class MatchFloorRun {

    private MatchFloorRun() {
    }

    /** What the minimal matcher does per message: a count and the least delay per ordered pair. */
    static final class PairMinSink implements MessageSink {
        final long[] count;
        final long[] min;
        final int nodes;
        long messages;

        PairMinSink(int nodes) {
            this.nodes = nodes;
            count = new long[nodes * nodes];
            min = new long[nodes * nodes];
            Arrays.fill(min, Long.MAX_VALUE);
        }

        @Override
        public void message(int sender, int receiver, long sendTime, long recvTime) {
            messages++;
            int p = sender * nodes + receiver;
            count[p]++;
            long d = recvTime - sendTime;
            if (d < min[p]) {
                min[p] = d;
            }
        }
    }

    interface Variant {
        /** Prepares (untimed) and returns the timed part, which returns the messages found. */
        java.util.function.LongSupplier prepare();
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            files.add(Path.of(args[i]));
        }
        TraceStageRun.ReadBlocks read = TraceStageRun.readBlocks(files);
        List<EventBlock> blocks = read.blocks();
        int nodes = read.nodes();
        long events = 0;
        for (EventBlock b : blocks) {
            events += b.size;
            // blocks carry no table hash for TCP segments since TcpMatcher finds them by
            // connection; the minimal and footprint kernels probe a table with it, as the reader
            // used to hand it to them (untimed here)
            for (int i = 0; i < b.size; i++) {
                if (!EventBlock.datagram(b.info[i]) && b.hash[i] == 0) {
                    b.hash[i] = KeyWindow.tableHash(b.a[i], b.b[i], b.c[i]);
                }
            }
        }
        long w60 = TcpMatcher.DEFAULT_WINDOW_NS;
        long w1 = 1_000_000_000L;
        // the peaks of live keys, to size the minimal matcher's tables once for each window
        int peak = peakKeys(blocks, nodes, w60);
        int peak1 = peakKeys(blocks, nodes, w1);
        String[] names = {"scan", "minimal60", "minimal60ahead", "+flows", "+exchanges", "+both", "light60", "minimal1", "minimal1ahead", "light1", "tcp60", "tcp60acc", "tcp1", "foot8x2", "foot4x2", "foot8x4", "foot4x4", "foot4x1", "foot8x2w1", "foot4x2w1", "tcp30", "tcp15", "tcp5"};
        Variant[] all = {
            () -> () -> scan(blocks),
            () -> minimal(blocks, new MinimalMatcher(nodes, w60, peak, false)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w60, peak, true)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w60, peak, true, true, false)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w60, peak, true, false, true)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w60, peak, true, true, true)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w60, peak, true, false, false, true)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w1, peak1, false)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w1, peak1, true)),
            () -> minimal(blocks, new MinimalMatcher(nodes, w1, peak1, true, false, false, true)),
            () -> tcp(blocks, nodes, w60, null),
            () -> tcp(blocks, nodes, w60, new PairAccumulators(nodes)),
            () -> tcp(blocks, nodes, w1, null),
            () -> footprint(blocks, new FootprintMatcher(w60, peak, 8, 2)),
            () -> footprint(blocks, new FootprintMatcher(w60, peak, 4, 2)),
            () -> footprint(blocks, new FootprintMatcher(w60, peak, 8, 4)),
            () -> footprint(blocks, new FootprintMatcher(w60, peak, 4, 4)),
            () -> footprint(blocks, new FootprintMatcher(w60, peak, 4, 1)),
            () -> footprint(blocks, new FootprintMatcher(w1, peak1, 8, 2)),
            () -> footprint(blocks, new FootprintMatcher(w1, peak1, 4, 2)),
            () -> tcp(blocks, nodes, 30_000_000_000L, null),
            () -> tcp(blocks, nodes, 15_000_000_000L, null),
            () -> tcp(blocks, nodes, 5_000_000_000L, null),
        };
        List<Integer> chosen = new ArrayList<>();
        String only = System.getProperty("variants");
        for (int v = 0; v < names.length; v++) {
            if (only == null || Arrays.asList(only.split(",")).contains(names[v])) {
                chosen.add(v);
            }
        }
        int n = chosen.size();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        double[][] ns = new double[n][rounds];
        long[] found = new long[n];
        System.out.printf("%d events, %d nodes, peak %d keys (60 s window), %d (1 s), %d blocks%n", events, nodes,
                peak, peak1, blocks.size());
        for (int k = 0; k < rounds; k++) {
            StringBuilder line = new StringBuilder("round " + (k + 1) + ":");
            for (int t = 0; t < n; t++) {
                int x = (t + k) % n; // rotate the order
                java.util.function.LongSupplier timed = all[chosen.get(x)].prepare();
                long start = cpu.getCurrentThreadCpuTime();
                found[x] = timed.getAsLong();
                ns[x][k] = (cpu.getCurrentThreadCpuTime() - start) / (double) events;
            }
            for (int x = 0; x < n; x++) {
                line.append(String.format(" %s %.1f", names[chosen.get(x)], ns[x][k]));
            }
            System.out.println(line + " ns/event | load " + RunStats.load());
        }
        System.out.printf("medians of rounds 2..%d, CPU ns per event (range; messages):%n", rounds);
        for (int x = 0; x < n; x++) {
            double[] r = Arrays.copyOfRange(ns[x], Math.min(1, rounds - 1), rounds);
            Arrays.sort(r);
            System.out.printf("  %-15s %7.1f (%.1f-%.1f; %d)%n", names[chosen.get(x)], RunStats.median(r), r[0], r[r.length - 1],
                    found[x]);
        }
    }

    private static int peakKeys(List<EventBlock> blocks, int nodes, long window) {
        TcpMatcher m = new TcpMatcher(nodes, window, new PairMinSink(nodes));
        for (EventBlock b : blocks) {
            m.match(b, null);
        }
        m.finish();
        return m.peakKeys();
    }

    private static long scan(List<EventBlock> blocks) {
        long s = 0;
        for (EventBlock b : blocks) {
            for (int i = 0; i < b.size; i++) {
                s += b.info[i] + b.hash[i] + b.time[i] + b.a[i] + b.b[i] + b.c[i];
            }
        }
        return s == 42 ? 1 : 0;
    }

    private static java.util.function.LongSupplier minimal(List<EventBlock> blocks, MinimalMatcher m) {
        return replay(blocks, m::match, m::finish, m::matched);
    }

    private static java.util.function.LongSupplier footprint(List<EventBlock> blocks, FootprintMatcher m) {
        return replay(blocks, m::match, m::finish, m::matched);
    }

    /** Every block into {@code match}, then {@code finish}; returns the messages found. */
    private static java.util.function.LongSupplier replay(List<EventBlock> blocks,
            java.util.function.Consumer<EventBlock> match, Runnable finish, java.util.function.LongSupplier found) {
        return () -> {
            for (EventBlock b : blocks) {
                match.accept(b);
            }
            finish.run();
            return found.getAsLong();
        };
    }

    private static java.util.function.LongSupplier tcp(List<EventBlock> blocks, int nodes, long window,
                                                       PairAccumulators acc) {
        PairMinSink sink = new PairMinSink(nodes);
        TcpMatcher m = new TcpMatcher(nodes, window, acc != null ? acc : sink);
        return () -> {
            for (EventBlock b : blocks) {
                m.match(b, null);
            }
            m.finish();
            return m.matched();
        };
    }
}
