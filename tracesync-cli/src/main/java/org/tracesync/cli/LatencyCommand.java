package org.tracesync.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tracesync.core.latency.LatencyAnalysis;
import org.tracesync.core.latency.LatencyBars;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.core.latency.LatencyMessageInput;
import org.tracesync.core.latency.LatencyStatistics;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.latency.LatencyFile;
import org.tracesync.formats.latency.LatencyInputs;
import org.tracesync.global.GlobalReduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tracesync latency TRACE... -o latency.json}: latencies of simple and chained events across
 * machines, with error bars from synchronization (docs/LATENCY.md). The work lives in
 * core.latency and formats.latency; this class only wires them.
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
        description = {"Measures latencies of simple and chained events across machines, with error bars from synchronization.",
            "Inputs: probe traces (tracesync-probe output, or its output directory), latency JSON lines, and any other traces"
                    + " (CTF, pcap/pcapng, span files) as more synchronization input; kernel traces, captures and span"
                    + " hosts named like a probed node join it.",
            "Exit codes: 0 every measurement has an error bar, 1 some could not be synchronized, 2 usage error, 3 input error."})
public final class LatencyCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "TRACE", description = "Probe traces or their directory, latency JSON lines, other traces, span files.")
    List<Path> inputs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write latency.json here (format tracesync-latency/1).")
    Path output;

    @Option(names = "--instances", paramLabel = "FILE", description = "Write one JSON line per measurement here.")
    Path instances;

    @Option(names = "--report", paramLabel = "FILE", description = "Write an HTML report here.")
    Path report;

    @Option(names = "--reference", paramLabel = "NODE", description = "Reference node (default: the most central node).")
    String reference;

    @Option(names = "--rate-error", paramLabel = "PPM", defaultValue = "500",
            description = "Assumed bound on a clock's rate error against true time, added to every bar as PPM·|latency|"
                    + " (default: ${DEFAULT-VALUE}, ntpd's largest slew; crystals stay within ~100).")
    double rateErrorPpm;

    @Option(names = {"-q", "--quiet"}, description = "Print nothing but errors.")
    boolean quiet;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!(rateErrorPpm >= 0) || rateErrorPpm >= 10_000) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--rate-error must be in [0, 10000) ppm");
        }
        OutputGuard guard = new OutputGuard(inputs);
        List<Path> written = new ArrayList<>();
        for (Object[] o : new Object[][] {{"-o", output}, {"--instances", instances}, {"--report", report}}) {
            if (o[1] != null) {
                guard.file((String) o[0], (Path) o[1]);
                new OutputGuard(written, "the output").file((String) o[0], (Path) o[1]); // nor two outputs on one file
                written.add((Path) o[1]);
            }
        }
        LatencyInputs in = LatencyInputs.open(inputs);
        if (in.events().size() == 0) {
            throw new CommandFailure(ExitCode.INPUT, "no latency event in the inputs (give probe traces or latency JSON lines)");
        }
        LatencyInstances found = LatencyInstances.find(in.events());
        LatencyMessageInput messages = in.messageInput(found);
        if (reference != null && messages.nodes().stream().noneMatch(n -> n.name().equals(reference))) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--reference " + reference
                    + ": no such node (nodes: " + messages.nodes().stream().map(n -> n.name()).toList() + ")");
        }
        Synchronizer.Options options = Synchronizer.Options.defaults().withReference(reference)
                .withReducer(GlobalReduction.reducer(GlobalReduction.Mode.WHERE_REDUNDANT, 0.0));
        Synchronizer.Synchronization sync = Synchronizer.synchronize(messages, options);
        double rateError = rateErrorPpm * 1e-6;
        LatencyAnalysis analysis = LatencyAnalysis.of(found, new LatencyBars(sync.result(), sync.pairs(), rateError));
        List<String> warnings = new ArrayList<>(in.warnings());
        warnings.addAll(messages.warnings());
        warnings.addAll(sync.result().warnings());
        LatencyFile.Content content = new LatencyFile.Content(analysis, sync.result(), found.causalPairs(), rateError, warnings);
        if (output != null) {
            LatencyFile.write(content, output);
        }
        if (instances != null) {
            LatencyFile.writeInstances(analysis, instances);
        }
        if (report != null) {
            org.tracesync.cli.report.LatencyReport.write(content, report);
        }
        long unsynchronized = analysis.statusCounts().get(LatencyBars.Status.UNSYNCHRONIZED)
                + analysis.statusCounts().get(LatencyBars.Status.ESTIMATE_ONLY);
        if (!quiet) {
            PrintWriter out = spec.commandLine().getOut();
            out.print(summary(analysis));
            for (String w : warnings) {
                out.println("warning: " + w);
            }
            if (output != null) {
                out.println("latencies written to " + output);
            }
            if (instances != null) {
                out.println("instances written to " + instances);
            }
            if (report != null) {
                out.println("report written to " + report);
            }
            out.flush();
        }
        if (unsynchronized > 0) {
            spec.commandLine().getErr().println("tracesync: " + unsynchronized + " of " + analysis.size()
                    + " measurements have no error bar (their nodes could not be synchronized; see latency.json)");
            spec.commandLine().getErr().flush();
            return ExitCode.SYNC_INCOMPLETE;
        }
        return ExitCode.OK;
    }

    /** One line per group: what, count, p50 and p99 with their bars, max. */
    static String summary(LatencyAnalysis a) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-40s %8s %26s %26s %14s%n", "latency", "count", "p50 (-minus +plus)", "p99", "max"));
        for (LatencyAnalysis.Group g : a.groups()) {
            String what = switch (g.kind()) {
                case SIMPLE -> g.event() + " @" + g.fromNode();
                case TRANSITION -> g.event() + " " + g.fromStep() + "->" + g.toStep() + " " + g.fromNode() + "->" + g.toNode();
                case END_TO_END -> g.event() + " " + g.fromStep() + "=>" + g.toStep() + " (end to end)";
            };
            LatencyStatistics s = g.statistics();
            b.append(String.format(Locale.ROOT, "%-40s %8d %26s %26s %14s%n", what, s.count(), figure(s.p50()),
                    figure(s.p99()), s.max() == null ? "-" : duration(s.max().value())));
        }
        return b.toString();
    }

    private static String figure(LatencyStatistics.Figure f) {
        if (f == null) {
            return "-";
        }
        return f.minus() == null ? duration(f.value()) + " (no bar)"
                : duration(f.value()) + " (-" + duration(f.minus()) + " +" + duration(f.plus()) + ")";
    }

    static String duration(long ns) {
        long a = Math.abs(ns);
        if (a < 10_000) {
            return ns + "ns";
        }
        if (a < 10_000_000) {
            return String.format(Locale.ROOT, "%.1fus", ns / 1e3);
        }
        return String.format(Locale.ROOT, "%.2fms", ns / 1e6);
    }
}
