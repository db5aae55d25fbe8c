package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;

/**
 * Span readers of a result around a clock step (issue #13 item 4): host b's clock reads a's + 1 s
 * and steps back by 4 ms at a-time C; the messages place the step within [C − 50 ms, C + 30 ms].
 * An event of b there has two readings; its local time alone cannot tell which is its own, its
 * position can (for a constraint, its other end: {@link org.tracesync.core.transform.MessageEnds}).
 */
class SpansAroundAStepTest {

    static final long C = 1_700_000_100_000_000_000L; // the step, on a's clock (the reference)
    static final long MS = 1_000_000L;

    /** b's transform onto a: the inverse of a → b (b = a + 1 s, back 4 ms at C), with the either-side times. */
    static ClockTransform bOntoA() {
        return new ClockTransform(List.of(new LinearSegment(null, C, C, 1e9, 0),
                new LinearSegment(C, null, C, 1e9 - 4 * MS, 0, C - 50 * MS, C + 30 * MS + 1))).inverse();
    }

    static SyncResult result() {
        return result("a", "b");
    }

    static SyncResult result(String nameA, String nameB) {
        NodeResult a = new NodeResult(nameA, "spans.json", nameA, Quality.REFERENCE, ClockTransform.identity(C),
                NodeBounds.NONE, List.of(), C - 1_000 * MS, C + 1_000 * MS, "");
        NodeResult b = new NodeResult(nameB, "spans.json", nameA, Quality.PIECEWISE, bOntoA(), NodeBounds.NONE,
                List.of(nameB, nameA), C - 1_000 * MS, C + 1_000 * MS, "");
        return new SyncResult(nameA, List.of(a, b), List.of(), Map.of(), List.of());
    }

    @TempDir
    Path dir;

    /** A Zipkin span (times in ms after C on its host's clock, given in µs). */
    private static String span(String trace, String id, String parent, String kind, long startUs, long durationUs,
                               String ip, long... annotationsUs) {
        StringBuilder a = new StringBuilder();
        for (long t : annotationsUs) {
            a.append(a.length() == 0 ? "" : ",").append("{\"timestamp\":").append(C / 1000 + t).append(",\"value\":\"x\"}");
        }
        return "{\"traceId\":\"" + trace + "\",\"id\":\"" + id + "\"" + (parent == null ? "" : ",\"parentId\":\"" + parent + "\"")
                + ",\"kind\":\"" + kind + "\",\"timestamp\":" + (C / 1000 + startUs) + ",\"duration\":" + durationUs
                + ",\"localEndpoint\":{\"serviceName\":\"s\",\"ipv4\":\"" + ip + "\"}"
                + (annotationsUs.length == 0 ? "" : ",\"annotations\":[" + a + "]") + "}";
    }

    @Test
    void applyPlacesASpanAroundAStepByItsCallerAndKeepsTheRestOfTheSpanOnThatSide() throws Exception {
        String a = "10.0.0.1";
        String b = "10.0.0.2";
        Path file = dir.resolve("spans.json");
        Files.writeString(file, "[" + String.join(",",
                // inside the step's interval, below the cut: b's server started after the step (its
                // client started at C − 8 ms; before the step b-time C + 990 ms reads C − 10 ms, after
                // it C − 6 ms), logged at C + 993 ms and ended at C + 995 ms, before its client
                span("00000000000000a1", "0000000000000001", null, "CLIENT", -8_000, 20_000, a),
                span("00000000000000a1", "0000000000000002", "0000000000000001", "SERVER", 990_000, 5_000, b, 993_000),
                // read twice after the step: b's server started at b-time C + 997 ms before the step
                // (C − 3 ms; after it would read C + 1 ms), its client having started at C − 4 ms,
                // and ended at C + 999 ms (C − 1 ms), before its client ended at C + 0.5 ms
                span("00000000000000a2", "0000000000000003", null, "CLIENT", -4_000, 4_500, a),
                span("00000000000000a2", "0000000000000004", "0000000000000003", "SERVER", 997_000, 2_000, b, 998_000)) + "]");
        SyncResult result = result(a, b);
        SpanOptions options = SpanOptions.defaults();

        Path out = dir.resolve("out.json");
        new SpanRewriter(file, options, SpanCorrection.forResult(result, SpanFiles.open(List.of(file), options))).write(out);
        JsonNode spans = new ObjectMapper().readTree(out.toFile());
        // µs after C on a's clock: start, duration, annotation
        assertThat(relative(spans.get(1))).containsExactly(-6_000L, 5_000L, -3_000L);
        assertThat(relative(spans.get(3))).containsExactly(-3_000L, 2_000L, -2_000L);
        assertThat(spans.get(1).path("tags").path("tracesync.shift_ns").asLong()).isEqualTo(-996 * MS);
        assertThat(spans.get(3).path("tags").path("tracesync.shift_ns").asLong()).isEqualTo(-1_000 * MS);

        // by local time alone, the first server started before its client, the second ended after its
        Path alone = dir.resolve("alone.json");
        new SpanRewriter(file, options, host -> new SpanCorrection(result.node(host))).write(alone);
        JsonNode byLocalTime = new ObjectMapper().readTree(alone.toFile());
        assertThat(relative(byLocalTime.get(1))).containsExactly(-10_000L, 5_000L, -7_000L);
        assertThat(relative(byLocalTime.get(3))).containsExactly(1_000L, 2_000L, 2_000L);
    }

    /** {start, duration, first annotation} of a corrected Zipkin span, µs after C. */
    private static long[] relative(JsonNode span) {
        return new long[] {span.get("timestamp").asLong() - C / 1000, span.get("duration").asLong(),
                span.path("annotations").get(0).get("timestamp").asLong() - C / 1000};
    }

    @Test
    void aConstraintWhoseEndLiesInsideTheStepsIntervalIsJudgedByTheReadingOfItsSide() {
        // b's server span started at b-time C + 990 ms: before the step that reads a-time C − 10 ms,
        // after it C − 6 ms; local time alone takes the line before (the cut is at C + 996 ms).
        // Its client started on a at C − 8 ms: the start came after the step, and is not inverted.
        SpanViolations v = new SpanViolations(List.of("a", "b"), result());
        v.constraint(ConstraintSink.Kind.CALL_START, 0, 1, C - 8 * MS, C + 990 * MS, 1_000, 0, 1);
        // b's server span ended at b-time C + 998 ms, read twice: a-time C − 2 ms before the step,
        // C + 2 ms after; local time alone takes after. Its client ended on a at C − 1 ms: the end
        // came before the step, and is not inverted either.
        v.constraint(ConstraintSink.Kind.CALL_END, 1, 0, C + 998 * MS, C - MS, 1_000, 0, 1);
        assertThat(v.totalAfter()).isZero();
        assertThat(v.totalWithinResolution()).isZero();
        // one neither reading keeps forward is still counted (a-time C − 20 ms: both readings later)
        v.constraint(ConstraintSink.Kind.CALL_START, 0, 1, C - 5 * MS, C + 985 * MS, 1_000, 0, 1);
        assertThat(v.totalAfter()).isEqualTo(1);
    }

    /**
     * A group tied to the others one way only is shifted as a whole: its member whose clock
     * stepped keeps the step's either-side times (before, the shift dropped them, and the readers
     * above fell back to the local time alone there).
     */
    @Test
    void aGroupAttachedOneWayKeepsItsStepsEitherSideTimes() throws Exception {
        // hosts: 10.0.0.1 and 10.0.0.3 (the larger group, reference .1), 10.0.0.2 and 10.0.0.4 (a
        // group of two, reference .4, .2 stepping as b above); .1 produces, .2 consumes
        Path file = dir.resolve("oneway.json");
        Files.writeString(file, "[" + String.join(",",
                span("00000000000000b1", "0000000000000011", null, "PRODUCER", -500_000, 10, "10.0.0.1"),
                span("00000000000000b1", "0000000000000012", "0000000000000011", "CONSUMER", 600_000, 10, "10.0.0.2"),
                span("00000000000000b2", "0000000000000013", null, "CLIENT", -400_000, 100, "10.0.0.1"),
                span("00000000000000b2", "0000000000000014", "0000000000000013", "SERVER", -399_950, 10, "10.0.0.3"),
                span("00000000000000b3", "0000000000000015", null, "CLIENT", 1_500_000, 100, "10.0.0.2"),
                span("00000000000000b3", "0000000000000016", "0000000000000015", "SERVER", 496_050, 10, "10.0.0.4"))
                + "]");
        SyncResult two = result("10.0.0.4", "10.0.0.2");
        NodeResult one = new NodeResult("10.0.0.1", "spans.json", "10.0.0.1", Quality.REFERENCE, ClockTransform.identity(C),
                NodeBounds.NONE, List.of(), C - 1_000 * MS, C + 1_000 * MS, "");
        NodeResult three = new NodeResult("10.0.0.3", "spans.json", "10.0.0.1", Quality.ACCURATE, ClockTransform.identity(C),
                NodeBounds.NONE, List.of("10.0.0.3", "10.0.0.1"), C - 1_000 * MS, C + 1_000 * MS, "");
        SyncResult result = new SyncResult("10.0.0.1", List.of(one, three, two.nodes().get(0), two.nodes().get(1)),
                List.of(), Map.of(), List.of());
        SyncResult attached = OneWayAttachment.attach(result,
                new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults())));
        NodeResult b = attached.node("10.0.0.2");
        assertThat(b.reference()).isEqualTo("10.0.0.1");
        assertThat(b.quality()).isEqualTo(Quality.ONE_WAY);
        LinearSegment after = b.transform().segments().get(1);
        assertThat(after.eitherFrom()).isEqualTo(bOntoA().segments().get(1).eitherFrom());
        assertThat(after.eitherTo()).isEqualTo(bOntoA().segments().get(1).eitherTo());
        assertThat(b.transform().hasTwoReadings()).isTrue();
    }

    /**
     * The constant-offset refit is for linear fits whose slope a few spans left undetermined: a
     * piecewise transform (here b's step, and a 700 ppm slew piece after it, which a slew may have)
     * comes from data enough to see its clock bend, and a constant offset would undo its step.
     */
    @Test
    void theConstantOffsetRefitLeavesAPiecewiseTransformWithAStepAlone() throws Exception {
        Path file = dir.resolve("refit.json");
        Files.writeString(file, "[" + String.join(",",
                span("00000000000000c1", "0000000000000021", null, "CLIENT", -8_000, 20_000, "10.0.0.1"),
                span("00000000000000c1", "0000000000000022", "0000000000000021", "SERVER", 990_000, 5_000, "10.0.0.2"))
                + "]");
        ClockTransform stepped = bOntoA();
        LinearSegment last = stepped.segments().get(1);
        long slew = last.from() + 100 * MS;
        ClockTransform withSlew = new ClockTransform(List.of(stepped.segments().get(0),
                new LinearSegment(last.from(), slew, last.origin(), last.offset(), last.drift(), last.eitherFrom(), last.eitherTo()),
                new LinearSegment(slew, null, slew, last.correction(slew), 7e-4)));
        SyncResult r = result("10.0.0.1", "10.0.0.2");
        NodeResult b = r.nodes().get(1);
        SyncResult piecewise = new SyncResult(r.reference(), List.of(r.nodes().get(0), new NodeResult(b.name(), b.source(),
                b.reference(), b.quality(), withSlew, b.bounds(), b.path(), b.start(), b.end(), b.note())), List.of(), Map.of(),
                List.of());
        SyncResult refitted = OffsetOnlyFit.refitImplausible(piecewise,
                new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults())));
        assertThat(refitted.node("10.0.0.2").transform()).isEqualTo(withSlew);
        assertThat(refitted.stats()).doesNotContainKey("spans_offset_only_hosts");
    }
}
