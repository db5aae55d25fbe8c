package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.accumulate.HalfHull;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClockWander;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.LatencyModel;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;

/**
 * A long pair whose hulls already cross over its first minutes is estimated without deriving its
 * whole hulls from the sub-buckets ({@link ConvexHullEstimator#estimate}: the prefix test stops
 * the derivation, and the piecewise fit builds the whole hulls from its blocks): the estimate is
 * the one of deriving them first (the path before), field for field, and the accumulator's hulls
 * are the derived ones.
 */
class PrefixCrossingTest {

    private static final long HOUR = 3_600_000_000_000L;
    private static final long START = SimulationConfig.DEFAULT_START;

    /**
     * Two nodes, 2 h at 5 messages/s each way; with {@code walk} > 0, clocks whose rate walks by
     * that much every 10 s, with NTP-like corrections (else linear clocks).
     */
    private static SimulationConfig wandering(long seed, double walk) {
        LatencyModel latency = new LatencyModel(40_000, 50_000, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, 0.0);
        SimulationConfig base = new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START, 2 * HOUR, 5.0,
                false, 0, 0.0, org.tracesync.core.simulate.KeyKind.MESSAGE_ID);
        if (walk == 0) {
            return base;
        }
        ClockWander wander = ClockWander.NONE.withWalk(10_000_000_000L, walk).withNtp(1_024_000_000_000L, 1e-6);
        return base.withClocks(wander.apply(base.clocks(), seed, START, base.duration()));
    }

    private static PairAccumulator pair(SimulationConfig config) throws Exception {
        return Synchronizer.accumulate(ClusterSimulator.input(config)).nonEmptyPairs().get(0);
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void aPairWhosePartCrossesGetsTheEstimateOfDerivingItsHullsFirst(long seed) throws Exception {
        SimulationConfig config = wandering(seed, 0.3e-6);
        // the prefix test stops this pair's derivation (the path under test is taken)
        PairAccumulator probe = pair(config);
        assertThat(probe.deriveUnless(ConvexHullEstimator.PART_CROSSES)).isFalse();

        PairAccumulator before = pair(config);
        HalfHull derivedP = before.aToB(); // derived from every sub-bucket: the path before
        HalfHull derivedQ = before.bToA();
        PairEstimate expected = ConvexHullEstimator.estimate(before);

        PairAccumulator now = pair(config);
        PairEstimate actual = ConvexHullEstimator.estimate(now);

        assertThat(expected.quality()).isEqualTo(Quality.PIECEWISE);
        assertSameEstimate(actual, expected);
        assertThat(now.aToB().us()).containsExactly(derivedP.us());
        assertThat(now.aToB().vs()).containsExactly(derivedP.vs());
        assertThat(now.bToA().us()).containsExactly(derivedQ.us());
        assertThat(now.bToA().vs()).containsExactly(derivedQ.vs());
    }

    /**
     * A long pair of linear clocks (the linear 24 h file's case) is not stopped: its hulls are
     * derived as before, and its one-line estimate is the same too.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {4, 5})
    void aLinearPairIsDerivedAsBefore(long seed) throws Exception {
        SimulationConfig config = wandering(seed, 0.0);
        PairAccumulator probe = pair(config);
        assertThat(probe.deriveUnless(ConvexHullEstimator.PART_CROSSES)).isTrue();
        PairAccumulator before = pair(config);
        before.aToB();
        assertThat(ConvexHullEstimator.estimate(before).quality()).isEqualTo(Quality.ACCURATE);
        assertSameEstimate(ConvexHullEstimator.estimate(pair(config)), ConvexHullEstimator.estimate(before));
    }

    static void assertSameEstimate(PairEstimate actual, PairEstimate expected) {
        assertThat(actual.quality()).isEqualTo(expected.quality());
        assertThat(actual.note()).isEqualTo(expected.note());
        assertThat(actual.pu()).containsExactly(expected.pu());
        assertThat(actual.pv()).containsExactly(expected.pv());
        assertThat(actual.qu()).containsExactly(expected.qu());
        assertThat(actual.qv()).containsExactly(expected.qv());
        assertThat(actual.line()).isEqualTo(expected.line());
        assertThat(actual.drift()).isEqualTo(expected.drift());
        assertThat(actual.fallback()).isEqualTo(expected.fallback());
        assertThat(actual.hasBounds()).isEqualTo(expected.hasBounds());
        if (expected.hasBounds()) {
            assertThat(actual.meanAccuracy()).isEqualTo(expected.meanAccuracy());
            BoundAssertions.assertSameBound(actual.lowerAToB(), expected.lowerAToB());
            BoundAssertions.assertSameBound(actual.upperAToB(), expected.upperAToB());
        }
        assertThat(actual.piecewise() == null).isEqualTo(expected.piecewise() == null);
        if (expected.piecewise() != null) {
            PiecewiseFit a = actual.piecewise();
            PiecewiseFit e = expected.piecewise();
            assertThat(a.transform().segments()).isEqualTo(e.transform().segments());
            assertThat(a.pieces()).isEqualTo(e.pieces());
            assertThat(a.steps()).isEqualTo(e.steps());
            assertThat(a.breaks()).isEqualTo(e.breaks());
            assertThat(a.unresolved()).isEqualTo(e.unresolved());
            assertThat(a.bucketWidth()).isEqualTo(e.bucketWidth());
        }
    }
}
