package org.tracesync.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.repair.ControlledLogicalClock;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.global.GlobalReduction;
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

    @Parameters(arity = "1..*", paramLabel = "TRACE",
            description = "An LTTV text file, or one trace per node (CTF directory, pcap/pcapng, JSON lines), or span files (OTLP JSON, Jaeger JSON, Zipkin v2 JSON: hosts are the nodes).")
    List<Path> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write the result file (JSON) here.")
    Path output;

    @picocli.CommandLine.Mixin
    EstimationOptionsMixin estimation;

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

    /**
     * Where the summary and the verdict go when {@link SyncCommandLine} runs this command without picocli
     * (then {@link #spec} is null); else picocli's streams.
     */
    java.io.PrintWriter out;
    java.io.PrintWriter err;

    @Override
    public Integer call() throws Exception {
        String usageError = estimation.usageError();
        if (usageError != null) {
            throw new picocli.CommandLine.ParameterException(commandLine(), usageError);
        }
        String reference = estimation.reference();
        EstimationOptionsMixin.ReductionChoice reduction = estimation.reduction();
        Long minLatency = estimation.minLatency();
        if (output != null) {
            new OutputGuard(inputs).file("-o", output);
        }
        TraceSet traces = TraceSet.open(inputs, captureOptions.toOptions(), spanOptions.toOptions());
        MessageInput input = traces.input();
        if (estimation.rttFromExchanges() && !(input instanceof MergedTraceInput)) {
            throw new picocli.CommandLine.ParameterException(commandLine(),
                    "--rtt exchanges needs traces with TCP segments (captures or CTF kernel traces): their exchanges give the round trips");
        }
        Synchronizer.Options options = estimation.toOptions(input.nodes());
        if (reference != null && input.nodes().stream().noneMatch(n -> n.name().equals(reference))) {
            throw new picocli.CommandLine.ParameterException(commandLine(),
                    "--reference " + reference + ": no such node (nodes: "
                            + input.nodes().stream().map(n -> n.name()).toList() + ")");
        }
        Synchronizer.Synchronization sync;
        try (ProgressReporter progress = ProgressReporter.start("reading and matching", traces.totalBytes(),
                traces.bytesRead(), traces.eventsRead(), "events", quiet || traces.eventsRead() == null)) {
            // the phases one by one, so that the display names each (reading, estimating, reducing)
            java.util.List<org.tracesync.core.model.NodeInfo> nodes = input.nodes();
            PairAccumulators acc = Synchronizer.accumulate(input); // in parts on every core where the input allows
            if (estimation.rttFromExchanges()) {
                // the round trips are known once the messages are read
                options = options.withLatency(((MergedTraceInput) input).roundTrips()
                        .asMinimumLatency("half the minimum round trip of TCP exchanges per pair"));
            }
            progress.phase("estimating " + SyncSummary.count(acc.nonEmptyPairs().size(), "pair"));
            Synchronizer.Reducer chosen = reduction == EstimationOptionsMixin.ReductionChoice.path ? options.reducer()
                    : GlobalReduction.reducer(reduction == EstimationOptionsMixin.ReductionChoice.global ? GlobalReduction.Mode.EVERY_GROUP
                            : GlobalReduction.Mode.WHERE_REDUNDANT, 0.0, new PhaseNames(progress));
            // spans place their one-way hosts after the offset-only refit (docs/SPANS.md)
            Synchronizer.Reducer reducer = input instanceof org.tracesync.formats.spans.SpanMessageInput
                    ? org.tracesync.formats.spans.OneWayAttachment.afterFit(chosen) : chosen;
            Synchronizer.Options phased = options.withReducer(new PhasedReducer(progress,
                    reduction == EstimationOptionsMixin.ReductionChoice.path ? "composing transforms and bounds along paths"
                            : "reducing to one reference (path composition, then the global program where links are redundant)",
                    reducer));
            sync = Synchronizer.synchronize(nodes, acc, input, phased);
        }
        SyncResult synced = input instanceof org.tracesync.formats.spans.SpanMessageInput spans
                ? org.tracesync.formats.spans.OneWayAttachment.attach( // docs/SPANS.md: after the fit
                        org.tracesync.formats.spans.OffsetOnlyFit.refitImplausible(sync.result(), spans), spans)
                : sync.result();
        long unresolved = 0;
        for (var pair : sync.pairs()) { // a loop: a first stream links its classes and lambdas, milliseconds at start
            if (pair.piecewise() != null) {
                unresolved += pair.piecewise().unresolved();
            }
        }
        long tauMin = minLatency == null ? 0 : Math.round(minLatency);
        SyncResult repaired = repair == RepairChoice.always
                || (repair == RepairChoice.auto && ControlledLogicalClock.worthRunning(sync.pairs(), synced.nodes().size()))
                ? ControlledLogicalClock.applyTo(synced, input, tauMin)
                : repair == RepairChoice.never && unresolved > 0 ? checked(synced, input, tauMin) : synced;
        List<String> coverage = MessageCoverage.warnings(repaired, eventSpans(input));
        SyncResult result = coverage.isEmpty() ? repaired : new SyncResult(repaired.reference(), repaired.nodes(),
                repaired.pairs(), repaired.stats(), concat(repaired.warnings(), coverage), repaired.repairs());
        java.io.PrintWriter out = spec != null ? spec.commandLine().getOut() : this.out;
        java.io.PrintWriter err = spec != null ? spec.commandLine().getErr() : this.err;
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
        SyncVerdict verdict = SyncVerdict.of(result, unresolved);
        for (String reason : verdict.reasons()) {
            err.println("tracesync: " + reason);
        }
        err.flush();
        return verdict.exitCode();
    }

    /**
     * The picocli command line of this command, which a usage error names: picocli's, or when
     * {@link SyncCommandLine} ran the command, {@code sync}'s model built now (only a usage error needs it).
     */
    picocli.CommandLine commandLine() {
        return spec != null ? spec.commandLine() : TracesyncCommand.prebuiltSync().getSubcommands().get("sync");
    }

    /**
     * {@code --repair never} where a bucket holds a clock step (the fit alone cannot tell whether a
     * message there is left inverted): the repair's detection pass counts them, nothing is moved;
     * stats {@code inversions_after_fit}, and a warning when there are any.
     */
    private static SyncResult checked(SyncResult r, MessageInput input, long tauMin) throws java.io.IOException {
        long inverted = ControlledLogicalClock.inversionsAfterFit(r, input, tauMin);
        java.util.Map<String, Object> stats = new java.util.LinkedHashMap<>(r.stats());
        stats.put("inversions_after_fit", inverted);
        List<String> warnings = inverted == 0 ? r.warnings() : concat(r.warnings(), List.of(inverted
                + " messages are inverted after the fit and left so (--repair never; auto or always moves them)"));
        return new SyncResult(r.reference(), r.nodes(), r.pairs(), stats, warnings, r.repairs());
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

    // Classes, not lambdas or method references, on the path every sync takes: each lambda's call
    // site is linked at its first use, about a millisecond of the start (docs/PERFORMANCE.md, "Start").

    /** The progress display's phase names, for the global program's reports. */
    private static final class PhaseNames implements java.util.function.Consumer<String> {
        private final ProgressReporter progress;

        PhaseNames(ProgressReporter progress) {
            this.progress = progress;
        }

        @Override
        public void accept(String phase) {
            progress.phase(phase);
        }
    }

    /** The reduction, named on the progress display when it starts. */
    private static final class PhasedReducer implements Synchronizer.Reducer {
        private final ProgressReporter progress;
        private final String phase;
        private final Synchronizer.Reducer reducer;

        PhasedReducer(ProgressReporter progress, String phase, Synchronizer.Reducer reducer) {
            this.progress = progress;
            this.phase = phase;
            this.reducer = reducer;
        }

        @Override
        public SyncResult reduce(List<org.tracesync.core.model.NodeInfo> nodes, PairAccumulators acc,
                                 List<org.tracesync.core.estimate.PairEstimate> pairs, String reference) {
            progress.phase(phase);
            return reducer.reduce(nodes, acc, pairs, reference);
        }
    }
}
