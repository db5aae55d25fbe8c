package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClockEvent;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClockWander;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.LatencyModel;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;
import org.tracesync.core.simulate.TruthScore;
import org.tracesync.core.transform.LinearSegment;

/**
 * Long simulated 2-node traces with clocks that are not linear (the four behaviours, at
 * the latencies: 40 µs / 50 µs minimum, 5 messages/s each way, epoch timestamps): the
 * pair becomes piecewise, no message is inverted, the transform is continuous except at the true
 * steps, which are found at their time with their size inside the reported bounds.
 */
class PiecewiseEstimatorTest {

    private static final long HOUR = 3_600_000_000_000L;
    private static final long START = SimulationConfig.DEFAULT_START;

    static SimulationConfig twoNodes(long seed, long duration, double maxDelta) {
        LatencyModel latency = new LatencyModel(40_000, 50_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, maxDelta);
        return new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START, duration, 5.0,
                false, 0, 0.0, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
    }

    /**
     * The clocks of issue #13's grid for NTP + slews ({@code LongTraceGridRun}, {@code simulate
     * --nodes 2 --ntp 1 --slews 2 --seed SEED}): NTP-like rate corrections and two slews of
     * {@code slewRate} per clock, {@code minLatency} both ways (100 µs exponential tail).
     */
    static SimulationConfig ntpSlews(long seed, long duration, double rate, long minLatency, double slewRate) {
        LatencyModel latency = new LatencyModel(minLatency, minLatency, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, 0.0);
        clocks = ClockWander.NONE.withNtp(1_024_000_000_000L, 1e-6).withSlews(2, slewRate).apply(clocks, seed, START, duration);
        return new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START, duration, rate, false, 0, 0.0,
                org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
    }

    /** {@code result} scored against {@code config}'s clocks: no message inverted, the truth inside the bounds everywhere. */
    static TruthScore.Score assertNoInversionTruthInside(SimulationConfig config, SyncResult result) {
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).as("inversions: %s", s.firstViolation()).isZero();
        assertThat(s.violations()).as(s.firstViolation()).isZero();
        return s;
    }

    static TruthScore.Score score(SimulationConfig config, SyncResult result) {
        Map<String, ClockModel> truth = config.clocks().stream().collect(Collectors.toMap(ClockModel::name, Function.identity()));
        TruthScore s = new TruthScore(result, config.names(), truth, 2.0);
        new ClusterSimulator(config).run(s);
        return s.score();
    }

    /**
     * The node's transform is continuous (up to the double rounding of a knot value) except within
     * 10 ms of a step (knots are on the node's clock, steps on the reference's) and at most
     * {@code breaks} other knots.
     */
    static void assertContinuousExceptAt(NodeResult node, List<ClockStep> steps, int breaks) {
        List<LinearSegment> segs = node.transform().segments();
        int jumps = 0;
        for (int k = 1; k < segs.size(); k++) {
            long knot = segs.get(k).from();
            double jump = segs.get(k).correction(knot) - segs.get(k - 1).correction(knot);
            long onReference = knot + Math.round(segs.get(k).correction(knot));
            boolean nearStep = steps.stream().anyMatch(s -> Math.abs(s.at() - onReference) < 10_000_000L);
            if (!nearStep && Math.abs(jump) >= 1e-3) {
                jumps++;
            }
        }
        assertThat(jumps).as("discontinuous knots away from steps").isLessThanOrEqualTo(breaks);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void quadraticDriftBecomesPiecewiseWithoutInversions(long seed) throws Exception {
        // drift changing by up to 0.5 ppm/h: over 2 h the clocks curve by far more than the corridor
        SimulationConfig config = twoNodes(seed, 2 * HOUR, 0.5e-6 / 3.6e12 / 2);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        // as few pieces as the error goal allows: about one per 10 minutes here (before: one per 75 s)
        assertThat(pair.pieces()).isBetween(2, 24);
        assertThat(pair.steps()).isEmpty();
        NodeResult node = result.nodes().get(1);
        assertThat(node.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(node.transform().segments()).hasSize(pair.pieces());
        assertContinuousExceptAt(node, List.of(), 2);
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).as("inversions: %s", s.firstViolation()).isZero();
        // the acceptance: error no larger than the minimum latency (here well under 10 µs),
        // the truth inside the bounds at >= 99.9 % of the message instants
        assertThat(s.maxError()).isLessThan(10_000);
        assertThat(s.violations()).as(s.firstViolation()).isLessThanOrEqualTo(s.checks() / 1000);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4, 5, 6, 7})
    void ntpCorrectionsAndSlewsBecomePiecewiseWithoutInversions(long seed) throws Exception {
        SimulationConfig base = twoNodes(seed, 3 * HOUR, 0.0);
        ClockWander wander = ClockWander.NONE.withNtp(1_024_000_000_000L, 1e-6).withSlews(1, 500e-6);
        SimulationConfig config = base.withClocks(wander.apply(base.clocks(), seed, START, base.duration()));
        long rateChanges = config.clocks().stream().mapToLong(c -> c.events().size()).sum();
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        // issue #13 item 2: a slew is a kink pair, not a step: no step, no break, continuous
        assertThat(pair.steps()).isEmpty();
        assertThat(pair.pieces()).isBetween(2, (int) (2 * rateChanges + 1));
        assertContinuousExceptAt(result.nodes().get(1), List.of(), 0);
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).as("inversions: %s", s.firstViolation()).isZero();
        // away from the slews the error stays under 10 µs; at a slew's corners it is as large as
        // the corridor there allows (5 messages/s each way: one every 200 ms, when a 500 ppm slew
        // moves the offset 100 µs): 9–64 µs on these seeds (main before: 183–364 µs). The issue's
        // 40 µs is not met at every slew.
        assertThat(s.maxError()).isLessThan(80_000);
        assertThat(s.violations()).as(s.firstViolation()).isLessThanOrEqualTo(s.checks() / 1000);
    }

    /**
     * Issue #13's bound at a dense rate: 30 min at 50 messages/s each way, 30 µs minimum latency
     * both ways (100 µs exponential tail), NTP-like corrections and one 500 ppm slew per clock.
     * The messages pin a slew's corners to a few µs, but a 1-s bucket's hull edge bridges a
     * corner and hid how close they come: before the sub-bucket polylines ({@link
     * org.tracesync.core.accumulate.TimeBuckets#fine}), a slew was taken for a step on seeds 1–3
     * (12–41 messages inverted before any repair) and the max error was 49–307 µs on seeds 1–4.
     * Now each slew is one kink pair: no step, no break, no inversion, and the error stays within
     * the minimum latency (1.9–10.7 µs on these seeds).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4})
    void aSlewAtFiftyMessagesPerSecondStaysWithinTheMinimumLatency(long seed) throws Exception {
        LatencyModel latency = new LatencyModel(30_000, 30_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        long duration = 30 * 60_000_000_000L;
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, 0);
        clocks = ClockWander.NONE.withNtp(1_024_000_000_000L, 1e-6).withSlews(1, 500e-6).apply(clocks, seed, START, duration);
        SimulationConfig config = new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START, duration,
                50.0, false, 0, 0.0, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.steps()).isEmpty();
        assertThat(pair.note()).contains("0 breaks");
        assertContinuousExceptAt(result.nodes().get(1), List.of(), 0);
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).as("inversions: %s", s.firstViolation()).isZero();
        assertThat(s.maxError()).isLessThanOrEqualTo(30_000);
        assertThat(s.violations()).as(s.firstViolation()).isLessThanOrEqualTo(s.checks() / 1000);
    }

    /**
     * Issue #13's acceptance grid, NTP-like corrections with two 500 ppm slews per clock, 6 h at 5
     * messages/s, 40 µs minimum latency each way (the clocks of {@code simulate --nodes 2 --ntp 1
     * --slews 2 --seed 1}): the truth stays inside the bounds at every message end. Across a slew
     * the bounds are the envelope of the bound pieces on both sides; before, the bound piece after
     * one slew ran through part of it (a tilted line fits a few messages per second) and its
     * envelope, taken for the slew's right side, held neither clock line: 99.998 % of the 432,982
     * ends inside, the first miss 62 µs outside.
     */
    @Test
    void slewBoundsComeFromTheBoundPiecesOutsideTheSlew() throws Exception {
        SimulationConfig config = ntpSlews(1, 6 * HOUR, 5.0, 40_000, 500e-6);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        assertThat(result.pairs().get(0).steps()).isEmpty();
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).isZero();
        assertThat(s.violations()).as(s.firstViolation()).isZero();
    }

    /**
     * The same behaviour at 50 messages/s over 2 h, 30 µs (seed 10): in 1 s buckets the hulls
     * hide the slews' corners, and the fit joins pieces around them with breaks, jumps no step
     * proves. Around a break the bounds are now the envelope of the bound pieces on both sides,
     * as around a slew; before, 99.985 % of the message ends were inside. The transform itself
     * does not meet the error bound here (PERFORMANCE.md, "Acceptance grid"): only the
     * bounds are asserted.
     */
    @Test
    void boundsHoldAroundABreak() throws Exception {
        SimulationConfig config = ntpSlews(10, 2 * HOUR, 50.0, 30_000, 500e-6);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        assertThat(result.pairs().get(0).note()).contains("breaks");
        TruthScore.Score s = score(config, result);
        assertThat(s.violations()).as(s.firstViolation()).isZero();
    }

    /**
     * Issue #13's acceptance grid, NTP-like corrections with two 500 ppm slews per clock, 2 h at 2
     * messages/s, 60 µs minimum latency each way (seed 1, the grid's worst case): at 2 messages/s
     * the greedy piece before b's second slew runs 1.2 s into it (a line still fits its few
     * messages there), and the slew's knots were searched only from the start of that piece's
     * last bucket, after the true corner: the chain taken followed the line before 1.2 s too long
     * and then slewed at 813 ppm, 588 µs from the truth at its first knot. The knots are now
     * searched from two buckets earlier too: 82 µs, below the 95 µs that any estimator may err by
     * there (docs/PERFORMANCE.md, "The floor at slews": chains that slew no faster than the
     * simulated 500 ppm and fit every message as well as the truth).
     */
    @Test
    void aSlewAtTwoMessagesPerSecondIsSearchedFromBeforeTheGreedyPiecesEnd() throws Exception {
        SimulationConfig config = ntpSlews(1, 2 * HOUR, 2.0, 60_000, 500e-6);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config),
                Synchronizer.Options.defaults().withReference("0")).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.steps()).isEmpty();
        TruthScore.Score s = assertNoInversionTruthInside(config, result);
        assertThat(s.maxError()).as("max error (ns)").isLessThan(95_000);
    }

    /**
     * NTP-like corrections with two 500 ppm slews per clock, 12 h at 2 messages/s, 60 µs (seed 1),
     * in 1 s buckets: a greedy bound piece of three buckets holds a single a → b hull vertex and
     * does not bound its drift. Between two pieces that do, its bounds are their envelope (as
     * across a slew); before, the whole pair fell back to {@code fallback} (86,087 messages
     * inverted, 20.6 ms of error).
     */
    @Test
    void aShortPieceThatFixesNoDriftBetweenTwoThatDoKeepsThePairPiecewise() throws Exception {
        long seed = 1;
        LatencyModel latency = new LatencyModel(60_000, 60_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, 0.0);
        clocks = ClockWander.NONE.withNtp(1_024_000_000_000L, 1e-6).withSlews(2, 500e-6).apply(clocks, seed, START, 12 * HOUR);
        SimulationConfig config = new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START, 12 * HOUR,
                2.0, false, 0, 0.0, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        assertThat(result.pairs().get(0).quality()).isEqualTo(Quality.PIECEWISE);
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).as("inversions: %s", s.firstViolation()).isZero();
        assertThat(s.violations()).as(s.firstViolation()).isLessThanOrEqualTo(s.checks() / 1000);
    }

    /**
     * Issue #13 item 1: as few pieces as the data allows. NTP-like rate corrections are kinks: a
     * piece ends soon after each kink it cannot absorb, so a continuous fit needs at most two
     * segments per rate change of either clock (the piece and the bridge into the next one), and
     * a clock whose rate does not change needs none. Before, the kinks' neighbours were cut as if
     * the clock curved there (the 6 h trace of PERFORMANCE.md: 1,865 pieces for 44 rate changes).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4, 5, 6})
    void ntpCorrectionsNeedAtMostTwoSegmentsPerRateChange(long seed) throws Exception {
        SimulationConfig base = twoNodes(seed, 3 * HOUR, 0.0);
        ClockWander wander = ClockWander.NONE.withNtp(1_024_000_000_000L, 1e-6);
        SimulationConfig config = base.withClocks(wander.apply(base.clocks(), seed, START, base.duration()));
        long rateChanges = config.clocks().stream().mapToLong(c -> c.events().size()).sum();
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.pieces()).isBetween(2, (int) (2 * rateChanges + 1));
        assertThat(pair.steps()).isEmpty();
        assertContinuousExceptAt(result.nodes().get(1), List.of(), 0);
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).as("inversions: %s", s.firstViolation()).isZero();
        // error no larger than the 40 µs minimum latency, truth inside the bounds at >= 99.9 %
        assertThat(s.maxError()).isLessThan(40_000);
        assertThat(s.violations()).as(s.firstViolation()).isLessThanOrEqualTo(s.checks() / 1000);
    }

    /**
     * Issue #13 item 3, at a unit test's size: a mesh whose every clock wanders (random walk and
     * NTP-like corrections), by path composition of the piecewise pairs. The truth stays inside
     * the bounds at >= 99.9 % of the message instants (bound pieces of at most 32 s; on the 8 h
     * 5-node mesh the longer ones of before gave 99.65 %, on these 2 h they already held), and
     * the error under the 40 µs minimum latency (before: above it on seed 3).
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {3, 8})
    void meshOfWanderingClocksKeepsTheTruthInsideTheBounds(long seed) throws Exception {
        LatencyModel latency = new LatencyModel(40_000, 50_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(4, null), START, seed,
                1_000_000_000L, 50e-6, 0.0);
        SimulationConfig base = new SimulationConfig(seed, clocks, Topology.MESH.links(4, latency), START, 2 * HOUR, 5.0,
                false, 0, 0.0, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        ClockWander wander = ClockWander.NONE.withWalk(10_000_000_000L, 0.01e-6).withNtp(1_024_000_000_000L, 1e-6);
        SimulationConfig config = base.withClocks(wander.apply(base.clocks(), seed, START, base.duration()));
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        assertThat(result.pairs()).allMatch(p -> p.quality() == Quality.PIECEWISE);
        TruthScore.Score s = score(config, result);
        assertThat(s.violations()).as(s.firstViolation()).isLessThanOrEqualTo(s.checks() / 1000);
        assertThat(s.maxError()).isLessThan(40_000);
    }

    /**
     * At 200 messages/s each way the bucket holding a step has hundreds of messages on both sides
     * of the true step; the transform is cut at one of them, so a few lie on the wrong side of
     * the cut. Their truth must still lie inside the bounds: between the last message consistent
     * with before and the first consistent with after, the bounds cover both clocks (the
     * envelope of the bound pieces on both sides). Seeds 6, 7, 8, 16, 17 and 21 had messages
     * between the cut and the true step outside the bounds before.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 6, 7, 8, 16, 17, 21})
    void boundsHoldInsideTheBucketOfAStep(long seed) throws Exception {
        LatencyModel latency = new LatencyModel(40_000, 50_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, 0.0);
        SimulationConfig base = new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START,
                20 * 60_000_000_000L, 200.0, false, 0, 0.0, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        long at = START + 10 * 60_000_000_000L + seed * 123_456_789L;
        ClockModel b = base.clocks().get(1).withEvents(List.of(ClockEvent.step(at, -2_800_000L)));
        SimulationConfig config = base.withClocks(List.of(base.clocks().get(0), b));
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        assertThat(result.pairs().get(0).steps()).hasSize(1);
        TruthScore.Score s = score(config, result);
        assertThat(s.violations()).as(s.firstViolation()).isZero();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 8})
    void stepsAreFoundAtTheirTimeWithTheirSize(long seed) throws Exception {
        SimulationConfig base = twoNodes(seed, 2 * HOUR, 0.0);
        long first = START + 30 * 60_000_000_000L;
        long second = START + 80 * 60_000_000_000L;
        ClockModel b = base.clocks().get(1).withEvents(List.of(ClockEvent.step(first, 5_000_000L),
                ClockEvent.step(second, -3_000_000L)));
        SimulationConfig config = base.withClocks(List.of(base.clocks().get(0), b));
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.steps()).hasSize(2);
        // node 0 reads true time: a-times are true times
        long[] at = {first, second};
        long[] size = {5_000_000L, -3_000_000L};
        for (int k = 0; k < 2; k++) {
            ClockStep st = pair.steps().get(k);
            assertThat(Math.abs(st.at() - at[k])).as("step %d time", k).isLessThan(1_000_000_000L);
            assertThat(st.earliest()).isLessThanOrEqualTo(at[k]);
            assertThat(st.latest()).isGreaterThanOrEqualTo(at[k]);
            assertThat(st.size()).isCloseTo(size[k], org.assertj.core.data.Offset.offset(200_000.0));
            assertThat(st.sizeMin()).isLessThanOrEqualTo(size[k]);
            assertThat(st.sizeMax()).isGreaterThanOrEqualTo(size[k]);
        }
        assertThat(result.warnings()).anyMatch(w -> w.contains("clock step") && w.contains("+5.0"));
        NodeResult node = result.nodes().get(1);
        assertContinuousExceptAt(node, pair.steps(), 0);
        TruthScore.Score s = score(config, result);
        // only messages inside the one-second buckets that hold a step can be left inverted
        assertThat(s.inversions()).isLessThanOrEqualTo(20);
        // but the bounds hold everywhere, inside those buckets too: between the last message
        // consistent with before and the first consistent with after, either clock may hold
        assertThat(s.violations()).as(s.firstViolation()).isZero();
    }

    /**
     * Issue #13's acceptance grid, steps (the clocks of {@code simulate --nodes 2 --steps 2}, 30 µs
     * minimum latency each way, 5 messages/s for 2 h, 2 messages/s for 6 h): each true step lies inside its reported
     * [earliest, latest] with its size inside the reported bounds, and away from those intervals
     * the error stays under the minimum latency. Within an interval the messages are consistent
     * with either clock, so no estimate can tell on which side of the step they fall; within the
     * step's size of it, a backward step makes b read the same local times on both sides. Before: on
     * seeds 6 and 7 a step's earliest was the last hull vertex of the piece before, after the
     * true step; the cut sat at the start of the interval, up to 0.9 s before the step (4.3 ms
     * of error at the messages in between, on seed 1); at 2 messages/s the piece before a 4.1 ms
     * backward step was too short to bound its drift, so the jump was called a break, not a step.
     */
    @ParameterizedTest(name = "seed {0}, {1} messages/s, {2} h")
    @org.junit.jupiter.params.provider.CsvSource({"1, 5, 2", "2, 5, 2", "6, 5, 2", "7, 5, 2", "1, 2, 6"})
    void stepsLieInsideTheirIntervalsAndTheErrorOutsideStaysUnderTheMinimumLatency(long seed, double rate, long hours)
            throws Exception {
        LatencyModel latency = new LatencyModel(30_000, 30_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, 0.0);
        clocks = ClockWander.NONE.withSteps(2, 5_000_000L).apply(clocks, seed, START, hours * HOUR);
        SimulationConfig config = new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START,
                hours * HOUR, rate, false, 0, 0.0, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        PairResult pair = result.pairs().get(0);
        List<ClockEvent> truth = config.clocks().get(1).steps();
        assertThat(pair.steps()).hasSize(truth.size());
        for (int k = 0; k < truth.size(); k++) {
            ClockStep st = pair.steps().get(k);
            ClockEvent e = truth.get(k); // node 0 reads true time: a-times are true times
            assertThat(e.at()).as("step %d: %s", k, st).isBetween(st.earliest(), st.latest());
            assertThat((double) e.step()).as("step %d size: %s", k, st).isBetween(st.sizeMin(), st.sizeMax());
        }
        NodeResult node = result.nodes().get(1);
        ClockModel a = config.clocks().get(0);
        ClockModel b = config.clocks().get(1);
        double[] worst = new double[1];
        new ClusterSimulator(config).run(new org.tracesync.core.simulate.SimulationSink() {
            @Override
            public void message(int sender, int receiver, long sendTime, long recvTime) {
                long t = sender == 1 ? sendTime : recvTime; // the end on b
                long onA = b.trueTime(t);
                // inside a step's interval, or within its size of it (after a backward step the
                // clock reads those local times twice): either side may hold
                if (pair.steps().stream().anyMatch(st -> onA >= st.earliest() - Math.abs(st.size())
                        && onA <= st.latest() + Math.abs(st.size()))) {
                    return;
                }
                double error = (double) (a.local(onA) - t) - node.transform().correction(t);
                worst[0] = Math.max(worst[0], Math.abs(error));
            }
        });
        assertThat(worst[0]).isLessThanOrEqualTo(30_000);
        TruthScore.Score s = score(config, result);
        assertThat(s.violations()).as(s.firstViolation()).isZero();
    }

    /**
     * Issue #13's acceptance grid, steps, 12 h at 2 messages/s and 30 µs (seed 3's clocks), cut to
     * 20 minutes around one more −3 ms step of b's clock at 42,600 s: a short transform piece
     * whose own few messages fix its drift poorly continues its left neighbour's line instead of
     * taking its region's bisector. Before, with message seed 7 the last piece (12 s) took a drift
     * 7 ppm off and erred by 77.0 µs at the trace's last second; with message seed 2 a 3.2-s piece
     * before the step took one 11 ppm off, 30.8 µs (the grid's seed 2 and 3 failures, at
     * 20 minutes instead of 12 h). Away from the step's interval the error stays under the
     * minimum latency, the step is found, no message is inverted and the bounds hold.
     */
    @ParameterizedTest(name = "message seed {0}")
    @ValueSource(longs = {7, 2})
    void aShortPieceWithFewMessagesContinuesItsNeighboursLine(long messageSeed) throws Exception {
        long seed = 3;
        LatencyModel latency = new LatencyModel(30_000, 30_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, 0.0);
        clocks = ClockWander.NONE.withSteps(2, 5_000_000L).apply(clocks, seed, START, 12 * HOUR);
        long stepAt = START + 42_600_000_000_000L;
        clocks = List.of(clocks.get(0), clocks.get(1).withEvents(List.of(ClockEvent.step(stepAt, -3_000_000L))));
        SimulationConfig config = new SimulationConfig(messageSeed, clocks, Topology.CHAIN.links(2, latency),
                START + 42_000_000_000_000L, 1_200_000_000_000L, 2.0, false, 0, 0.0,
                org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.steps()).hasSize(1);
        ClockStep st = pair.steps().get(0);
        assertThat(stepAt).isBetween(st.earliest(), st.latest()); // node 0 reads true time
        NodeResult node = result.nodes().get(1);
        ClockModel a = config.clocks().get(0);
        ClockModel b = config.clocks().get(1);
        double[] worst = new double[1];
        new ClusterSimulator(config).run(new org.tracesync.core.simulate.SimulationSink() {
            @Override
            public void message(int sender, int receiver, long sendTime, long recvTime) {
                long t = sender == 1 ? sendTime : recvTime; // the end on b
                long onA = b.trueTime(t);
                if (onA >= st.earliest() - Math.abs(st.size()) && onA <= st.latest() + Math.abs(st.size())) {
                    return; // either side of the step may hold
                }
                double error = (double) (a.local(onA) - t) - node.transform().correction(t);
                worst[0] = Math.max(worst[0], Math.abs(error));
            }
        });
        assertThat(worst[0]).isLessThanOrEqualTo(15_000);
        TruthScore.Score s = score(config, result);
        assertThat(s.inversions()).as("inversions: %s", s.firstViolation()).isZero();
        assertThat(s.violations()).as(s.firstViolation()).isZero();
    }

    /**
     * A kinked pair (b's drift changes by 40–80 ppm halfway) whose last quarter is one-way: chains
     * a → b → a → b → a, 0.5–4.5 ms apart, then a → b only. The greedy piece after the kink runs
     * into the one-way stretch (a one-way bucket narrows no corridor); cut into bound pieces of
     * at most {@link PiecewiseEstimator#MAX_BOUND_SPAN}, its one-way runs fit no line on their own
     * and join the two-way run before them. Before: "samples must increase" (the whole piece was
     * appended after its own first runs). The bounds hold at every message end, the one-way
     * stretch included, and no message is inverted.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {31, 32, 33, 34})
    void aOneWayTailInsideABoundPieceKeepsTheBoundsStrict(long seed) throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        long alpha = r.nextLong(-2_000_000_000L, 2_000_000_000L);
        double beta1 = r.nextDouble(-50e-6, 50e-6);
        double change = (r.nextBoolean() ? 1 : -1) * r.nextDouble(40e-6, 80e-6);
        int chains = 8_000;
        long kink = START + chains * 1_000_000L; // about halfway
        ClockModel a = ClockModel.perfect("a", START);
        ClockModel b = new ClockModel("b", START, alpha, beta1, 0.0, List.of(ClockEvent.rateChange(kink, change)));
        // the messages: {sender, receiver, true send time, true receive time}
        List<long[]> messages = new java.util.ArrayList<>();
        long t = START;
        for (int s = 0; s < chains; s++) {
            t += 500_000 + r.nextLong(4_000_000);
            int hops = s < chains * 3 / 4 ? 4 : 1;
            long sent = t;
            for (int k = 0; k < hops; k++) {
                long received = sent + 30_000 + Math.round(-25_000 * Math.log(1 - r.nextDouble()));
                messages.add(new long[] {k % 2, 1 - k % 2, sent, received});
                sent = received;
            }
        }
        List<ClockModel> clocks = List.of(a, b);
        MessageInput input = new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return List.of(new NodeInfo("a", "sim"), new NodeInfo("b", "sim"));
            }

            @Override
            public void readMessages(MessageSink sink) {
                for (long[] m : messages) {
                    sink.message((int) m[0], (int) m[1], clocks.get((int) m[0]).local(m[2]), clocks.get((int) m[1]).local(m[3]));
                }
            }
        };
        SyncResult result = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("a")).result();
        PairResult pair = result.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        NodeResult node = result.nodes().get(1);
        assertThat(node.bounds().isEmpty()).isFalse();
        TruthScore s = new TruthScore(result, List.of("a", "b"), Map.of("a", a, "b", b), 2.0);
        input.readMessages(s);
        TruthScore.Score score = s.score();
        assertThat(score.checks()).isEqualTo(messages.size()); // every end on b is checked
        assertThat(score.inversions()).as("inversions: %s", score.firstViolation()).isZero();
        assertThat(score.violations()).as(score.firstViolation()).isZero();
    }

    @Test
    void linearClocksKeepOneSegment() throws Exception {
        SimulationConfig config = twoNodes(9, HOUR, 0.0);
        SyncResult result = Synchronizer.synchronize(ClusterSimulator.input(config), Synchronizer.Options.defaults()).result();
        assertThat(result.pairs().get(0).quality()).isEqualTo(Quality.ACCURATE);
        assertThat(result.pairs().get(0).pieces()).isEqualTo(1);
        assertThat(result.nodes().get(1).transform().isLinear()).isTrue();
        TruthScore.Score s = score(config, result);
        assertThat(s.holds()).as(s.firstViolation()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void lastAtOrBeforeFindsWhatAScanOfTheCutsFinds(long seed) {
        // the bounds' slew zones find the bound piece holding a time by this search over the
        // pieces' ascending cuts (equal cuts included) instead of a scan of every piece
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        long[] cuts = new long[1 + r.nextInt(40)];
        for (int k = 0; k < cuts.length; k++) {
            cuts[k] = (k == 0 ? -50 : cuts[k - 1]) + r.nextInt(0, 4);
        }
        for (long t = cuts[0] - 3; t <= cuts[cuts.length - 1] + 3; t++) {
            int scanned = -1;
            for (int k = 0; k < cuts.length; k++) {
                if (cuts[k] <= t) {
                    scanned = k;
                }
            }
            assertThat(PiecewiseEstimator.lastAtOrBefore(cuts, t)).as("t = %d", t).isEqualTo(scanned);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void theSlewSearchsVertexOrderIsTheStableSortsOrder(long seed) {
        // orderByU merges each bucket's two ascending runs; whatever the runs, the order must be
        // the one a stable sort by u gives (equal u in list order), which the search was built on
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        List<org.tracesync.core.accumulate.TimeBuckets.Bucket> b = new java.util.ArrayList<>();
        long t = 0;
        for (int z = 0; z < 12; z++) {
            long[][] runs = new long[2][];
            for (int side = 0; side < 2; side++) {
                long[] us = new long[r.nextInt(0, 6)];
                long at = t;
                for (int m = 0; m < us.length; m++) {
                    at += r.nextInt(0, 3); // repeats too
                    us[m] = at;
                }
                if (seed >= 5 && us.length > 1 && r.nextInt(4) == 0) {
                    long swap = us[0]; // a run that does not ascend: the sort's fallback
                    us[0] = us[us.length - 1];
                    us[us.length - 1] = swap;
                }
                runs[side] = us;
            }
            t += 6 + r.nextInt(0, 2) * (seed % 2 == 0 ? -3 : 0); // buckets that may overlap
            b.add(new org.tracesync.core.accumulate.TimeBuckets.Bucket(z, runs[0], runs[0].clone(), runs[1], runs[1].clone()));
        }
        int zf = r.nextInt(0, 4);
        int zt = zf + r.nextInt(0, 8);
        java.util.List<Long> listed = new java.util.ArrayList<>();
        for (int z = zf; z <= zt; z++) {
            for (long u : b.get(z).pu()) {
                listed.add(u);
            }
            for (long u : b.get(z).qu()) {
                listed.add(u);
            }
        }
        long[] u = listed.stream().mapToLong(Long::longValue).toArray();
        Integer[] stable = new Integer[u.length];
        for (int i = 0; i < u.length; i++) {
            stable[i] = i;
        }
        java.util.Arrays.sort(stable, (x, y) -> Long.compare(u[x], u[y]));
        assertThat(PiecewiseEstimator.orderByU(b, zf, zt, u)).containsExactly(
                java.util.Arrays.stream(stable).mapToInt(Integer::intValue).toArray());
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void zonesAreSortedByTheirStartStably(long seed) {
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        List<long[]> zones = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            zones.add(new long[] {r.nextInt(0, 10), i});
        }
        List<long[]> expected = new java.util.ArrayList<>(zones);
        expected.sort(java.util.Comparator.comparingLong(z -> z[0]));
        PiecewiseEstimator.sortByStart(zones);
        assertThat(zones).containsExactlyElementsOf(expected);
    }
}
