package org.tracesync.formats.result;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
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
import org.tracesync.formats.io.AtomicFile;

/**
 * The result file (DESIGN §7, format "tracesync/1"): the contract other tools read.
 * Integers (ns timestamps, origins, counts) are written as JSON integers, never floats; doubles
 * that are unknown (NaN, ±∞) are written as null. Written atomically: a temporary file in the
 * same directory, then a rename, so a reader never sees a half-written result.
 */
public final class ResultFile {

    public static final String FORMAT = "tracesync/1";

    private ResultFile() {
    }

    /**
     * Writes {@code result} to {@code file} atomically ({@link AtomicFile}: a temporary sibling
     * renamed at the end, permissions from the umask or from the file it replaces).
     */
    public static void write(SyncResult result, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        AtomicFile.write(file, tmp -> {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                write(result, out);
            }
        });
    }

    /** Writes {@code result} as JSON to {@code out} (not closed). */
    public static void write(SyncResult result, OutputStream out) throws IOException {
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("format", FORMAT);
            g.writeStringField("reference", result.reference());
            g.writeArrayFieldStart("nodes");
            for (NodeResult n : result.nodes()) {
                writeNode(g, n);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("pairs");
            for (PairResult p : result.pairs()) {
                writePair(g, p);
            }
            g.writeEndArray();
            g.writeObjectFieldStart("stats");
            for (Map.Entry<String, Object> e : result.stats().entrySet()) {
                g.writeFieldName(e.getKey());
                writeValue(g, e.getValue());
            }
            g.writeEndObject();
            g.writeArrayFieldStart("warnings");
            for (String w : result.warnings()) {
                g.writeString(w);
            }
            g.writeEndArray();
            if (!result.repairs().isEmpty()) {
                g.writeObjectFieldStart("repairs");
                for (Map.Entry<String, long[][]> e : result.repairs().entrySet()) {
                    g.writeArrayFieldStart(e.getKey());
                    for (long[] m : e.getValue()) {
                        g.writeStartArray();
                        g.writeNumber(m[0]);
                        g.writeNumber(m[1]);
                        g.writeEndArray();
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        }
    }

    private static void writeValue(JsonGenerator g, Object v) throws IOException {
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Number num) {
            number(g, num.doubleValue());
        } else if (v instanceof Boolean b) {
            g.writeBoolean(b);
        } else if (v == null) {
            g.writeNull();
        } else {
            g.writeString(v.toString());
        }
    }

    private static void writeNode(JsonGenerator g, NodeResult n) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", n.name());
        g.writeStringField("source", n.source());
        g.writeStringField("reference", n.reference());
        g.writeStringField("quality", n.quality().label());
        g.writeObjectFieldStart("transform");
        g.writeArrayFieldStart("segments");
        for (LinearSegment s : n.transform().segments()) {
            g.writeStartObject();
            nullableLong(g, "from", s.from());
            nullableLong(g, "to", s.to());
            g.writeNumberField("origin", s.origin());
            g.writeFieldName("offset");
            number(g, s.offset());
            g.writeFieldName("drift");
            number(g, s.drift());
            if (s.eitherFrom() != null) {
                // a step's either-side local times (docs/RESULT_FORMAT.md): only on such segments
                g.writeNumberField("either_from", s.eitherFrom());
                g.writeNumberField("either_to", s.eitherTo());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeArrayFieldStart("bounds");
        for (BoundRow r : n.bounds().rows()) {
            g.writeStartArray();
            g.writeNumber(r.t());
            number(g, r.minus());
            number(g, r.plus());
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("path");
        for (String p : n.path()) {
            g.writeString(p);
        }
        g.writeEndArray();
        g.writeNumberField("start", n.start());
        g.writeNumberField("end", n.end());
        g.writeStringField("note", n.note());
        g.writeEndObject();
    }

    private static void writePair(JsonGenerator g, PairResult p) throws IOException {
        g.writeStartObject();
        g.writeStringField("a", p.a());
        g.writeStringField("b", p.b());
        g.writeStringField("quality", p.quality().label());
        g.writeObjectFieldStart("messages");
        g.writeNumberField("a_to_b", p.messagesAToB());
        g.writeNumberField("b_to_a", p.messagesBToA());
        g.writeEndObject();
        g.writeObjectFieldStart("hull_points");
        g.writeNumberField("a_to_b", p.hullAToB());
        g.writeNumberField("b_to_a", p.hullBToA());
        g.writeEndObject();
        g.writeObjectFieldStart("drift");
        g.writeFieldName("min");
        number(g, p.driftMin());
        g.writeFieldName("max");
        number(g, p.driftMax());
        g.writeEndObject();
        g.writeObjectFieldStart("estimate");
        g.writeNumberField("origin", p.origin());
        g.writeFieldName("offset");
        number(g, p.offset());
        g.writeFieldName("drift");
        number(g, p.drift());
        g.writeEndObject();
        g.writeFieldName("mean_accuracy");
        number(g, p.meanAccuracy());
        g.writeNumberField("violations", p.violations());
        g.writeFieldName("max_violation");
        number(g, p.maxViolation());
        g.writeStringField("note", p.note());
        if (p.pieces() > 1 || !p.steps().isEmpty()) {
            g.writeNumberField("pieces", p.pieces());
            g.writeArrayFieldStart("steps");
            for (ClockStep st : p.steps()) {
                g.writeStartObject();
                g.writeNumberField("at", st.at());
                g.writeNumberField("earliest", st.earliest());
                g.writeNumberField("latest", st.latest());
                g.writeFieldName("size");
                number(g, st.size());
                g.writeFieldName("size_min");
                number(g, st.sizeMin());
                g.writeFieldName("size_max");
                number(g, st.sizeMax());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        if (p.regression() != null) {
            writeRegression(g, p.regression());
        }
        g.writeEndObject();
    }

    /** A pair's optional {@code regression} object (docs/RESULT_FORMAT.md). */
    private static void writeRegression(JsonGenerator g, RegressionStatistics r) throws IOException {
        g.writeObjectFieldStart("regression");
        g.writeStringField("samples_from", r.samplesFrom());
        g.writeNumberField("samples", r.samples());
        g.writeNumberField("rejected", r.rejected());
        g.writeNumberField("confidence", r.confidence());
        g.writeFieldName("residual_standard_error");
        number(g, r.residualStandardError());
        g.writeObjectFieldStart("drift");
        g.writeFieldName("standard_error");
        number(g, r.driftStandardError());
        g.writeFieldName("interval");
        number(g, r.driftInterval());
        g.writeEndObject();
        g.writeObjectFieldStart("offset");
        g.writeFieldName("standard_error");
        number(g, r.offsetStandardError());
        g.writeFieldName("interval");
        number(g, r.offsetInterval());
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void nullableLong(JsonGenerator g, String field, Long v) throws IOException {
        if (v == null) {
            g.writeNullField(field);
        } else {
            g.writeNumberField(field, v);
        }
    }

    private static void number(JsonGenerator g, double v) throws IOException {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            g.writeNull();
        } else {
            g.writeNumber(v);
        }
    }

    // ------------------------------------------------------------------ reading

    /** Reads a result file; every problem names the file and the offending field. */
    public static SyncResult read(Path file) throws IOException {
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
        if (!FORMAT.equals(format)) {
            throw new TraceFormatException(file, "format", "expected \"" + FORMAT + "\", found \"" + format + "\"");
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
                if (!m.isArray() || m.size() != 2 || !m.get(0).isIntegralNumber() || !m.get(1).isIntegralNumber()) {
                    throw new TraceFormatException(file, "repairs." + e.getKey() + "[" + k + "]",
                            "expected [local time, repaired reference time] (integer ns)");
                }
                moves[k] = new long[] {m.get(0).asLong(), m.get(1).asLong()};
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
