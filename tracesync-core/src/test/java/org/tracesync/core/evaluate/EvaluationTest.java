package org.tracesync.core.evaluate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.ClockTransform;

class EvaluationTest {

    static final long T0 = 1_700_000_000_000_000_000L;

    /** The exact inverse of a linear true clock, as a transform onto the true (= reference) clock. */
    static ClockTransform inverse(TrueClock c, double extraOffset) {
        long origin = T0 + Math.round(c.alpha());
        return ClockTransform.linear(origin, (T0 - origin) + extraOffset, 1 / (1 + c.beta()) - 1);
    }

    static SyncResult result(TrueClock[] clocks, double extraOffsetB, double boundWidth) {
        List<BoundRow> rows = List.of(new BoundRow(T0, boundWidth / 2, boundWidth / 2),
                new BoundRow(T0 + 10_000_000_000L, boundWidth / 2, boundWidth / 2));
        NodeResult a = new NodeResult("a", "a", "a", Quality.REFERENCE, ClockTransform.identity(T0), List.of(),
                List.of("a"), T0, T0, "");
        NodeResult b = new NodeResult("b", "b", "a", Quality.ACCURATE, inverse(clocks[1], extraOffsetB), rows,
                List.of("b", "a"), T0, T0, "");
        NodeResult c = new NodeResult("c", "c", "a", Quality.ACCURATE, inverse(clocks[2], 0), rows,
                List.of("c", "a"), T0, T0, "");
        return new SyncResult("a", List.of(a, b, c), List.of(), Map.of(), List.of());
    }

    /** Simulated messages between three linear clocks; latency ≥ 50 µs. */
    static void feed(Evaluation ev, TrueClock[] clocks, long seed) {
        Random rnd = new Random(seed);
        TruthModel truth = new TruthModel(T0, List.of(clocks));
        for (int i = 0; i < 2_000; i++) {
            double u = rnd.nextDouble() * 10e9;
            int s = rnd.nextInt(3);
            int r = (s + 1 + rnd.nextInt(2)) % 3;
            double lat = 50_000 + rnd.nextInt(200_000);
            long ts = T0 + Math.round(clocks[s].localRelative(u));
            long tr = T0 + Math.round(clocks[r].localRelative(u + lat));
            ev.messages().message(s, r, ts, tr);
        }
        ev.broadcasts().broadcast(0, T0, new int[] {1, 2}, new long[] {
            T0 + Math.round(clocks[1].localRelative(1e9 + 70_000)), T0 + Math.round(clocks[2].localRelative(1e9 + 90_000))});
        assertThat(truth.clocks()).hasSize(3);
    }

    static TrueClock[] clocks(long seed) {
        Random rnd = new Random(seed);
        return new TrueClock[] {new TrueClock("a", 0, 0, 0),
            new TrueClock("b", rnd.nextInt(1_000_000_000), (rnd.nextDouble() - 0.5) * 1e-4, 0),
            new TrueClock("c", -rnd.nextInt(1_000_000_000), (rnd.nextDouble() - 0.5) * 1e-4, 0)};
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void exactTransformsGiveNoInversionZeroErrorAndContainedTruth(long seed) {
        TrueClock[] clocks = clocks(seed);
        RoundTripMinima rtt = new RoundTripMinima(3);
        rtt.set(0, 1, 100_000);
        rtt.set(1, 2, 100_000);
        rtt.set(0, 2, 100_000);
        Evaluation ev = new Evaluation(result(clocks, 0, 200), List.of("a", "b", "c"), rtt,
                new TruthModel(T0, List.of(clocks)));
        feed(ev, clocks, seed);
        EvaluationReport rep = ev.report();
        assertThat(rep.messages()).isEqualTo(2_000);
        assertThat(rep.inversions()).isZero();
        assertThat(rep.tooFast()).isZero();
        assertThat(rep.truth().maxError()).isLessThan(2.0);
        assertThat(rep.truth().containedShare()).isEqualTo(1.0);
        assertThat(rep.truth().instants()).isGreaterThan(2_000);
        // a-b messages: width of b only; b-c: both widths
        assertThat(rep.directions()).filteredOn(d -> d.sender().equals("a") && d.receiver().equals("b"))
                .singleElement().satisfies(d -> assertThat(d.accuracy().mean()).isCloseTo(200, within(1e-6)));
        assertThat(rep.directions()).filteredOn(d -> d.sender().equals("b") && d.receiver().equals("c"))
                .singleElement().satisfies(d -> {
                    assertThat(d.accuracy().mean()).isCloseTo(400, within(1e-6));
                    assertThat(d.smallestLatency()).isBetween(49_998L, 60_000L);
                    assertThat(d.minimumLatency()).isEqualTo(50_000);
                });
        assertThat(rep.broadcasts().groups()).isEqualTo(1);
        assertThat(rep.broadcasts().maxSpread()).isCloseTo(20_000, within(2.0));
    }

    @Test
    void anOffsetErrorShowsAsInversionsTooFastAndError() {
        TrueClock[] clocks = clocks(7);
        RoundTripMinima rtt = new RoundTripMinima(3);
        rtt.set(0, 1, 100_000);
        // b's corrected times 150 µs too early: b -> x latencies grow, x -> b shrink (some negative)
        Evaluation ev = new Evaluation(result(clocks, -150_000, 200), List.of("a", "b", "c"), rtt,
                new TruthModel(T0, List.of(clocks)));
        feed(ev, clocks, 7);
        EvaluationReport rep = ev.report();
        assertThat(rep.inversions()).isPositive();
        assertThat(rep.directions()).filteredOn(d -> d.sender().equals("b")).allSatisfy(d ->
                assertThat(d.inversions()).isZero());
        assertThat(rep.directions()).filteredOn(d -> d.sender().equals("a") && d.receiver().equals("b"))
                .singleElement().satisfies(d -> assertThat(d.inversions() + d.tooFast()).isPositive());
        assertThat(rep.truth().maxError()).isCloseTo(150_000, within(2.0));
        assertThat(rep.truth().containedShare()).isLessThan(0.6);
    }

    @Test
    void nonLinearTruthIsInvertedExactly() {
        TrueClock c = new TrueClock("q", 12_345.0, 3e-5, 2e-13);
        for (double u : new double[] {0, 1e9, 3.7e12, -5e11}) {
            assertThat(c.trueRelative(c.localRelative(u))).isCloseTo(u, within(1e-3));
        }
    }

    @Test
    void percentileIsNearestRank() {
        double[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(Evaluation.percentile(v, 0.5)).isEqualTo(5);
        assertThat(Evaluation.percentile(v, 0.99)).isEqualTo(10);
        assertThat(Evaluation.percentile(new double[0], 0.5)).isNaN();
    }
}
