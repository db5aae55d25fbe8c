package org.tracesync.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MinimumLatency;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.repair.ControlledLogicalClock;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.global.GlobalReduction;
import org.tracesync.formats.evaluate.RttFile;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.result.ResultFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracesync sync TRACE... -o result.json}: the main job. */
@Command(name = "sync", mixinStandardHelpOptions = true,
        description = {"Synchronizes traces: fits, for every node, a transform onto a reference clock with strict accuracy bounds.",
            "Exit codes: 0 every node synchronized by an estimate no message contradicts; 1 not so (a single node,"
                + " nodes not synchronized, fallback estimates, separate groups: stderr says which); 2 usage error;"
                + " 3 input error; 4 internal error; 5 out of memory."})
public final class SyncCommand implements Callable<Integer> {

    enum EstimatorChoice { bisector, regression }

    enum ReductionChoice { global, path }

    @Parameters(arity = "1..*", paramLabel = "TRACE",
            description = "An LTTV text file, or one trace per node (CTF directory, pcap/pcapng, JSON lines), or span files (OTLP JSON, Jaeger JSON, Zipkin v2 JSON: hosts are the nodes).")
    List<Path> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the result file (JSON) here.")
    Path output;

    @Option(names = "--reference", paramLabel = "NODE", description = "Use this node as the reference (default: the most central node of each group).")
    String reference;

    @Option(names = "--estimator", paramLabel = "NAME", defaultValue = "bisector",
            description = "Pair estimate: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    EstimatorChoice estimator;

    @Option(names = "--confidence", defaultValue = "0.95", paramLabel = "P",
            description = "Regression outlier rejection level (default: ${DEFAULT-VALUE}).")
    double confidence;

    @Option(names = "--reduction", paramLabel = "NAME",
            description = {"Reduction to one reference: ${COMPLETION-CANDIDATES}. Default: global for every group with redundant links"
                    + " (more pairs than nodes - 1), path composition otherwise; path when the global program is infeasible."})
    ReductionChoice reduction;

    @Option(names = "--min-latency", paramLabel = "TIME", converter = DurationConverter.class,
            description = {"Strict minimum one-way latency of every message (e.g. 5us), when you know one: every pair's"
                    + " hulls, path composition and the global program use it, which narrows the bounds. A pair whose"
                    + " messages are faster (its hulls cross with it) is estimated without it, with a warning. Default: 0."})
    Long minLatency;

    @Option(names = "--rtt", paramLabel = "FILE|exchanges",
            description = {"Minimum latency per pair from minimum round trips: an RTT file (lines 'addr addr rtt_ms'),"
                    + " or 'exchanges' for the TCP exchanges (data + ack) found in the captures. Each direction gets"
                    + " half its pair's round trip (assumes symmetric minimum latencies); checked like --min-latency."})
    String rtt;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
    boolean quiet;

    @Option(names = "--all-pairs", description = "List every pair in the summary (default: at most "
            + SyncSummary.MAX_PAIR_ROWS + ", the weakest, when there are more).")
    boolean allPairs;

    @picocli.CommandLine.Mixin
    CaptureOptionsMixin captureOptions;

    enum RepairChoice { auto, always, never }

    @Option(names = "--repair", paramLabel = "WHEN", defaultValue = "auto",
            description = {"Controlled logical clock over what the fit leaves inverted: auto (when a pair is fallback, or "
                    + "piecewise with a step bucket or a break, or piecewise among more than two nodes; a second pass over "
                    + "the input), always, never. What moved is reported. Default: ${DEFAULT-VALUE}."})
    RepairChoice repair;

    @picocli.CommandLine.Mixin
    SpanOptionsMixin spanOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (minLatency != null && minLatency < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--min-latency must be >= 0");
        }
        if (minLatency != null && rtt != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "give either --rtt or --min-latency, not both");
        }
        if (output != null) {
            new OutputGuard(inputs).file("-o", output);
        }
        TraceSet traces = TraceSet.open(inputs, captureOptions.toOptions(), spanOptions.toOptions());
        MessageInput input = traces.input();
        if ("exchanges".equals(rtt) && !(input instanceof MergedTraceInput)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--rtt exchanges needs traces with TCP segments (captures or CTF kernel traces): their exchanges give the round trips");
        }
        // τmin is applied to every pair's hulls (Synchronizer), so the global program adds none of its own
        Synchronizer.Options options = new Synchronizer.Options(
                estimator == EstimatorChoice.regression ? Synchronizer.Estimator.REGRESSION : Synchronizer.Estimator.BISECTOR,
                confidence, reference, reduction == ReductionChoice.path ? PathReduction::reduce
                        : GlobalReduction.reducer(reduction == ReductionChoice.global
                                ? GlobalReduction.Mode.EVERY_GROUP : GlobalReduction.Mode.WHERE_REDUNDANT, 0.0));
        int nodeCount = input.nodes().size();
        if (minLatency != null) {
            options = options.withLatency(MinimumLatency.uniform(nodeCount, minLatency, "--min-latency " + minLatency + " ns"));
        } else if (rtt != null && !"exchanges".equals(rtt)) {
            options = options.withLatency(RttFile.read(Path.of(rtt), input.nodes())
                    .asMinimumLatency("half the round trips of " + rtt));
        }
        if (reference != null && input.nodes().stream().noneMatch(n -> n.name().equals(reference))) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "--reference " + reference + ": no such node (nodes: "
                            + input.nodes().stream().map(n -> n.name()).toList() + ")");
        }
        Synchronizer.Synchronization sync;
        try (ProgressReporter progress = ProgressReporter.start("reading and matching", traces.totalBytes(),
                traces.bytesRead(), traces.eventsRead(), "events", quiet || traces.eventsRead() == null)) {
            // the phases one by one, so that the display names each (reading, estimating, reducing)
            java.util.List<org.tracesync.core.model.NodeInfo> nodes = input.nodes();
            PairAccumulators acc = new PairAccumulators(nodes.size());
            input.readMessages(acc);
            if ("exchanges".equals(rtt)) {
                // the round trips are known once the messages are read
                options = options.withLatency(((MergedTraceInput) input).roundTrips()
                        .asMinimumLatency("half the minimum round trip of TCP exchanges per pair"));
            }
            progress.phase("estimating " + SyncSummary.count(acc.nonEmptyPairs().size(), "pair"));
            Synchronizer.Reducer chosen = reduction == ReductionChoice.path ? options.reducer()
                    : GlobalReduction.reducer(reduction == ReductionChoice.global ? GlobalReduction.Mode.EVERY_GROUP
                            : GlobalReduction.Mode.WHERE_REDUNDANT, 0.0, progress::phase);
            // spans place their one-way hosts after the offset-only refit (docs/SPANS.md)
            Synchronizer.Reducer reducer = input instanceof org.tracesync.formats.spans.SpanMessageInput
                    ? org.tracesync.formats.spans.OneWayAttachment.afterFit(chosen) : chosen;
            Synchronizer.Options phased = options.withReducer((n, a, pairs, ref) -> {
                progress.phase(reduction == ReductionChoice.path ? "composing transforms and bounds along paths"
                        : "reducing to one reference (path composition, then the global program where links are redundant)");
                return reducer.reduce(n, a, pairs, ref);
            });
            sync = Synchronizer.synchronize(nodes, acc, input, phased);
        }
        SyncResult synced = input instanceof org.tracesync.formats.spans.SpanMessageInput spans
                ? org.tracesync.formats.spans.OneWayAttachment.attach( // docs/SPANS.md: after the fit
                        org.tracesync.formats.spans.OffsetOnlyFit.refitImplausible(sync.result(), spans), spans)
                : sync.result();
        SyncResult repaired = repair == RepairChoice.always
                || (repair == RepairChoice.auto && ControlledLogicalClock.worthRunning(sync.pairs(), synced.nodes().size()))
                ? ControlledLogicalClock.applyTo(synced, input, minLatency == null ? 0 : Math.round(minLatency)) : synced;
        List<String> coverage = MessageCoverage.warnings(repaired, eventSpans(input));
        SyncResult result = coverage.isEmpty() ? repaired : new SyncResult(repaired.reference(), repaired.nodes(),
                repaired.pairs(), repaired.stats(), concat(repaired.warnings(), coverage), repaired.repairs());
        java.io.PrintWriter out = spec.commandLine().getOut();
        if (!quiet) {
            // the summary first: it is not lost when the result cannot be written
            out.print(SyncSummary.format(result, input.warnings(), allPairs));
            out.flush();
        }
        if (output != null) {
            ResultFile.write(result, output);
            if (!quiet) {
                out.println("result written to " + output);
                out.flush();
            }
        }
        long unresolved = sync.pairs().stream().filter(p -> p.piecewise() != null)
                .mapToLong(p -> p.piecewise().unresolved()).sum();
        SyncVerdict verdict = SyncVerdict.of(result, unresolved);
        for (String reason : verdict.reasons()) {
            spec.commandLine().getErr().println("tracesync: " + reason);
        }
        spec.commandLine().getErr().flush();
        return verdict.exitCode();
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new java.util.ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** Each trace's {first, last} event time by node name (empty for inputs that are not event traces). */
    private static java.util.Map<String, long[]> eventSpans(MessageInput input) {
        java.util.Map<String, long[]> out = new java.util.HashMap<>();
        if (input instanceof MergedTraceInput merged && merged.eventSpans() != null) {
            long[][] spans = merged.eventSpans();
            for (int i = 0; i < spans.length; i++) {
                if (spans[i] != null) {
                    out.put(input.nodes().get(i).name(), spans[i]);
                }
            }
        }
        return out;
    }
}
