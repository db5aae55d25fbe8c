package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.formats.io.AtomicFile;
import org.tracesync.formats.jsonl.JsonLinesFormat;
import org.tracesync.formats.jsonl.JsonLinesRewriter;

/**
 * {@code apply} for JSON-lines event logs: each log rewritten into {@code DIR/<node>.jsonl} with
 * every event's {@code "t"} in reference time and every other character kept
 * ({@link JsonLinesRewriter}); {@code --merge} one log of every node's events in reference-time
 * order. Events are taken in file order ({@link TraceApplier#timesInOrder}: around a backward step
 * by their position, the captures' rule) and the controlled logical clock's moves are written.
 * With an annotation field, each event gets {@code "FIELD":{"local_t":..,"bound_minus_ns":..,
 * "bound_plus_ns":..}}.
 */
final class JsonLinesApplier implements TraceApplier {

    /** The default annotation field. */
    static final String DEFAULT_FIELD = "tracesync";

    private final String annotationField;

    /** Without annotation. */
    JsonLinesApplier() {
        this(null);
    }

    /** @param annotationField the field added to each event, or null for none */
    JsonLinesApplier(String annotationField) {
        this.annotationField = annotationField;
    }

    @Override
    public String name() {
        return "JSON lines";
    }

    @Override
    public Class<JsonLinesFormat> format() {
        return JsonLinesFormat.class;
    }

    /**
     * {@code DIR/<node>.jsonl}; characters a file name cannot hold portably ({@code / \ : * ? " < > |},
     * control characters) become {@code _}, and a name of dots is prefixed with {@code _}.
     */
    @Override
    public Path output(Path trace, NodeResult node, Path outDir) {
        return outDir.resolve(fileName(node.name()) + ".jsonl");
    }

    static String fileName(String node) {
        StringBuilder b = new StringBuilder(node.length());
        for (int i = 0; i < node.length(); i++) {
            char c = node.charAt(i);
            b.append(c < 0x20 || c == 0x7f || "/\\:*?\"<>|".indexOf(c) >= 0 ? '_' : c);
        }
        String s = b.toString();
        return s.isEmpty() || s.chars().allMatch(c -> c == '.') ? "_" + s : s;
    }

    /** An existing {@code DIR/<node>.jsonl} is refused: a file named after a node may be the user's own. */
    @Override
    public boolean refusesExistingOutput() {
        return true;
    }

    @Override
    public boolean appliesRepairs() {
        return true;
    }

    @Override
    public Applied apply(Path trace, NodeResult node, Path outDir) throws IOException {
        return apply(trace, node, new long[0][], outDir);
    }

    @Override
    public Applied apply(Path trace, NodeResult node, long[][] repairs, Path outDir) throws IOException {
        Path out = output(trace, node, outDir);
        JsonLinesRewriter.Outcome[] o = {null};
        AtomicFile.write(out, tmp -> o[0] = rewriter(List.of(node)).rewrite(trace, tmp,
                TraceApplier.timesInOrder(node, repairs)));
        return new Applied(out, o[0].events() + " events" + (annotationField == null ? ""
                : ", annotated \"" + annotationField + "\""));
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public long merge(List<Path> traces, List<NodeResult> nodes, List<long[][]> repairs, Path out) throws IOException {
        List<LongUnaryOperator> times = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            times.add(TraceApplier.timesInOrder(nodes.get(i), repairs.get(i)));
        }
        long[] n = {0};
        AtomicFile.write(out, tmp -> n[0] = rewriter(nodes).merge(traces, times, tmp));
        return n[0];
    }

    /** The rewriter; its annotation looks up the bounds of the node whose event it is (one node per pass). */
    private JsonLinesRewriter rewriter(List<NodeResult> nodes) {
        if (annotationField == null) {
            return new JsonLinesRewriter();
        }
        return new JsonLinesRewriter(annotationField, new Bounds(nodes));
    }

    /**
     * {@code "local_t":T,"bound_minus_ns":M,"bound_plus_ns":P}: the event's own time and the
     * result's bounds at it, rounded up to whole ns (a side is absent when the result has no
     * finite bound there; a reference's are 0, it is its own clock).
     */
    private record Bounds(List<NodeResult> nodes) implements JsonLinesRewriter.Annotation {

        @Override
        public void append(StringBuilder m, int input, long local, long synced) {
            m.append("\"local_t\":").append(local);
            NodeResult node = nodes.get(input);
            if (node.quality() == Quality.REFERENCE) {
                m.append(",\"bound_minus_ns\":0,\"bound_plus_ns\":0");
                return;
            }
            if (node.bounds().isEmpty()) {
                return;
            }
            double minus = node.bounds().minus(local);
            double plus = node.bounds().plus(local);
            if (Double.isFinite(minus)) {
                m.append(",\"bound_minus_ns\":").append((long) Math.ceil(minus));
            }
            if (Double.isFinite(plus)) {
                m.append(",\"bound_plus_ns\":").append((long) Math.ceil(plus));
            }
        }
    }
}
