package org.tracesync.formats.result;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.formats.TraceFormatException;

/**
 * Reading a result file ({@link ResultFile#read}) with Jackson's tree model: kept apart from
 * {@link ResultFile} so that writing one (every {@code sync}) does not load, nor verify against,
 * any of Jackson's classes. Every problem names the file and the offending field.
 */
final class ResultFileReader {

    private ResultFileReader() {
    }

    static SyncResult read(Path file) throws IOException {
        JsonNode root;
        try {
            ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.USE_LONG_FOR_INTS);
            root = mapper.readTree(file.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new TraceFormatException(file, "", "no such result file");
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr();
            throw new TraceFormatException(file, where, "not valid JSON: " + TraceFormatException.plainJson(e.getOriginalMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new TraceFormatException(file, "", "expected a JSON object (a tracesync result file)");
        }
        String format = text(file, root, "format", "");
        if (!ResultFile.FORMAT.equals(format)) {
            throw new TraceFormatException(file, "format", "expected \"" + ResultFile.FORMAT + "\", found \"" + format + "\"");
        }
        List<NodeResult> nodes = new ArrayList<>();
        JsonNode ns = array(file, root, "nodes", "");
        for (int i = 0; i < ns.size(); i++) {
            nodes.add(readNode(file, ns.get(i), "nodes[" + i + "]"));
        }
        List<PairResult> pairs = new ArrayList<>();
        JsonNode ps = root.path("pairs");
        for (int i = 0; i < ps.size(); i++) {
            pairs.add(readPair(file, ps.get(i), "pairs[" + i + "]"));
        }
        Map<String, Object> stats = new LinkedHashMap<>();
        root.path("stats").fields().forEachRemaining(e -> stats.put(e.getKey(),
                e.getValue().isIntegralNumber() ? (Object) e.getValue().asLong()
                        : e.getValue().isNumber() ? (Object) e.getValue().asDouble() : e.getValue().asText()));
        List<String> warnings = new ArrayList<>();
        root.path("warnings").forEach(w -> warnings.add(w.asText()));
        Map<String, long[][]> repairs = new LinkedHashMap<>();
        JsonNode rs = root.path("repairs");
        for (java.util.Iterator<Map.Entry<String, JsonNode>> it = rs.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            long[][] moves = new long[e.getValue().size()][];
            for (int k = 0; k < moves.length; k++) {
                JsonNode m = e.getValue().get(k);
                // [t, r, c] (RepairMoves), or [t, r] as written before the reading was listed
                if (!m.isArray() || m.size() < 2 || m.size() > 3 || !m.get(0).isIntegralNumber()
                        || !m.get(1).isIntegralNumber() || (m.size() == 3 && !m.get(2).isIntegralNumber())) {
                    throw new TraceFormatException(file, "repairs." + e.getKey() + "[" + k + "]",
                            "expected [local time, repaired reference time, reading before the repair] (integer ns)");
                }
                moves[k] = m.size() == 3 ? new long[] {m.get(0).asLong(), m.get(1).asLong(), m.get(2).asLong()}
                        : new long[] {m.get(0).asLong(), m.get(1).asLong()};
            }
            repairs.put(e.getKey(), moves);
        }
        return new SyncResult(text(file, root, "reference", ""), nodes, pairs, stats, warnings, repairs);
    }

    private static NodeResult readNode(Path file, JsonNode n, String where) throws IOException {
        String name = text(file, n, "name", where);
        List<LinearSegment> segments = new ArrayList<>();
        JsonNode segs = array(file, n.path("transform"), "segments", where + ".transform");
        for (int k = 0; k < segs.size(); k++) {
            JsonNode s = segs.get(k);
            String w = where + ".transform.segments[" + k + "]";
            segments.add(new LinearSegment(optLong(file, s, "from", w), optLong(file, s, "to", w),
                    integer(file, s, "origin", w), dbl(s, "offset"), dbl(s, "drift"),
                    optLong(file, s, "either_from", w), optLong(file, s, "either_to", w)));
        }
        if (segments.isEmpty()) {
            throw new TraceFormatException(file, where + ".transform.segments", "expected at least one segment");
        }
        List<BoundRow> rows = new ArrayList<>();
        JsonNode bs = n.path("bounds");
        for (int k = 0; k < bs.size(); k++) {
            JsonNode r = bs.get(k);
            if (!r.isArray() || r.size() != 3 || !r.get(0).isIntegralNumber()
                    || !(r.get(1).isNumber() || r.get(1).isNull()) || !(r.get(2).isNumber() || r.get(2).isNull())) {
                throw new TraceFormatException(file, where + ".bounds[" + k + "]",
                        "expected [t (integer ns), minus (number or null), plus (number or null)]");
            }
            if (k > 0 && r.get(0).asLong() <= rows.get(k - 1).t()) {
                throw new TraceFormatException(file, where + ".bounds[" + k + "]",
                        "rows must be sorted by strictly increasing t");
            }
            // null: that side is absent (unbounded)
            rows.add(new BoundRow(r.get(0).asLong(), r.get(1).isNull() ? Double.POSITIVE_INFINITY : r.get(1).asDouble(),
                    r.get(2).isNull() ? Double.POSITIVE_INFINITY : r.get(2).asDouble()));
        }
        List<String> path = new ArrayList<>();
        n.path("path").forEach(p -> path.add(p.asText()));
        Quality q;
        try {
            q = Quality.fromLabel(text(file, n, "quality", where));
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(file, where + ".quality", e.getMessage());
        }
        ClockTransform transform;
        try {
            transform = new ClockTransform(segments);
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(file, where + ".transform.segments", e.getMessage());
        }
        return new NodeResult(name, n.path("source").asText(""), text(file, n, "reference", where), q,
                transform, NodeBounds.ofRows(rows), path, n.path("start").asLong(0), n.path("end").asLong(0),
                n.path("note").asText(""));
    }

    private static PairResult readPair(Path file, JsonNode p, String where) throws IOException {
        Quality q;
        try {
            q = Quality.fromLabel(text(file, p, "quality", where));
        } catch (IllegalArgumentException e) {
            throw new TraceFormatException(file, where + ".quality", e.getMessage());
        }
        return new PairResult(text(file, p, "a", where), text(file, p, "b", where), q,
                p.path("messages").path("a_to_b").asLong(), p.path("messages").path("b_to_a").asLong(),
                p.path("hull_points").path("a_to_b").asInt(), p.path("hull_points").path("b_to_a").asInt(),
                dbl(p.path("drift"), "min"), dbl(p.path("drift"), "max"),
                dbl(p.path("estimate"), "offset"), dbl(p.path("estimate"), "drift"),
                p.path("estimate").path("origin").asLong(), dbl(p, "mean_accuracy"),
                p.path("violations").asInt(), dbl(p, "max_violation"), p.path("note").asText(""),
                p.path("pieces").asInt(1), steps(file, p.path("steps"), where), regression(file, p.get("regression"), where));
    }

    /** The optional {@code regression} object of a pair, or null when absent. */
    private static RegressionStatistics regression(Path file, JsonNode r, String where) throws IOException {
        if (r == null || r.isNull()) {
            return null;
        }
        String w = where + ".regression";
        if (!r.isObject()) {
            throw new TraceFormatException(file, w, "expected an object");
        }
        return new RegressionStatistics(text(file, r, "samples_from", w), (int) integer(file, r, "samples", w),
                (int) integer(file, r, "rejected", w), dbl(r, "confidence"), dbl(r, "residual_standard_error"),
                dbl(r.path("drift"), "standard_error"), dbl(r.path("drift"), "interval"),
                dbl(r.path("offset"), "standard_error"), dbl(r.path("offset"), "interval"));
    }

    private static List<ClockStep> steps(Path file, JsonNode array, String where) throws IOException {
        List<ClockStep> steps = new ArrayList<>();
        for (int k = 0; k < array.size(); k++) {
            JsonNode st = array.get(k);
            String w = where + ".steps[" + k + "]";
            steps.add(new ClockStep(integer(file, st, "at", w), integer(file, st, "earliest", w),
                    integer(file, st, "latest", w), dbl(st, "size"), dbl(st, "size_min"), dbl(st, "size_max")));
        }
        return steps;
    }

    private static String text(Path file, JsonNode n, String field, String where) throws IOException {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new TraceFormatException(file, where.isEmpty() ? field : where + "." + field, "expected a string");
        }
        return v.asText();
    }

    private static JsonNode array(Path file, JsonNode n, String field, String where) throws IOException {
        JsonNode v = n.get(field);
        if (v == null || !v.isArray()) {
            throw new TraceFormatException(file, where.isEmpty() ? field : where + "." + field, "expected an array");
        }
        return v;
    }

    private static long integer(Path file, JsonNode n, String field, String where) throws IOException {
        JsonNode v = n.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new TraceFormatException(file, where + "." + field, "expected an integer (ns)");
        }
        return v.asLong();
    }

    private static Long optLong(Path file, JsonNode n, String field, String where) throws IOException {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber()) {
            throw new TraceFormatException(file, where + "." + field, "expected an integer (ns) or null");
        }
        return v.asLong();
    }

    private static double dbl(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() || !v.isNumber() ? Double.NaN : v.asDouble();
    }
}
