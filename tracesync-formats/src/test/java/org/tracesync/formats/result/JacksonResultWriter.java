package org.tracesync.formats.result;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.LinearSegment;

/**
 * The oracle for {@link IndentedJson}: {@code ResultFile}'s writer as it was up to 2026-11-23, on
 * Jackson's streaming generator with its default pretty printer, kept verbatim (with main's either-side times of 2026-11-23 09:00).
 */
final class JacksonResultWriter {

    private JacksonResultWriter() {
    }

    /** Writes {@code result} as JSON to {@code out} (not closed). */
    public static void write(SyncResult result, OutputStream out) throws IOException {
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("format", ResultFile.FORMAT);
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
                        for (long v : m) {
                            g.writeNumber(v);
                        }
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

}
