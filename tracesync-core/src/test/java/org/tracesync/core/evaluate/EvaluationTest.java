package org.tracesync.core.evaluate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
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
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.transform.BoundRow;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.core.transform.ClockTransform;

class EvaluationTest {

    static final long T0 = 1_700_000_000_000_000_000L;

    /** The exact inverse of a linear true clock, as a transform onto the true (= reference) clock. */
    static ClockTransform inverse(ClockModel c, double extraOffset) {
        long origin = T0 + c.alpha();
        return ClockTransform.linear(origin, (T0 - origin) + extraOffset, 1 / (1 + c.beta()) - 1);
    }

    static SyncResult result(ClockModel[] clocks, double extraOffsetB, double boundWidth) {
        NodeBounds rows = NodeBounds.ofRows(List.of(new BoundRow(T0, boundWidth / 2, boundWidth / 2),
                new BoundRow(T0 + 10_000_000_000L, boundWidth / 2, boundWidth / 2)));
        NodeResult a = new NodeResult("a", "a", "a", Quality.REFERENCE, ClockTransform.identity(T0), NodeBounds.NONE,
                List.of("a"), T0, T0, "");
        NodeResult b = new NodeResult("b", "b", "a", Quality.ACCURATE, inverse(clocks[1], extraOffsetB), rows,
                List.of("b", "a"), T0, T0, "");
        NodeResult c = new NodeResult("c", "c", "a", Quality.ACCURATE, inverse(clocks[2], 0), rows,
                List.of("c", "a"), T0, T0, "");
        return new SyncResult("a", List.of(a, b, c), List.of(), Map.of(), List.of());
    }

    /** Simulated messages between three linear clocks; latency ≥ 50 µs. */
    static void feed(Evaluation ev, ClockModel[] clocks, long seed) {
        Random rnd = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            long t = T0 + (long) (rnd.nextDouble() * 10e9);
            int s = rnd.nextInt(3);
            int r = (s + 1 + rnd.nextInt(2)) % 3;
            long lat = 50_000 + rnd.nextInt(200_000);
            ev.messages().message(s, r, clocks[s].local(t), clocks[r].local(t + lat));
        }
        ev.broadcasts().broadcast(0, T0, new int[] {1, 2}, new long[] {
            clocks[1].local(T0 + 1_000_070_000L), clocks[2].local(T0 + 1_000_090_000L)});
    }

    static ClockModel[] clocks(long seed) {
        Random rnd = new Random(seed);
        return new ClockModel[] {new ClockModel("a", T0, 0, 0, 0),
            new ClockModel("b", T0, rnd.nextInt(1_000_000_000), (rnd.nextDouble() - 0.5) * 1e-4, 0),
            new ClockModel("c", T0, -rnd.nextInt(1_000_000_000), (rnd.nextDouble() - 0.5) * 1e-4, 0)};
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void exactTransformsGiveNoInversionZeroErrorAndContainedTruth(long seed) {
        ClockModel[] clocks = clocks(seed);
        RoundTripMinima rtt = new RoundTripMinima(3);
        rtt.set(0, 1, 100_000);
        rtt.set(1, 2, 100_000);
        rtt.set(0, 2, 100_000);
        Evaluation ev = new Evaluation(result(clocks, 0, 200), List.of("a", "b", "c"), rtt,
                truth(clocks));
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
        ClockModel[] clocks = clocks(7);
        RoundTripMinima rtt = new RoundTripMinima(3);
        rtt.set(0, 1, 100_000);
        // b's corrected times 150 µs too early: b -> x latencies grow, x -> b shrink (some negative)
        Evaluation ev = new Evaluation(result(clocks, -150_000, 200), List.of("a", "b", "c"), rtt,
                truth(clocks));
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

    /**
     * A one-way node b with a lower bound only (minus 100 ns, plus absent): only the present side
     * is checked, and those instants are counted as one-sided. Corrected times 150 µs too early
     * are on the unbounded side (contained); 150 µs too late break the present side.
     */
    @Test
    void aOneSidedBoundIsCheckedOnItsPresentSideOnlyAndCounted() {
        ClockModel[] clocks = clocks(3);
        for (double extra : new double[] {-150_000, 150_000}) {
            SyncResult two = result(clocks, extra, 200);
            NodeBounds lowerOnly = NodeBounds.ofRows(List.of(new BoundRow(T0, 100, Double.NaN),
                    new BoundRow(T0 + 10_000_000_000L, 100, Double.NaN)));
            NodeResult b = two.nodes().get(1);
            NodeResult oneWay = new NodeResult("b", "b", "a", Quality.ONE_WAY, b.transform(), lowerOnly, b.path(),
                    b.start(), b.end(), "");
            SyncResult r = new SyncResult("a", List.of(two.nodes().get(0), oneWay, two.nodes().get(2)), List.of(),
                    Map.of(), List.of());
            Evaluation ev = new Evaluation(r, List.of("a", "b", "c"), new RoundTripMinima(3), truth(clocks));
            feed(ev, clocks, 3);
            EvaluationReport.Truth t = ev.report().truth();
            long bInstants = t.oneSided();
            assertThat(bInstants).isBetween(1_000L, 1_700L); // b is an end of 2/3 of the messages, ± chance
            assertThat(t.withBounds()).isEqualTo(t.instants());
            double bShare = (double) bInstants / t.withBounds();
            if (extra < 0) {
                assertThat(t.containedShare()).isEqualTo(1.0);
            } else {
                assertThat(t.containedShare()).isCloseTo(1.0 - bShare, within(1e-9));
            }
        }
    }

    static Map<String, ClockModel> truth(ClockModel[] clocks) {
        Map<String, ClockModel> m = new HashMap<>();
        for (ClockModel c : clocks) {
            m.put(c.name(), c);
        }
        return m;
    }

    @Test
    void percentileIsNearestRank() {
        double[] v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertThat(Evaluation.percentile(v, 0.5)).isEqualTo(5);
        assertThat(Evaluation.percentile(v, 0.99)).isEqualTo(10);
        assertThat(Evaluation.percentile(new double[0], 0.5)).isNaN();
    }
}
