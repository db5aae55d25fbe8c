package org.tracesync.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.tracesync.core.evaluate.Evaluation;
import org.tracesync.core.evaluate.EvaluationReport;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.evaluate.RttFile;
import org.tracesync.formats.truth.TruthFile;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.formats.spans.SpanMessageInput;
import org.tracesync.formats.spans.SpanViolations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracesync eval RESULT TRACE...}: how good a synchronization is (DESIGN §5). */
@Command(name = "eval", mixinStandardHelpOptions = true,
        description = {"Evaluates a result against the traces: inversions, too-fast messages per direction, "
                + "broadcast differential delays, accuracy (best/worst/mean); with --truth, the error against "
                + "the true clocks and how often the bounds contain the truth.",
            "Exit codes: 0 no inversion (and, with --truth, the bounds contain the truth everywhere); 1 inversions"
                + " found or the truth outside the bounds; 2 usage error; 3 input error (traces or truth that do not"
                + " belong to the result)."})
public final class EvalCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RESULT", description = "A result file written by 'tracesync sync'.")
    Path result;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "TRACE", description = "The traces that were synchronized.")
    List<Path> traces;

    @Option(names = "--rtt", paramLabel = "FILE",
            description = "Minimum round trips, lines 'addr addr rtt_ms' (default: from TCP exchanges in the traces).")
    Path rtt;

    @Option(names = "--min-latency", paramLabel = "TIME", converter = DurationConverter.class,
            description = "One minimum one-way latency for every direction (e.g. 5us), instead of --rtt or exchanges: "
                    + "the same value 'sync --min-latency' takes.")
    Long minLatency;

    @Option(names = "--truth", paramLabel = "FILE", description = "True clock models (truth.json of a simulation or testbed).")
    Path truth;

    @Option(names = "--json", description = "Print JSON instead of a table.")
    boolean json;

    @Mixin
    CaptureOptionsMixin captureOptions;

    @picocli.CommandLine.Mixin
    SpanOptionsMixin spanOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        SyncResult res = ResultFile.read(result);
        TraceSet set = TraceSet.open(traces, captureOptions.toOptions(), spanOptions.toOptions());
        MessageInput input = set.input();
        List<String> names = input.nodes().stream().map(NodeInfo::name).toList();
        TraceMembership.checkNames(result, res, names);
        TraceMembership membership = new TraceMembership(result.toString(), res, names);
        if (minLatency != null && rtt != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "give either --rtt or --min-latency, not both");
        }
        RoundTripMinima minima = null;
        String tauSource = "unknown (give --rtt FILE or --min-latency TIME): too-fast not checked";
        MergedTraceInput merged = input instanceof MergedTraceInput m ? m : null;
        if (minLatency != null) {
            minima = new RoundTripMinima(names.size());
            for (int a = 0; a < names.size(); a++) {
                for (int b = a + 1; b < names.size(); b++) {
                    minima.set(a, b, 2 * minLatency); // one-way minimum = half the round trip
                }
            }
            tauSource = "--min-latency " + minLatency + " ns";
        } else if (rtt != null) {
            minima = RttFile.read(rtt, input.nodes());
            tauSource = "half the round trips of " + rtt;
        } else if (merged != null) {
            try (ProgressReporter progress = progress(set, "reading round trips")) {
                merged.read((s, r, ts, tr) -> { }, null);
            }
            if (merged.stats().exchanges() > 0) {
                minima = merged.roundTrips();
                tauSource = "half the minimum round trip of TCP exchanges (data + ack) per pair";
            }
        }
        java.util.Map<String, org.tracesync.core.simulate.ClockModel> model = null;
        if (truth != null) {
            model = new java.util.HashMap<>();
            for (var c : TruthFile.read(truth).clocks()) {
                model.put(c.name(), c);
            }
            for (var n : res.nodes()) {
                if (!model.containsKey(n.name())) {
                    throw new TraceFormatException(truth, "", "has no clock for node '" + n.name() + "' (its nodes: "
                            + List.copyOf(model.keySet()).stream().sorted().toList() + "): not the truth of these traces?");
                }
            }
        }
        Evaluation ev = new Evaluation(res, names, minima, model);
        try (ProgressReporter progress = progress(set, "evaluating messages")) {
            if (merged != null) {
                merged.read(membership.watching(ev.messages()), ev.broadcasts());
            } else {
                input.readMessages(membership.watching(ev.messages()));
            }
        }
        membership.check();
        EvaluationReport report = ev.report();
        java.io.PrintWriter out = spec.commandLine().getOut();
        SpanViolations spanViolations = null;
        if (input instanceof SpanMessageInput spans) {
            spanViolations = new SpanViolations(names, res);
            spans.constraints(spanViolations);
        }
        if (json) {
            String text = EvaluationTable.json(report, tauSource);
            if (spanViolations != null) {
                var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
                var tree = (com.fasterxml.jackson.databind.node.ObjectNode) mapper.readTree(text);
                tree.set("span_causality", mapper.valueToTree(SpanEvaluationTable.json(spanViolations,
                        ((SpanMessageInput) input).counts())));
                text = mapper.writerWithDefaultPrettyPrinter().writeValueAsString(tree) + System.lineSeparator();
            }
            out.print(text);
        } else {
            out.print(EvaluationTable.text(report, "Evaluation of " + result + " (" + names.size() + " nodes, reference "
                    + res.reference() + ")", tauSource));
            if (spanViolations != null) {
                out.print(SpanEvaluationTable.text(spanViolations, ((SpanMessageInput) input).counts()));
            }
        }
        out.flush();
        int code = report.noInversion() && (spanViolations == null || spanViolations.totalAfter() == 0)
                ? ExitCode.OK : ExitCode.SYNC_INCOMPLETE;
        EvaluationReport.Truth t = report.truth();
        if (t != null && t.withBounds() > 0 && t.containedShare() < 1) {
            spec.commandLine().getErr().println(String.format(java.util.Locale.ROOT,
                    "tracesync: the bounds contain the truth at only %s of the instants: the truth file or the"
                            + " result is wrong", EvaluationTable.contained(t)));
            spec.commandLine().getErr().flush();
            code = ExitCode.SYNC_INCOMPLETE;
        }
        return code;
    }

    /** A named progress line for one pass over the traces (shown on an interactive terminal only). */
    private static ProgressReporter progress(TraceSet set, String label) {
        return ProgressReporter.start(label, set.totalBytes(), set.bytesRead(), set.eventsRead(), "events",
                set.eventsRead() == null);
    }
}
