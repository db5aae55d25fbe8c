package org.tracesync.formats.input;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormat;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.TraceSetException;
import org.tracesync.formats.lttv.LttvTextInput;
import org.tracesync.formats.spans.SpanFiles;
import org.tracesync.formats.spans.SpanFormat;
import org.tracesync.formats.spans.SpanMessageInput;
import org.tracesync.formats.spans.SpanOptions;

/**
 * Turns the paths a user names into one {@link MessageInput}: an LTTV text file directly (it
 * holds already matched messages of all its traces), or one event trace per path, of any formats
 * of {@link TraceFormats} (recognised by content, not by name), through the one matching pipeline
 * {@link MergedTraceInput}. Refuses a trace given twice and two traces of one node name.
 */
public final class TraceInputs {

    private TraceInputs() {
    }

    public static MessageInput open(List<Path> paths) throws IOException {
        return open(paths, InputOptions.defaults());
    }

    public static MessageInput open(List<Path> paths, InputOptions options) throws IOException {
        return open(paths, options, SpanOptions.defaults());
    }

    /**
     * As {@link #open(List, InputOptions)}; when every path is a span file (OTLP JSON, Jaeger JSON,
     * Zipkin v2 JSON), they are read together as one {@link SpanMessageInput} with {@code spanOptions}
     * (hosts are the nodes; docs/SPANS.md).
     */
    public static MessageInput open(List<Path> paths, InputOptions options, SpanOptions spanOptions) throws IOException {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no input given");
        }
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new TraceFormatException(p, "", "no such file or directory");
            }
        }
        refuseRepeatedPaths(paths);
        if (SpanFiles.all(paths)) {
            SpanMessageInput spans = new SpanMessageInput(SpanFiles.open(paths, spanOptions));
            spans.hosts(); // the first pass: hosts, and every format error, reported here
            return spans;
        }
        if (paths.size() == 1 && Files.isRegularFile(paths.get(0)) && LttvTextInput.looksLikeLttvText(paths.get(0))) {
            return LttvTextInput.open(paths.get(0));
        }
        // group the paths by format (captures are opened together), keeping input order
        Map<TraceFormat, List<Integer>> byFormat = new LinkedHashMap<>();
        for (int i = 0; i < paths.size(); i++) {
            byFormat.computeIfAbsent(formatOf(paths.get(i)), f -> new ArrayList<>()).add(i);
        }
        EventTrace[] traces = new EventTrace[paths.size()];
        for (Map.Entry<TraceFormat, List<Integer>> e : byFormat.entrySet()) {
            List<Path> group = e.getValue().stream().map(paths::get).toList();
            List<EventTrace> opened = e.getKey().open(group, options);
            for (int j = 0; j < opened.size(); j++) {
                traces[e.getValue().get(j)] = opened.get(j);
            }
        }
        List<EventTrace> list = List.of(traces);
        refuseRepeatedNames(list);
        return new MergedTraceInput(list, options);
    }

    /** The format of an event trace, or a message saying what tracesync reads. */
    public static TraceFormat formatOf(Path p) throws IOException {
        TraceFormat f = TraceFormats.of(p);
        if (f != null) {
            return f;
        }
        if (SpanFormat.isSpanFile(p)) {
            throw new TraceFormatException(p, "", "a span file: give only span files together (hosts are read from the spans)");
        }
        if (Files.isRegularFile(p) && LttvTextInput.looksLikeLttvText(p)) {
            throw new TraceFormatException(p, "", "an LTTV text file holds all traces of a set: give it alone");
        }
        TraceFormatException why = org.tracesync.formats.UnknownFormat.reason(p);
        if (why != null) {
            throw why;
        }
        List<String> names = new ArrayList<>();
        names.add("LTTV text");
        names.addAll(TraceFormats.names());
        throw new TraceFormatException(p, "", "unknown trace format (tracesync reads: " + String.join(", ", names) + ")");
    }

    /** The same file or directory named twice (also through links or "..") is a usage error. */
    private static void refuseRepeatedPaths(List<Path> paths) throws IOException {
        Map<Path, Path> seen = new HashMap<>();
        for (Path p : paths) {
            Path real = p.toRealPath();
            Path before = seen.putIfAbsent(real, p);
            if (before != null) {
                throw new TraceSetException(before.equals(p)
                        ? "trace " + p + " is given twice: give each node's trace once"
                        : "traces " + before + " and " + p + " are the same file: give each node's trace once");
            }
        }
    }

    /** Two traces of one node name cannot be told apart in the result: a usage error. */
    private static void refuseRepeatedNames(List<EventTrace> traces) {
        Map<String, NodeInfo> seen = new HashMap<>();
        for (EventTrace t : traces) {
            NodeInfo n = t.node();
            NodeInfo before = seen.putIfAbsent(n.name(), n);
            if (before != null) {
                throw new TraceSetException("traces " + before.source() + " and " + n.source()
                        + " both have the node name '" + n.name() + "': give each node's trace once"
                        + " (captures can be renamed with --name)");
            }
        }
    }
}
