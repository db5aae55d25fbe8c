package org.tracesync.spark;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.util.CollectionAccumulator;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.matching.CoarseClockOffsets;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.core.model.ExchangeSink;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfTrace;
import org.tracesync.formats.pcap.CaptureNodes;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.pcap.CaptureReader;
import scala.Tuple2;

/**
 * {@code tracesync sync} on a set of pcap/pcapng captures (one per host) as a Spark job
 * (docs/SPARK.md):
 * <ol>
 * <li><b>Driver:</b> node names and own addresses, as the one-machine command resolves them (it
 *     reads the first packets of each capture); each capture cut into byte ranges of
 *     {@code splitSize}.</li>
 * <li><b>Boundary pass</b> (one task per range of a capture that has several): {@link PartWalk}
 *     re-synchronizes on a record boundary ({@code CapturePart}), walks the records and reports
 *     where it began and stopped and its largest timestamp. The driver checks that the ranges join
 *     up (a capture whose ranges do not is decoded in one range) and gives each range the largest
 *     timestamp before it (the carry of the merge order).</li>
 * <li><b>Decode</b> (one task per range, in parallel): {@link PartDecoder} — the existing pcap and
 *     pcapng readers, from the checked boundaries — yields the TCP segments between traced hosts as
 *     compact {@link SegmentEvent}s carrying the one-machine merge order.</li>
 * <li><b>Match</b> (a shuffle by connection, sorted by merge order): {@link ConnectionMatcher} keeps
 *     the keys seen exactly once as a send and once as a receive on different nodes, as
 *     {@code TcpMatcher} does, and finds the exchanges.</li>
 * <li><b>Accumulate:</b> each match task folds its messages into one {@link PairPart} per node
 *     pair (the existing {@link PairAccumulator}: half hulls), {@code reduceByKey} merges them;
 *     the driver receives hull points, not messages.</li>
 * <li><b>Driver:</b> estimation and reduction ({@link Synchronizer}), as the one-machine command.</li>
 * </ol>
 *
 * <p>Same answer as {@code tracesync sync} on the same captures, where the matching rules agree
 * (see {@link ConnectionMatcher} for the differences).
 */
public final class SparkCaptureSync {

    /**
     * @param capture    node names, addresses, matching window (as the one-machine command; the key
     *                   limit, reader thread and coarse offsets do not apply)
     * @param sync       estimator, reference, reduction, minimum latency
     * @param splitSize  bytes per decoding task (a capture larger than this is read by several)
     * @param partitions shuffle partitions of the matching stage (0: the default parallelism)
     * @param messagesToDriver every matched message to the driver too (the regression estimator
     *                   reads a pair's messages, as {@code sync}'s second pass gives them)
     */
    public record Options(InputOptions capture, SyncOptions sync, long splitSize, int partitions,
                          boolean messagesToDriver) {
        public static final long DEFAULT_SPLIT_SIZE = 128L << 20;

        public Options(InputOptions capture, SyncOptions sync, long splitSize, int partitions) {
            this(capture, sync, splitSize, partitions, false);
        }
    }

    /**
     * The estimation and reduction options, once the nodes and the exchanges' round trips are
     * known (a minimum latency per pair may come from either).
     */
    @FunctionalInterface
    public interface SyncOptions {
        Synchronizer.Options of(List<NodeInfo> nodes, RoundTripMinima roundTrips) throws IOException;
    }

    /** The synchronization, the input notes, the counts and how the work was partitioned. */
    public record Outcome(Synchronizer.Synchronization synchronization, List<String> warnings, MatchStats matching,
                          RoundTripMinima roundTrips, int decodeTasks, int matchTasks, int filesReadWhole,
                          JobFigures.Figures figures, Map<String, long[]> eventSpans) {
    }

    private SparkCaptureSync() {
    }

    public static Outcome run(JavaSparkContext sc, List<String> inputs, Options options) throws IOException {
        Configuration conf = sc.hadoopConfiguration();
        JobInputs in = JobInputs.resolve(inputs, options.capture(), conf);
        List<NodeInfo> nodes = in.nodes;
        List<Long> sizes = new ArrayList<>();
        for (JobInputs.Input i : in.inputs) {
            sizes.add(i.size());
        }
        Map<String, String> confMap = new HashMap<>();
        conf.forEach(e -> confMap.put(e.getKey(), e.getValue()));
        Broadcast<Map<String, String>> hadoopConf = sc.broadcast(confMap);
        Broadcast<TracedAddresses> traced = sc.broadcast(new TracedAddresses(nodes, in.directed));
        List<String> notes = new ArrayList<>();
        long[] offsets = coarseOffsets(sc, in, options, traced, hadoopConf, notes);
        List<TraceSpec> traces = traceSpecs(in, offsets, options.splitSize());
        JobFigures listener = new JobFigures();
        sc.sc().addSparkListener(listener);
        try {
            Plan plan = plan(sc, in, sizes, options.splitSize(), hadoopConf);
            traces = lineNumbers(sc, traces, hadoopConf);
            // as MergedTraceInput: messages are widened only when some trace's timestamps are coarser than 1 ns
            long[] res = java.util.Arrays.stream(in.resolutions).anyMatch(r -> r > 1) ? in.resolutions
                    : new long[nodes.size()];
            Attempt a = attempt(sc, plan.specs(), traces, nodes, new long[0], offsets, res, traced, hadoopConf, options);
            long[] seed = foreignSeed(a.traceReports());
            if (seed != null) {
                // two tasks numbered an address no traced host owns differently: again, numbered by the driver
                a = attempt(sc, plan.specs(), traces, nodes, seed, offsets, res, traced, hadoopConf, options);
            }
            return outcome(nodes, a, plan, traces.size(), options, listener.figures(), notes, offsets);
        } finally {
            sc.sc().removeSparkListener(listener);
        }
    }

    /**
     * The one-machine coarse clock offsets ({@code MergedTraceInput}): when the inputs' first events
     * are more than W/4 apart, the first {@value MergedTraceInput#SAMPLE_EVENTS} events of every
     * input (one task each: packets of a capture, events of a log, network events of a CTF trace
     * merged by time) go to the driver, which matches them regardless of time
     * ({@link CoarseClockOffsets}, whose estimate does not depend on the order of the events); when
     * two clocks are more than W/4 apart, every task matches in coarsely corrected time. Otherwise
     * all zeros and nothing is sampled.
     */
    private static long[] coarseOffsets(JavaSparkContext sc, JobInputs in, Options options,
                                        Broadcast<TracedAddresses> traced, Broadcast<Map<String, String>> hadoopConf,
                                        List<String> notes) throws IOException {
        int k = in.nodes.size();
        long window = options.capture().window();
        if (!options.capture().coarseOffsets() || k <= 1) {
            return new long[k];
        }
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (long t : in.firstTimes) {
            if (t != Long.MIN_VALUE) {
                min = Math.min(min, t);
                max = Math.max(max, t);
            }
        }
        long spread = max < min ? 0 : max - min < 0 ? Long.MAX_VALUE : max - min;
        if (spread <= window / 4) {
            return new long[k];
        }
        List<java.io.Serializable> specs = new ArrayList<>();
        for (int f = 0; f < k; f++) {
            JobInputs.Input i = in.inputs.get(f);
            specs.add(i.kind() == JobInputs.CAPTURE ? PartSpec.guessed(f, 0, 1, i.uri(), i.uri(), 0, Long.MAX_VALUE)
                    : new TraceSpec(f, i.kind(), i.uri(), i.local() == null ? null : i.local().toString(),
                            i.name().toString(), in.nodes.get(f).name(), -1, 0, 1, 0, Long.MAX_VALUE, 1, Long.MIN_VALUE, 0));
        }
        List<List<String>> addressList = new ArrayList<>();
        in.nodes.forEach(n -> addressList.add(new ArrayList<>(n.addresses())));
        long limit = MergedTraceInput.SAMPLE_EVENTS;
        List<long[]> samples = collect(() -> sc.parallelize(specs, specs.size()).map(spec -> {
            java.util.Iterator<Tuple2<SegmentEvent, Object>> it = spec instanceof PartSpec p
                    ? PartDecoder.open(p, traced.value(), hadoopConf.value(), r -> { }, 0, limit)
                    : TraceDecoder.open((TraceSpec) spec, addressList, new long[0], hadoopConf.value(), r -> { }, limit);
            List<Long> rows = new ArrayList<>();
            while (it.hasNext()) {
                SegmentEvent e = it.next()._1();
                if (!e.datagram) {
                    rows.add(e.a);
                    rows.add(e.b);
                    rows.add(e.c);
                    rows.add(e.time);
                    rows.add((long) e.node << 1 | (e.send ? 1 : 0));
                }
            }
            return rows.stream().mapToLong(Long::longValue).toArray();
        }).collect());
        CoarseClockOffsets sample = new CoarseClockOffsets(k, MergedTraceInput.SAMPLE_KEYS);
        EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
        for (long[] rows : samples) {
            for (int i = 0; i + 4 < rows.length; i += 5) {
                if (block.isFull()) {
                    sample.add(block);
                    block.clear();
                }
                block.addPacked((int) (rows[i + 4] >>> 1), (rows[i + 4] & 1) != 0, rows[i + 3], rows[i], rows[i + 1],
                        rows[i + 2]);
            }
        }
        sample.add(block);
        CoarseClockOffsets.Estimate e = sample.estimate();
        if (!e.exceeds(window / 4)) {
            return new long[k];
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            parts.add(in.nodes.get(i).name() + " " + signedSeconds(e.offsets()[i]));
        }
        notes.add("clocks up to " + seconds(e.largest()) + " s apart (from keys common to the first "
                + MergedTraceInput.SAMPLE_EVENTS + " events of each trace): matched in coarsely corrected time, offsets "
                + String.join(", ", parts));
        return e.offsets();
    }

    private static String seconds(long ns) {
        return java.math.BigDecimal.valueOf(ns, 9).setScale(3, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros()
                .toPlainString();
    }

    private static String signedSeconds(long ns) {
        return (ns >= 0 ? "+" : "-") + seconds(Math.abs(ns)) + " s";
    }

    /**
     * The tasks of the inputs that are not captures: one per stream file of a CTF trace; one per
     * {@code splitSize} bytes of a JSON-lines log (their line numbers and carries still unknown).
     */
    static List<TraceSpec> traceSpecs(JobInputs in, long[] offsets, long splitSize) throws IOException {
        List<TraceSpec> traces = new ArrayList<>();
        for (int f = 0; f < in.inputs.size(); f++) {
            JobInputs.Input i = in.inputs.get(f);
            String node = in.nodes.get(f).name();
            if (i.kind() == TraceSpec.CTF) {
                int streams = CtfTrace.open(i.local()).streamFiles().size();
                for (int k = 0; k < streams; k++) {
                    traces.add(new TraceSpec(f, TraceSpec.CTF, i.uri(), i.local().toString(), i.uri(), node, k, k, streams,
                            0, Long.MAX_VALUE, 1, Long.MIN_VALUE, offsets[f]));
                }
            } else if (i.kind() == TraceSpec.JSON_LINES) {
                int n = (int) Math.max(1, (i.size() + splitSize - 1) / splitSize);
                for (int k = 0; k < n; k++) {
                    traces.add(new TraceSpec(f, TraceSpec.JSON_LINES, i.uri(), null, i.name().toString(), node, -1, k, n,
                            k * splitSize, k == n - 1 ? Long.MAX_VALUE : (k + 1) * splitSize, 1, Long.MIN_VALUE, offsets[f]));
                }
            }
        }
        return traces;
    }

    /**
     * The line pass, for JSON-lines logs cut into several parts: every part's lines are counted
     * and checked, so that each part gets its first line number and its carry; the first bad line
     * of a log is reported as the one-machine reader reports it (file and line).
     */
    private static List<TraceSpec> lineNumbers(JavaSparkContext sc, List<TraceSpec> traces,
                                               Broadcast<Map<String, String>> hadoopConf) throws IOException {
        List<TraceSpec> cut = traces.stream().filter(t -> t.kind() == TraceSpec.JSON_LINES && t.parts() > 1).toList();
        if (cut.isEmpty()) {
            return traces;
        }
        Map<Long, LineWalk> walks = new HashMap<>();
        for (LineWalk w : collect(() -> sc.parallelize(cut, cut.size()).map(t -> LineWalk.walk(t, hadoopConf.value()))
                .collect())) {
            walks.put((long) w.file() << 32 | w.part(), w);
        }
        List<TraceSpec> out = new ArrayList<>();
        long line = 1;
        long carry = Long.MIN_VALUE;
        for (TraceSpec t : traces) {
            LineWalk w = walks.get((long) t.file() << 32 | t.part());
            if (w == null) {
                out.add(t);
                continue;
            }
            if (t.part() == 0) {
                line = 1;
                carry = Long.MIN_VALUE;
            }
            if (w.errorLine() > 0) {
                throw TraceFormatException.atLine(Path.of(t.name()), line + w.errorLine() - 1, w.errorDetail());
            }
            if (w.errorLine() < 0) {
                throw new TraceFormatException(Path.of(t.name()), null, w.errorDetail().substring(
                        w.errorDetail().startsWith(t.name() + ": ") ? t.name().length() + 2 : 0));
            }
            out.add(t.withLines(line, carry));
            line += w.lines();
            carry = Math.max(carry, w.maxTime());
        }
        return out;
    }

    /**
     * Null when every task numbered the addresses beyond the traced hosts' alike (the keys of one
     * packet then agree across traces), else every such address once, for the tasks' tables.
     */
    static long[] foreignSeed(List<TraceReport> reports) {
        Map<List<Long>, Integer> ids = new HashMap<>();
        Map<Integer, List<Long>> addresses = new HashMap<>();
        boolean consistent = true;
        List<List<Long>> all = new ArrayList<>();
        for (TraceReport r : reports) {
            for (int i = 0; i + 1 < r.foreign().length; i += 2) {
                List<Long> addr = List.of(r.foreign()[i], r.foreign()[i + 1]);
                int id = r.firstForeignId() + i / 2;
                Integer before = ids.putIfAbsent(addr, id);
                List<Long> owner = addresses.putIfAbsent(id, addr);
                if (before == null) {
                    all.add(addr);
                }
                consistent &= (before == null || before == id) && (owner == null || owner.equals(addr));
            }
        }
        if (consistent) {
            return null;
        }
        all.sort((x, y) -> x.get(0).equals(y.get(0)) ? Long.compareUnsigned(x.get(1), y.get(1))
                : Long.compareUnsigned(x.get(0), y.get(0)));
        long[] seed = new long[all.size() * 2];
        for (int i = 0; i < all.size(); i++) {
            seed[2 * i] = all.get(i).get(0);
            seed[2 * i + 1] = all.get(i).get(1);
        }
        return seed;
    }

    /** The decoding tasks, and how many captures had to be read whole after the boundary pass. */
    private record Plan(List<PartSpec> specs, int boundaryTasks, int filesReadWhole) {
    }

    /**
     * Cuts the captures into ranges and, when some capture has several, runs the boundary pass:
     * each range's first record and stop are found and checked to join up; a capture whose ranges do
     * not join up is read whole. The ranges of the others start on their checked boundaries, with
     * the largest timestamp before them (the carry of the merge order).
     */
    private static Plan plan(JavaSparkContext sc, JobInputs in, List<Long> sizes, long splitSize,
                             Broadcast<Map<String, String>> hadoopConf) throws IOException {
        List<String> inputs = in.inputs.stream().map(JobInputs.Input::uri).toList();
        List<PartSpec> guessed = new ArrayList<>();
        for (int f = 0; f < inputs.size(); f++) {
            if (!in.isCapture(f)) {
                continue;
            }
            long size = sizes.get(f);
            int n = (int) Math.max(1, (size + splitSize - 1) / splitSize);
            for (int k = 0; n > 1 && k < n; k++) {
                guessed.add(PartSpec.guessed(f, k, n, inputs.get(f), inputs.get(f), k * splitSize,
                        k == n - 1 ? Long.MAX_VALUE : (k + 1) * splitSize));
            }
        }
        Map<Integer, PartReport> walked = new HashMap<>();
        if (!guessed.isEmpty()) {
            List<PartReport> reports = collect(() -> sc.parallelize(guessed, guessed.size())
                    .map(s -> PartWalk.walk(s, hadoopConf.value())).collect());
            reports.forEach(r -> walked.put(r.file() * 1_000_000 + r.part(), r));
        }
        Set<Integer> whole = guessed.isEmpty() ? Set.of()
                : inconsistentFiles(guessed, new ArrayList<>(walked.values()));
        List<PartSpec> specs = new ArrayList<>();
        for (int f = 0; f < inputs.size(); f++) {
            if (!in.isCapture(f)) {
                continue;
            }
            long size = sizes.get(f);
            int n = whole.contains(f) ? 1 : (int) Math.max(1, (size + splitSize - 1) / splitSize);
            long carry = Long.MIN_VALUE;
            for (int k = 0; k < n; k++) {
                if (n == 1) {
                    specs.add(PartSpec.guessed(f, 0, 1, inputs.get(f), inputs.get(f), 0, Long.MAX_VALUE));
                    break;
                }
                PartReport r = walked.get(f * 1_000_000 + k);
                long end = k == n - 1 ? Long.MAX_VALUE : walked.get(f * 1_000_000 + k + 1).firstRecord();
                specs.add(new PartSpec(f, k, n, inputs.get(f), inputs.get(f), r.firstRecord(), end, true, carry));
                if (r.packets() > 0) {
                    carry = Math.max(carry, r.maxTime());
                }
            }
        }
        return new Plan(specs, guessed.size(), whole.size());
    }

    private record Attempt(Map<Long, PairPart> pairs, List<PartReport> reports, List<TraceReport> traceReports,
                           MatchStats stats, int matchTasks) {
    }

    /** Runs a Spark action, reporting a bad capture met by a task as the one-machine command does. */
    private static <T> T collect(java.util.concurrent.Callable<T> action) throws IOException {
        try {
            return action.call();
        } catch (Exception e) { // a SparkException (checked, thrown through Scala) when a task failed
            String input = inputError(e);
            if (input != null) {
                throw new IOException(input);
            }
            if (e instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static Attempt attempt(JavaSparkContext sc, List<PartSpec> specs, List<TraceSpec> traces,
                                   List<NodeInfo> nodes, long[] seed, long[] offsets, long[] resolutions,
                                   Broadcast<TracedAddresses> traced,
                                   Broadcast<Map<String, String>> hadoopConf, Options options) throws IOException {
        int nodeCount = nodes.size();
        boolean keep = options.messagesToDriver();
        List<List<String>> nodeAddresses = nodes.stream().map(NodeInfo::addresses).map(ArrayList::new)
                .map(l -> (List<String>) l).toList();
        List<List<String>> addressList = new ArrayList<>(nodeAddresses);
        CollectionAccumulator<PartReport> reports = sc.sc().collectionAccumulator("tracesync parts");
        CollectionAccumulator<TraceReport> traceReports = sc.sc().collectionAccumulator("tracesync traces");
        CollectionAccumulator<Tuple2<Integer, MatchStats>> stats = sc.sc().collectionAccumulator("tracesync matching");
        long window = options.capture().window();
        int partitions = options.partitions() > 0 ? options.partitions() : sc.defaultParallelism();
        JavaPairRDD<SegmentEvent, Object> events = null;
        if (!specs.isEmpty()) {
            events = sc.parallelize(specs, specs.size())
                    .mapPartitionsToPair(it -> new Concatenation<>(it, s -> PartDecoder.open(s, traced.value(),
                            hadoopConf.value(), reports::add, offsets[s.file()], Long.MAX_VALUE)));
        }
        if (!traces.isEmpty()) {
            JavaPairRDD<SegmentEvent, Object> others = sc.parallelize(traces, traces.size())
                    .mapPartitionsToPair(it -> new Concatenation<>(it, s -> TraceDecoder.open(s, addressList, seed,
                            hadoopConf.value(), traceReports::add)));
            events = events == null ? others : events.union(others);
        }
        JavaPairRDD<Long, PairPart> pairs = events
                .repartitionAndSortWithinPartitions(new ConnectionPartitioner(partitions), new SegmentEvent.Order())
                .mapPartitionsWithIndex((index, it) -> {
                    Map<Long, PairPart> local = new HashMap<>();
                    ConnectionMatcher m = new ConnectionMatcher(window, new ConnectionMatcher.Output() {
                        @Override
                        public void message(int from, int to, long sendTime, long recvTime, long orderTime,
                                            int orderNode, long orderOffset) {
                            int a = Math.min(from, to);
                            int b = Math.max(from, to);
                            // matched in coarsely corrected time, the pair sees local times; widened by the
                            // resolutions (send r earlier, receive r later), as MergedTraceInput widens them
                            local.computeIfAbsent((long) a * nodeCount + b, k -> new PairPart()).message(a, b, from,
                                    sendTime + offsets[from] - resolutions[from], recvTime + offsets[to] + resolutions[to],
                                    orderTime, orderNode, orderOffset, keep);
                        }

                        @Override
                        public void exchange(int a, int b, long t1, long t2, long t3, long t4, long orderTime,
                                             int orderNode, long orderOffset) {
                            if (keep) {
                                // local times, widened as the messages are (MergedTraceInput)
                                local.computeIfAbsent((long) Math.min(a, b) * nodeCount + Math.max(a, b),
                                        k -> new PairPart()).exchange(a, t1 + offsets[a] - resolutions[a],
                                        t2 + offsets[b] + resolutions[b], t3 + offsets[b] - resolutions[b],
                                        t4 + offsets[a] + resolutions[a], orderTime, orderNode, orderOffset);
                            }
                        }

                        @Override
                        public void roundTrip(int a, int b, long rtt) {
                            local.computeIfAbsent((long) Math.min(a, b) * nodeCount + Math.max(a, b),
                                    k -> new PairPart()).roundTrip(rtt);
                        }
                    });
                    while (it.hasNext()) {
                        m.event(it.next()._1());
                    }
                    m.finish();
                    stats.add(new Tuple2<>(index, m.stats()));
                    List<Tuple2<Long, PairPart>> out = new ArrayList<>();
                    local.forEach((k, v) -> out.add(new Tuple2<>(k, v)));
                    return out.iterator();
                }, true)
                .mapToPair(t -> t)
                .reduceByKey(PairPart::merge);
        Map<Long, PairPart> collected = new TreeMap<>(collect(pairs::collectAsMap));
        Map<Integer, PartReport> byPart = new TreeMap<>();
        for (PartReport r : reports.value()) {
            byPart.put(r.file() * 1_000_000 + r.part(), r);
        }
        Map<Integer, MatchStats> byTask = new HashMap<>();
        for (Tuple2<Integer, MatchStats> t : stats.value()) {
            byTask.put(t._1(), t._2());
        }
        MatchStats total = MatchStats.ZERO;
        for (MatchStats s : byTask.values()) {
            total = total.plus(s);
        }
        List<TraceReport> byTrace = new ArrayList<>(traceReports.value());
        byTrace.sort(java.util.Comparator.comparingInt(TraceReport::file).thenComparingInt(TraceReport::part));
        return new Attempt(collected, new ArrayList<>(byPart.values()), byTrace, total, partitions);
    }

    /** The one-line message of a bad capture met by a task, if that is why the job failed. */
    static String inputError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CaptureInputError c) {
                return c.getMessage();
            }
            if (t instanceof SparkException && t.getMessage() != null) {
                String marker = CaptureInputError.class.getName() + ": ";
                int i = t.getMessage().indexOf(marker);
                if (i >= 0) {
                    String rest = t.getMessage().substring(i + marker.length());
                    int nl = rest.indexOf('\n');
                    return nl < 0 ? rest : rest.substring(0, nl);
                }
            }
        }
        return null;
    }

    /** Files whose parts do not join up (a false re-synchronization) or met late pcapng headers. */
    static Set<Integer> inconsistentFiles(List<PartSpec> specs, List<PartReport> reports) {
        Map<Integer, PartReport> byPart = new HashMap<>();
        for (PartReport r : reports) {
            byPart.put(r.file() * 1_000_000 + r.part(), r);
        }
        Set<Integer> bad = new HashSet<>();
        for (PartSpec s : specs) {
            PartReport r = byPart.get(s.file() * 1_000_000 + s.part());
            if (r == null) {
                throw new IllegalStateException("no report from part " + s.part() + " of " + s.name());
            }
            if (r.stopOffset() == PartReport.BROKEN) {
                bad.add(s.file());
            }
            if (s.part() + 1 < s.parts()) {
                PartReport next = byPart.get(s.file() * 1_000_000 + s.part() + 1);
                if (next == null) {
                    throw new IllegalStateException("no report from part " + (s.part() + 1) + " of " + s.name());
                }
                if (next.firstRecord() != r.stopOffset() || r.lateHeaderBlocks() > 0) {
                    bad.add(s.file());
                }
            }
        }
        return bad;
    }

    private static Outcome outcome(List<NodeInfo> nodes, Attempt a, Plan plan, int traceTasks, Options options,
                                   JobFigures.Figures figures, List<String> notes, long[] offsets) throws IOException {
        int n = nodes.size();
        PairAccumulators acc = new PairAccumulators(n);
        RoundTripMinima rtt = new RoundTripMinima(n);
        for (Map.Entry<Long, PairPart> e : a.pairs().entrySet()) {
            PairPart p = e.getValue();
            int pa = (int) (e.getKey() / n);
            int pb = (int) (e.getKey() % n);
            if (p.acc != null) {
                acc.merge(p.acc);
                acc.seen(pa, p.acc.minX(), p.acc.maxX());
                acc.seen(pb, p.firstB, p.lastB);
            }
            for (long k = 0; k < p.rttCount; k++) {
                rtt.add(pa, pb, p.rttMin);
            }
        }
        Synchronizer.Synchronization s = Synchronizer.synchronize(nodes, acc,
                options.messagesToDriver() ? replay(nodes, a.pairs(), a.stats().tcpSegments() > 0) : null,
                options.sync().of(nodes, rtt));
        List<String> warnings = new ArrayList<>();
        long packets = 0;
        long tcp = 0;
        long broadcast = 0;
        long backward = 0;
        PartReport previous = null;
        for (PartReport r : a.reports()) { // by file, then part
            packets += r.packets();
            tcp += r.tcpBetweenTraced();
            broadcast += r.broadcastDatagrams();
            backward += r.backwardTimestamps();
            if (previous != null && previous.file() == r.file() && previous.packets() > 0 && r.packets() > 0
                    && r.firstTime() < previous.lastTime()) {
                backward++; // across the join of two parts
            }
            if (r.packets() > 0 || previous == null || previous.file() != r.file()) {
                previous = r;
            }
        }
        long traceEvents = 0;
        TraceReport before = null;
        for (TraceReport r : a.traceReports()) { // by file, then part
            traceEvents += r.events();
            backward += r.backwardTimestamps();
            warnings.addAll(r.warnings());
            if (before != null && before.file() == r.file() && r.stream() < 0 && before.events() > 0 && r.events() > 0
                    && r.firstTime() < before.lastTime()) {
                backward++; // across the join of two parts of a JSON-lines log
            }
            if (r.events() > 0 || before == null || before.file() != r.file()) {
                before = r;
            }
        }
        MatchStats m = a.stats();
        warnings.addAll(notes);
        warnings.add(String.format("TCP matching: %d events, %d messages, %d ambiguous keys dropped "
                        + "(%d retransmitted segments, %d duplicate events), %d same-node, %d unmatched "
                        + "(window %d s), %d exchanges",
                m.events(), m.messages(), m.ambiguous(), m.retransmissions(), m.duplicateEvents(), m.sameNode(),
                m.unmatched(), options.capture().window() / 1_000_000_000L, m.exchanges()));
        if (backward > 0) {
            warnings.add(backward + (a.traceReports().isEmpty() ? " packets whose timestamp goes backwards within their capture"
                    : " events whose timestamp goes backwards within their trace"));
        }
        if (broadcast > 0) {
            warnings.add("broadcast: " + broadcast + " datagrams, " + m.broadcastGroups() + " groups seen by several hosts, "
                    + m.broadcastAmbiguous() + " ambiguous");
        }
        long hullPoints = 0;
        for (PairPart p : a.pairs().values()) {
            if (p.acc != null) {
                hullPoints += p.acc.aToB().size() + p.acc.bToA().size();
            }
        }
        String captures = plan.specs().isEmpty() ? "" : String.format("%d packets in %d decoding tasks (%d boundary"
                + " tasks before)", packets, plan.specs().size(), plan.boundaryTasks());
        String others = traceTasks == 0 ? "" : traceEvents + " trace events in " + traceTasks + " trace tasks";
        warnings.add(String.format("spark: %s, %d matching"
                        + " tasks, %d shuffle records (%d bytes), %d pair accumulators (%d hull points) to the driver,"
                        + " peak execution memory %d bytes%s",
                captures.isEmpty() || others.isEmpty() ? captures + others : captures + ", " + others,
                a.matchTasks(), figures.shuffleRecords(), figures.shuffleBytes(), a.pairs().size(), hullPoints,
                figures.peakExecutionMemory(), plan.filesReadWhole() > 0 ? "; " + plan.filesReadWhole()
                        + " captures read whole (their ranges did not join up)" : ""));
        return new Outcome(s, Collections.unmodifiableList(warnings), m, rtt, plan.specs().size() + traceTasks, a.matchTasks(),
                plan.filesReadWhole(), figures, eventSpans(nodes, a));
    }

    /**
     * The messages and exchanges the match tasks kept, as a second pass of {@code sync} gives them:
     * per pair, in the order the one-machine matcher emits them (a message by its first event in the
     * merge order, an exchange by its acknowledgement's; no two share one). Memory: every message, as
     * {@code sync}'s regression holds them.
     */
    private static MessageInput replay(List<NodeInfo> nodes, Map<Long, PairPart> pairs, boolean findsExchanges) {
        return new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return nodes;
            }

            @Override
            public void readMessages(MessageSink sink) {
                for (PairPart p : pairs.values()) {
                    int a = p.acc == null ? -1 : p.acc.a();
                    int b = p.acc == null ? -1 : p.acc.b();
                    long[] log = p.log;
                    int w = PairPart.STRIDE;
                    for (int k : byOrderKey(log, p.logged, w)) {
                        int from = (int) log[k * w + 3];
                        sink.message(from, from == a ? b : a, log[k * w + 4], log[k * w + 5]);
                    }
                }
            }

            /** As {@code MergedTraceInput}: exchanges in the order the matcher finds them; true for TCP segments. */
            @Override
            public boolean readMessages(MessageSink messages, ExchangeSink exchanges) {
                readMessages(messages);
                for (Map.Entry<Long, PairPart> e : pairs.entrySet()) {
                    PairPart p = e.getValue();
                    int pa = (int) (e.getKey() / nodes.size());
                    int pb = (int) (e.getKey() % nodes.size());
                    long[] log = p.exchangeLog;
                    int w = PairPart.EXCHANGE_STRIDE;
                    for (int k : byOrderKey(log, p.exchangesLogged, w)) {
                        int from = (int) log[k * w + 3];
                        exchanges.exchange(from, from == pa ? pb : pa, log[k * w + 4], log[k * w + 5], log[k * w + 6],
                                log[k * w + 7]);
                    }
                }
                return findsExchanges;
            }
        };
    }

    /** Indices of the n rows of {@code log} (stride w) sorted by their first three longs (order time, node, offset). */
    private static Integer[] byOrderKey(long[] log, int n, int w) {
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (x, y) -> {
            int c = Long.compare(log[x * w], log[y * w]);
            if (c == 0) {
                c = Long.compare(log[x * w + 1], log[y * w + 1]);
            }
            return c != 0 ? c : Long.compare(log[x * w + 2], log[y * w + 2]);
        });
        return order;
    }

    /**
     * Per node, its first and last event in the one-machine reader's order ({@code MergedTraceInput.eventSpans}):
     * a capture's or a log's first and last record; a CTF trace's streams merged by time begin with
     * the smallest first time and end with the last event of the stream whose largest time is the
     * largest (ties: the higher stream index).
     */
    private static Map<String, long[]> eventSpans(List<NodeInfo> nodes, Attempt a) {
        Map<Integer, long[]> spans = new HashMap<>();
        for (PartReport r : a.reports()) { // by file, then part
            if (r.packets() > 0) {
                long[] s = spans.computeIfAbsent(r.file(), k -> new long[] {r.firstTime(), r.lastTime()});
                s[1] = r.lastTime();
            }
        }
        Map<Integer, long[]> maxOfLast = new HashMap<>();
        for (TraceReport r : a.traceReports()) { // by file, then part (CTF: stream)
            if (r.events() == 0) {
                continue;
            }
            long[] s = spans.computeIfAbsent(r.file(), k -> new long[] {r.firstTime(), r.lastTime()});
            if (r.stream() < 0) {
                s[1] = r.lastTime();
            } else {
                s[0] = Math.min(s[0], r.firstTime());
                long[] best = maxOfLast.get(r.file());
                if (best == null || r.maxTime() >= best[0]) {
                    maxOfLast.put(r.file(), new long[] {r.maxTime()});
                    s[1] = r.lastTime();
                }
            }
        }
        Map<String, long[]> out = new HashMap<>();
        spans.forEach((f, s) -> out.put(nodes.get(f).name(), s));
        return out;
    }

    /** The decoders of a task's specs, one after the other. */
    private static final class Concatenation<S> implements Iterator<Tuple2<SegmentEvent, Object>> {
        private final Iterator<S> specs;
        private final java.util.function.Function<S, Iterator<Tuple2<SegmentEvent, Object>>> open;
        private Iterator<Tuple2<SegmentEvent, Object>> current = Collections.emptyIterator();

        Concatenation(Iterator<S> specs,
                      java.util.function.Function<S, Iterator<Tuple2<SegmentEvent, Object>>> open) {
            this.specs = specs;
            this.open = open;
        }

        @Override
        public boolean hasNext() {
            while (!current.hasNext()) {
                if (!specs.hasNext()) {
                    return false;
                }
                current = open.apply(specs.next());
            }
            return true;
        }

        @Override
        public Tuple2<SegmentEvent, Object> next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            return current.next();
        }
    }
}
