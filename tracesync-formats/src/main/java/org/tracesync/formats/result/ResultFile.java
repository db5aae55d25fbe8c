package org.tracesync.formats.result;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.tracesync.core.accumulate.SecondThreadTask;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.RegressionStatistics;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.formats.io.AtomicFile;

/**
 * The result file (DESIGN §7, format "tracesync/1"): the contract other tools read.
 * Integers (ns timestamps, origins, counts) are written as JSON integers, never floats; doubles
 * that are unknown (NaN, ±∞) are written as null. Written atomically: a temporary file in the
 * same directory, then a rename, so a reader never sees a half-written result. Written by
 * {@link IndentedJson} (Jackson's pretty-printed bytes without Jackson's classes: a {@code sync}
 * loads none of them), O(size of the result); read with Jackson by {@link ResultFileReader}.
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
        // a class, not a lambda: a lambda's first use links the method-handle machinery, a
        // noticeable share of a small sync's start (docs/PERFORMANCE.md, "Start", seventh session)
        AtomicFile.write(file, new AtomicFile.Content() {
            @Override
            public void writeTo(Path tmp) throws IOException {
                try (OutputStream out = Files.newOutputStream(tmp)) {
                    write(result, out);
                }
            }
        });
    }

    /**
     * Writes {@code result} as JSON to {@code out} (not closed): the bytes Jackson's generator with its
     * default pretty printer wrote ({@link IndentedJson}), without loading Jackson.
     */
    public static void write(SyncResult result, OutputStream out) throws IOException {
        IndentedJson g = new IndentedJson(out);
        g.startObject();
        g.stringField("format", FORMAT);
        g.stringField("reference", result.reference());
        g.name("nodes");
        g.startArray();
        for (NodeResult n : result.nodes()) {
            writeNode(g, n);
        }
        g.endArray();
        g.name("pairs");
        g.startArray();
        for (PairResult p : result.pairs()) {
            writePair(g, p);
        }
        g.endArray();
        g.name("stats");
        g.startObject();
        for (Map.Entry<String, Object> e : result.stats().entrySet()) {
            g.name(e.getKey());
            writeValue(g, e.getValue());
        }
        g.endObject();
        g.name("warnings");
        g.startArray();
        for (String w : result.warnings()) {
            g.string(w);
        }
        g.endArray();
        if (!result.repairs().isEmpty()) {
            g.name("repairs");
            g.startObject();
            for (Map.Entry<String, long[][]> e : result.repairs().entrySet()) {
                g.name(e.getKey());
                g.startArray();
                for (long[] m : e.getValue()) {
                    g.startArray(); // {t, r, c}: local time, repaired time, reading before (RepairMoves)
                    for (long v : m) {
                        g.number(v);
                    }
                    g.endArray();
                }
                g.endArray();
            }
            g.endObject();
        }
        g.endObject();
        g.finish();
    }

    private static void writeValue(IndentedJson g, Object v) throws IOException {
        if (v instanceof Integer || v instanceof Long || v instanceof Short) {
            g.number(((Number) v).longValue());
        } else if (v instanceof Number num) {
            number(g, num.doubleValue());
        } else if (v instanceof Boolean b) {
            g.bool(b);
        } else if (v == null) {
            g.nullValue();
        } else {
            g.string(v.toString());
        }
    }

    private static void writeNode(IndentedJson g, NodeResult n) throws IOException {
        // the bound rows first (a long trace's tens of thousands: the later half on a second
        // thread), then the fields before them: the first few thousand doubles formatted run
        // interpreted until the JIT compiles Double.toString's code, and the rows share them
        // out over both threads instead of this one formatting the segments' first
        NodeBounds bounds = n.bounds();
        int rows = bounds.size();
        int mid = rows >= PARALLEL_ROWS ? rows / 2 : rows;
        RenderedRows later = mid < rows ? new RenderedRows(bounds, mid, rows) : null;
        if (later != null) {
            later.start("tracesync-result", true);
        }
        byte[] first = BoundRowsText.render(bounds, 0, mid);
        g.startObject();
        g.stringField("name", n.name());
        g.stringField("source", n.source());
        g.stringField("reference", n.reference());
        g.stringField("quality", n.quality().label());
        g.name("transform");
        g.startObject();
        g.name("segments");
        g.startArray();
        for (LinearSegment s : n.transform().segments()) {
            g.startObject();
            nullableLong(g, "from", s.from());
            nullableLong(g, "to", s.to());
            g.numberField("origin", s.origin());
            g.name("offset");
            number(g, s.offset());
            g.name("drift");
            number(g, s.drift());
            if (s.eitherFrom() != null) {
                // a step's either-side local times (docs/RESULT_FORMAT.md): only on such segments
                g.numberField("either_from", s.eitherFrom());
                g.numberField("either_to", s.eitherTo());
            }
            g.endObject();
        }
        g.endArray();
        g.endObject();
        g.name("bounds");
        g.startArray();
        g.renderedValues(first, mid);
        if (later != null) {
            g.renderedValues(later.join(), rows - mid);
        }
        g.endArray();
        g.name("path");
        g.startArray();
        for (String p : n.path()) {
            g.string(p);
        }
        g.endArray();
        g.numberField("start", n.start());
        g.numberField("end", n.end());
        g.stringField("note", n.note());
        g.endObject();
    }

    private static void writePair(IndentedJson g, PairResult p) throws IOException {
        g.startObject();
        g.stringField("a", p.a());
        g.stringField("b", p.b());
        g.stringField("quality", p.quality().label());
        g.name("messages");
        g.startObject();
        g.numberField("a_to_b", p.messagesAToB());
        g.numberField("b_to_a", p.messagesBToA());
        g.endObject();
        g.name("hull_points");
        g.startObject();
        g.numberField("a_to_b", p.hullAToB());
        g.numberField("b_to_a", p.hullBToA());
        g.endObject();
        g.name("drift");
        g.startObject();
        g.name("min");
        number(g, p.driftMin());
        g.name("max");
        number(g, p.driftMax());
        g.endObject();
        g.name("estimate");
        g.startObject();
        g.numberField("origin", p.origin());
        g.name("offset");
        number(g, p.offset());
        g.name("drift");
        number(g, p.drift());
        g.endObject();
        g.name("mean_accuracy");
        number(g, p.meanAccuracy());
        g.numberField("violations", p.violations());
        g.name("max_violation");
        number(g, p.maxViolation());
        g.stringField("note", p.note());
        if (p.pieces() > 1 || !p.steps().isEmpty()) {
            g.numberField("pieces", p.pieces());
            g.name("steps");
            g.startArray();
            for (ClockStep st : p.steps()) {
                g.startObject();
                g.numberField("at", st.at());
                g.numberField("earliest", st.earliest());
                g.numberField("latest", st.latest());
                g.name("size");
                number(g, st.size());
                g.name("size_min");
                number(g, st.sizeMin());
                g.name("size_max");
                number(g, st.sizeMax());
                g.endObject();
            }
            g.endArray();
        }
        if (p.regression() != null) {
            writeRegression(g, p.regression());
        }
        g.endObject();
    }

    /** A pair's optional {@code regression} object (docs/RESULT_FORMAT.md). */
    private static void writeRegression(IndentedJson g, RegressionStatistics r) throws IOException {
        g.name("regression");
        g.startObject();
        g.stringField("samples_from", r.samplesFrom());
        g.numberField("samples", r.samples());
        g.numberField("rejected", r.rejected());
        g.name("confidence");
        g.number(r.confidence()); // as Jackson wrote it: a non-finite level as a string ("NaN")
        g.name("residual_standard_error");
        number(g, r.residualStandardError());
        g.name("drift");
        g.startObject();
        g.name("standard_error");
        number(g, r.driftStandardError());
        g.name("interval");
        number(g, r.driftInterval());
        g.endObject();
        g.name("offset");
        g.startObject();
        g.name("standard_error");
        number(g, r.offsetStandardError());
        g.name("interval");
        number(g, r.offsetInterval());
        g.endObject();
        g.endObject();
    }

    private static void nullableLong(IndentedJson g, String field, Long v) throws IOException {
        if (v == null) {
            g.name(field);
            g.nullValue();
        } else {
            g.numberField(field, v);
        }
    }

    private static void number(IndentedJson g, double v) throws IOException {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            g.nullValue();
        } else {
            g.number(v);
        }
    }

    /** A node's bound rows are rendered in two halves, on two threads, from this many on (see writeNode). */
    static final int PARALLEL_ROWS = 8192;

    /** Bound rows [from, to) rendered by {@link BoundRowsText}, on another thread. */
    private static final class RenderedRows extends SecondThreadTask<byte[]> {
        private final NodeBounds bounds;
        private final int from;
        private final int to;

        RenderedRows(NodeBounds bounds, int from, int to) {
            this.bounds = bounds;
            this.from = from;
            this.to = to;
        }

        @Override
        protected byte[] compute() {
            return BoundRowsText.render(bounds, from, to);
        }
    }

    /** Reads a result file; every problem names the file and the offending field ({@link ResultFileReader}). */
    public static SyncResult read(Path file) throws IOException {
        return ResultFileReader.read(file);
    }
}
