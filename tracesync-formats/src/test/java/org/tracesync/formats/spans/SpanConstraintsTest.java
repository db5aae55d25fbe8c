package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The bounded pending tables: what is paired in any order, and exactly what is dropped when they are full. */
class SpanConstraintsTest {

    private static SpanRecord span(long trace, long id, long parent, SpanKind kind, int host, long start, long end) {
        SpanRecord r = new SpanRecord();
        r.clear();
        r.traceLo = trace;
        r.spanId = id;
        r.parentId = parent;
        r.hasParent = parent != 0;
        r.kind = kind;
        r.host = host;
        r.start = start;
        r.end = end;
        r.resolution = 1;
        return r;
    }

    @Test
    void waitingCalleesBeyondTheCapacityAreDroppedOldestFirst() {
        List<long[]> seen = new ArrayList<>();
        SpanConstraints c = new SpanConstraints(16, (k, f, t, ft, tt, res, hi, lo) -> seen.add(new long[] {f, t, ft, tt}));
        for (int i = 1; i <= 40; i++) { // 40 servers whose clients come later
            c.span(span(i, 1000 + i, i, SpanKind.SERVER, 1, 10_000 + i, 20_000 + i));
        }
        for (int i = 1; i <= 40; i++) {
            c.span(span(i, i, 0, SpanKind.CLIENT, 0, 9_000 + i, 30_000 + i));
        }
        c.finish();
        SpanConstraints.Counts n = c.counts();
        assertThat(n.droppedCallees()).isEqualTo(24); // the 24 oldest waiting servers
        assertThat(n.pairs()).isEqualTo(16); // the 16 newest found their client
        assertThat(n.unmatchedCallees()).isZero();
        assertThat(seen).hasSize(32); // start and end constraint for each
        assertThat(seen.get(0)).containsExactly(0, 1, 9_025, 10_025); // trace 25 is the oldest kept
    }

    @Test
    void callersAreForgottenAfterCapacityNewerCallers() {
        SpanConstraints c = new SpanConstraints(16, (k, f, t, ft, tt, res, hi, lo) -> { });
        for (int i = 1; i <= 17; i++) {
            c.span(span(i, i, 0, SpanKind.PRODUCER, 0, 1_000, 1_010));
        }
        c.span(span(1, 100, 1, SpanKind.CONSUMER, 1, 1_500, 1_600)); // its producer was the 17th caller back
        c.span(span(2, 101, 2, SpanKind.CONSUMER, 1, 1_500, 1_600)); // still kept
        c.finish();
        assertThat(c.counts().droppedCallers()).isEqualTo(1);
        assertThat(c.counts().pairs()).isEqualTo(1);
        assertThat(c.counts().unmatchedCallees()).isEqualTo(1);
    }

    /** In any order within the capacity, every pair is found exactly once: a seeded shuffle of simulated traces. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void anyOrderWithinTheCapacityFindsEveryPair(long seed) {
        ShopSimulation sim = new ShopSimulation(ShopSimulation.Config.defaults(seed));
        List<SpanRecord> all = new ArrayList<>();
        for (int t = 0; t < 200; t++) {
            for (SimulatedSpan s : sim.nextTrace()) {
                SpanRecord r = span(s.traceLo(), s.spanId(), s.parentId(), s.kind(), ShopSimulation.hostOf(s.service()),
                        s.start(), s.end());
                r.traceHi = s.traceHi();
                all.add(r);
            }
        }
        java.util.Collections.shuffle(all, new java.util.Random(new SplittableRandom(seed).nextLong()));
        long[] constraints = {0};
        SpanConstraints c = new SpanConstraints(4096, (k, f, t, ft, tt, res, hi, lo) -> constraints[0]++);
        all.forEach(c::span);
        c.finish();
        assertThat(c.counts().pairs()).isEqualTo(200L * 4); // 3 calls and 1 message per trace
        assertThat(c.counts().droppedCallees()).isZero();
        assertThat(c.counts().unmatchedCallees()).isZero();
        assertThat(constraints[0]).isEqualTo(200L * 7 - c.counts().endsSkipped());
    }
}
