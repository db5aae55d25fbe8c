package org.tracesync.formats.input;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.matching.BroadcastMatcher;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.TcpMatcher;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormat;

/**
 * Times the two halves of a pass over event traces of any format (captures, CTF, JSON lines) apart (docs/PERFORMANCE.md, "where the time goes"), in
 * CPU time of the calling thread: the reading half ({@link MergedEventReader}: read, merge,
 * decode, fill blocks) per event (packets of a capture, every event of a CTF trace), then the matching half ({@link TcpMatcher#match} into
 * {@link PairAccumulators}) per event, replaying blocks read once and kept in memory. With a
 * reading thread the pass runs at the speed of the slower half; on one thread, of their sum.
 *
 * <pre>java -Xmx1g -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.formats.input.TraceStageRun REPEAT TRACE...</pre>
 * (The blocks of a 1 GB set take about 500 MB.) In this package because the reading half is
 * package-private.
 */
public final class TraceStageRun {

    private TraceStageRun() {
    }

    public static void main(String[] args) throws IOException {
        int repeat = Integer.parseInt(args[0]);
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            files.add(Path.of(args[i]));
        }
        InputOptions opts = InputOptions.defaults();
        List<EventTrace> traces = open(files, opts);
        List<NodeInfo> nodes = traces.stream().map(EventTrace::node).toList();
        long[] noOffsets = new long[nodes.size()];
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int k = 0; k < repeat; k++) {
            EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
            long start = cpu.getCurrentThreadCpuTime();
            try (MergedEventReader in = new MergedEventReader(traces, MergedTraceInput.addressTable(nodes), noOffsets,
                    Long.MAX_VALUE)) {
                boolean more;
                do {
                    block.clear();
                    more = in.fill(block);
                } while (more);
                System.out.printf("reading half, run %d: %.1f ns CPU per event (%d events)%n", k + 1,
                        (cpu.getCurrentThreadCpuTime() - start) / (double) in.events, in.events);
            }
        }
        List<EventBlock> blocks = new ArrayList<>();
        long events = 0;
        try (MergedEventReader in = new MergedEventReader(traces, MergedTraceInput.addressTable(nodes), noOffsets,
                    Long.MAX_VALUE)) {
            boolean more;
            do {
                EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
                more = in.fill(block);
                blocks.add(block);
                events += block.size();
            } while (more);
        }
        for (int k = 0; k < repeat; k++) {
            PairAccumulators acc = new PairAccumulators(nodes.size());
            TcpMatcher tcp = new TcpMatcher(nodes.size(), opts.window(), acc);
            BroadcastMatcher bcast = new BroadcastMatcher(opts.window(), (s, t, r, rt) -> { });
            long start = cpu.getCurrentThreadCpuTime();
            for (EventBlock b : blocks) {
                tcp.match(b, bcast);
            }
            tcp.finish();
            bcast.finish();
            System.out.printf("matching half, run %d: %.1f ns CPU per event (%d events, %d messages)%n", k + 1,
                    (cpu.getCurrentThreadCpuTime() - start) / (double) events, events, acc.messages());
        }
    }

    /**
     * The merged event stream of {@code files} as {@code sync} would hand it to the matcher (no
     * coarse offsets), read once into blocks kept in memory (about 40 bytes per event), for
     * replays of the matching half ({@code MatchFloorRun}).
     */
    public static ReadBlocks readBlocks(List<Path> files) throws IOException {
        InputOptions opts = InputOptions.defaults();
        List<EventTrace> traces = open(files, opts);
        List<NodeInfo> nodes = traces.stream().map(EventTrace::node).toList();
        List<EventBlock> blocks = new ArrayList<>();
        try (MergedEventReader in = new MergedEventReader(traces, MergedTraceInput.addressTable(nodes),
                new long[nodes.size()], Long.MAX_VALUE)) {
            boolean more;
            do {
                EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
                more = in.fill(block);
                blocks.add(block);
            } while (more);
        }
        return new ReadBlocks(blocks, nodes.size());
    }

    /** The blocks of a merged stream and the number of its nodes. */
    public record ReadBlocks(List<EventBlock> blocks, int nodes) {
    }

    /** Opens the traces as {@code sync} does: grouped by format (captures together), in the given order. */
    static List<EventTrace> open(List<Path> files, InputOptions opts) throws IOException {
        EventTrace[] traces = new EventTrace[files.size()];
        java.util.Map<TraceFormat, List<Integer>> byFormat = new java.util.LinkedHashMap<>();
        for (int i = 0; i < files.size(); i++) {
            byFormat.computeIfAbsent(TraceInputs.formatOf(files.get(i)), f -> new ArrayList<>()).add(i);
        }
        for (java.util.Map.Entry<TraceFormat, List<Integer>> e : byFormat.entrySet()) {
            List<EventTrace> opened = e.getKey().open(e.getValue().stream().map(files::get).toList(), opts);
            for (int j = 0; j < opened.size(); j++) {
                traces[e.getValue().get(j)] = opened.get(j);
            }
        }
        return List.of(traces);
    }
}
