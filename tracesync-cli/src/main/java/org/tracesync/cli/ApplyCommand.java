package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.TraceFormat;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.input.TraceInputs;
import org.tracesync.formats.jsonl.JsonLinesReader;
import org.tracesync.formats.pcap.CaptureNodes;
import org.tracesync.formats.result.ResultFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code tracesync apply RESULT [TRACE...] --out DIR [--merge FILE]}: writes synchronized copies
 * of the traces (timestamps in each node's reference time). Dispatches per input format to a
 * {@link TraceApplier}; the traces default to the sources recorded in the result.
 */
@Command(name = "apply", mixinStandardHelpOptions = true,
        description = {"Writes copies of the traces with timestamps converted to reference time.",
            "Captures: every timestamp converted (--merge: one capture ordered by reference time).",
            "Span files (OTLP JSON, Jaeger JSON, Zipkin v2 JSON): each file rewritten in its own format, every"
                + " timestamp corrected per host, each span annotated with tracesync.shift_ns, tracesync.bound_minus_ns,"
                + " tracesync.bound_plus_ns, tracesync.quality and tracesync.reference.",
            "CTF: the metadata clock (freq, offset_s, offset) is rewritten, streams copied untouched;"
                + " exact at mid-trace, the remaining error bound is written into the metadata.",
            "JSON lines: DIR/<node>.jsonl, every event's \"t\" in reference time (integer ns), every other byte"
                + " kept; --annotate adds \"tracesync\":{\"local_t\",\"bound_minus_ns\",\"bound_plus_ns\"} to each event;"
                + " --merge: one file of all nodes' events ordered by reference time.",
            "Exit codes: 0 success, 1 refused (piecewise transform for CTF), 2 usage error, 3 input error."})
public final class ApplyCommand implements Callable<Integer> {

    /** Registered appliers, tried in order (one per format). */
    static final List<TraceApplier> APPLIERS = List.of(new CaptureApplier(), new CtfApplier(), new JsonLinesApplier());

    @Parameters(index = "0", paramLabel = "RESULT", description = "A result file written by 'tracesync sync'.")
    Path result;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "TRACE",
            description = "The traces (default: each node's source as recorded in the result).")
    List<Path> traces = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", description = "Write one synchronized copy per trace here.")
    Path outDir;

    @Option(names = "--merge", paramLabel = "FILE",
            description = "Write all traces into this one file, ordered by reference time (captures: pcapng; JSON lines: one .jsonl).")
    Path merge;

    @Option(names = "--annotate",
            description = "JSON lines: add \"tracesync\":{\"local_t\":..,\"bound_minus_ns\":..,\"bound_plus_ns\":..} to each event"
                    + " (its local time and the result's bounds there, ns).")
    boolean annotate;

    @Option(names = "--annotate-field", paramLabel = "NAME",
            description = "JSON lines: the field --annotate adds (implies --annotate; default: tracesync). An event that"
                    + " already has it is an error.")
    String annotateField;

    @picocli.CommandLine.Mixin
    SpanOptionsMixin spanOptions;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (outDir == null && merge == null) {
            throw new CommandFailure(ExitCode.USAGE, "give --out DIR and/or --merge FILE");
        }
        List<Path> given = new ArrayList<>(traces);
        given.add(result);
        OutputGuard guard = new OutputGuard(given);
        if (outDir != null) {
            guard.directory("--out", outDir);
        }
        if (merge != null) {
            guard.file("--merge", merge);
        }
        SyncResult res = ResultFile.read(result);
        List<Path> spanFiles = SpanApplier.spanFiles(traces, res);
        if (!spanFiles.isEmpty()) {
            if (outDir == null || merge != null) {
                throw new IllegalArgumentException("span files: give --out DIR (--merge is for captures and JSON lines)");
            }
            SpanApplier.apply(spanFiles, res, spanOptions.toOptions(), outDir, spec.commandLine().getOut());
            spec.commandLine().getOut().flush();
            return 0;
        }
        List<Path> paths = new ArrayList<>();
        List<NodeResult> nodes = new ArrayList<>();
        for (NodeResult n : res.nodes()) {
            Path p = traceOf(n);
            if (p == null) {
                continue;
            }
            paths.add(p);
            nodes.add(n);
        }
        if (paths.isEmpty()) {
            throw new TraceFormatException(result, "", "none of its nodes' traces was found (give the TRACE paths)");
        }
        for (Path p : traces) {
            if (!paths.contains(p)) {
                spec.commandLine().getErr().println("tracesync apply: warning: " + p + " is the trace of no node of "
                        + result + "; not written");
                spec.commandLine().getErr().flush();
            }
        }
        List<TraceApplier> appliers = new ArrayList<>();
        for (Path p : paths) {
            TraceApplier a = applierFor(p);
            if (a instanceof JsonLinesApplier && (annotate || annotateField != null)) {
                a = new JsonLinesApplier(annotateField != null ? annotateField : JsonLinesApplier.DEFAULT_FIELD);
            }
            appliers.add(a);
        }
        if (annotateField != null && annotateField.isEmpty()) {
            throw new CommandFailure(ExitCode.USAGE, "--annotate-field: give a non-empty field name");
        }
        if ((annotate || annotateField != null) && appliers.stream().noneMatch(a -> a instanceof JsonLinesApplier)) {
            throw new CommandFailure(ExitCode.USAGE, "--annotate is for JSON-lines traces (span files are always annotated)");
        }
        // Everything is checked before anything is written: a refusal leaves no partial copies behind.
        if (merge != null) {
            TraceApplier first = appliers.get(0);
            if (!first.canMerge() || appliers.stream().anyMatch(a -> a.getClass() != first.getClass())) {
                throw new CommandFailure(ExitCode.USAGE,
                        "--merge needs traces of one mergeable format (pcap/pcapng, or JSON lines)");
            }
        }
        // A CTF clock can only express a linear transform.
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            if (appliers.get(i) instanceof CtfApplier && !nodes.get(i).transform().isLinear()) {
                refused.add(nodes.get(i).name() + ": piecewise transform (" + nodes.get(i).transform().segments().size()
                        + " segments); a CTF clock can only express a linear transform and rewriting every"
                        + " timestamp is not implemented yet");
            }
        }
        if (!refused.isEmpty()) {
            java.io.PrintWriter err = spec.commandLine().getErr();
            for (String r : refused) {
                err.println("tracesync apply: refused: " + r);
            }
            err.flush();
            return TracesyncCommand.EXIT_PARTIAL;
        }
        List<Path> all = new ArrayList<>(given);
        all.addAll(paths);
        OutputGuard withTraces = new OutputGuard(all);
        List<Path> outputs = new ArrayList<>();
        if (outDir != null) {
            withTraces.directory("--out", outDir);
            for (int i = 0; i < paths.size(); i++) {
                Path o = appliers.get(i).output(paths.get(i), nodes.get(i), outDir);
                withTraces.file("--out", o);
                if (appliers.get(i).refusesExistingOutput() && Files.exists(o, LinkOption.NOFOLLOW_LINKS)) {
                    throw new CommandFailure(ExitCode.USAGE, "--out " + outDir + ": " + o
                            + " already exists; choose another --out (an existing trace is never replaced)");
                }
                if (outputs.contains(o)) {
                    throw new CommandFailure(ExitCode.USAGE, "--out " + outDir + ": two traces would be written to " + o
                            + "; give them different names");
                }
                outputs.add(o);
            }
        }
        if (merge != null) {
            List<Path> mergeGuard = new ArrayList<>(all);
            mergeGuard.addAll(outputs);
            new OutputGuard(mergeGuard).file("--merge", merge);
        }
        java.io.PrintWriter out = spec.commandLine().getOut();
        if (outDir != null) {
            Files.createDirectories(outDir);
            for (int i = 0; i < paths.size(); i++) {
                long[][] repairs = res.repairs().getOrDefault(nodes.get(i).name(), new long[0][]);
                TraceApplier.Applied written = appliers.get(i).apply(paths.get(i), nodes.get(i), repairs, outDir);
                out.println(nodes.get(i).name() + ": " + paths.get(i) + " -> " + written.output()
                        + (nodes.get(i).synchronizedToOther() ? " (reference " + nodes.get(i).reference() + ")"
                                : " (unchanged: a reference or unsynchronized node)")
                        + (written.note().isEmpty() ? "" : "; " + written.note())
                        + (repairs.length == 0 ? "" : appliers.get(i).appliesRepairs()
                                ? "; " + repairs.length + " timestamps repaired by the controlled logical clock"
                                : "; NOT applied: the " + repairs.length + " timestamps the controlled logical clock moved "
                                        + "(this format's copy only rewrites its clock)"));
            }
        }
        if (merge != null) {
            String ref = nodes.get(0).reference();
            if (nodes.stream().anyMatch(n -> !n.reference().equals(ref))) {
                out.println("warning: the traces map to different references; merged order across groups is meaningless");
            }
            Path parent = merge.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            List<long[][]> repairs = new ArrayList<>();
            for (NodeResult n : nodes) {
                repairs.add(res.repairs().getOrDefault(n.name(), new long[0][]));
            }
            long n = appliers.get(0).merge(paths, nodes, repairs, merge);
            out.println("merged " + n + " records into " + merge);
        }
        out.flush();
        return 0;
    }

    private Path traceOf(NodeResult n) throws IOException {
        if (traces.isEmpty()) {
            Path p = Path.of(n.source());
            if (!Files.exists(p)) {
                throw new TraceFormatException(p, "", "trace of node '" + n.name()
                        + "' not found (give the TRACE paths after RESULT)");
            }
            return p;
        }
        for (Path p : traces) {
            if (p.toString().equals(n.source()) || CaptureNodes.stem(p).equals(n.name())
                    || p.getFileName().toString().equals(n.name()) || n.name().equals(jsonLinesNode(p))) {
                if (!Files.exists(p)) {
                    throw new TraceFormatException(p, "", "no such file or directory");
                }
                return p;
            }
        }
        return null;
    }

    private final Map<Path, String> jsonLinesNodes = new HashMap<>();

    /** The node a JSON-lines trace's events are on (its first event's), or null for another file. */
    private String jsonLinesNode(Path p) throws IOException {
        if (!JsonLinesReader.looksLikeJsonLines(p) || !Files.isRegularFile(p)) {
            return null;
        }
        String name = jsonLinesNodes.get(p);
        if (name == null) {
            name = new JsonLinesReader(p).node().name();
            jsonLinesNodes.put(p, name);
        }
        return name;
    }

    /** The applier of {@code p}'s format, recognised by the registry {@code sync} uses. */
    static TraceApplier applierFor(Path p) throws IOException {
        TraceFormat format = TraceInputs.formatOf(p);
        for (TraceApplier a : APPLIERS) {
            if (a.format().isInstance(format)) {
                return a;
            }
        }
        throw new TraceFormatException(p, "", "apply does not support " + format.name() + " traces (supported: "
                + APPLIERS.stream().map(TraceApplier::name).toList() + ")");
    }
}
