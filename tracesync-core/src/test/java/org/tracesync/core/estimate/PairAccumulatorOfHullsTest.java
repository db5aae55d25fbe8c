package org.tracesync.core.estimate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tracesync.core.accumulate.HalfHull;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.model.Quality;

/**
 * {@link PairAccumulator#ofHulls}, as {@code PiecewiseEstimator.bounds} uses it: the linear
 * estimate of an accumulator that holds only the hulls (pushed vertex by vertex, in order) equals
 * that of the accumulator fed every message.
 */
class PairAccumulatorOfHullsTest {

    @Test
    void sameEstimateAsTheMessages() {
        SplittableRandom rnd = new SplittableRandom(7);
        PairAccumulator acc = new PairAccumulator(0, 1);
        long offset = 3_000_000_000L;
        double drift = 40e-6;
        long x = 1_700_000_000_000_000_000L;
        for (int k = 0; k < 20_000; k++) {
            x += 1_000_000 + rnd.nextInt(9_000_000);
            long b = x + offset + Math.round(drift * (x - 1_700_000_000_000_000_000L));
            long lat = 40_000 + rnd.nextInt(100_000);
            if (rnd.nextBoolean()) {
                acc.addAToB(x, b + lat); // sent at a-time x, received lat later on b's clock
            } else {
                acc.addBToA(b, x + lat); // sent at b-time b, received lat later at a
            }
        }
        HalfHull p = new HalfHull(HalfHull.Side.LOWER);
        HalfHull q = new HalfHull(HalfHull.Side.UPPER);
        for (int k = 0; k < acc.aToB().size(); k++) {
            p.add(acc.aToB().u(k), acc.aToB().v(k));
        }
        for (int k = 0; k < acc.bToA().size(); k++) {
            q.add(acc.bToA().u(k), acc.bToA().v(k));
        }
        PairAccumulator hulls = PairAccumulator.ofHulls(acc.x0(), acc.v0(), p, q,
                acc.countAToB(), acc.countBToA(), acc.minX(), acc.maxX());
        assertThat(hulls.timeBuckets()).isNull();
        assertThat(hulls.minX()).isEqualTo(acc.minX());
        assertThat(hulls.maxX()).isEqualTo(acc.maxX());

        PairEstimate want = ConvexHullEstimator.estimateLinear(acc);
        PairEstimate got = ConvexHullEstimator.estimateLinear(hulls);
        assertThat(want.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(got.quality()).isEqualTo(want.quality());
        BoundAssertions.assertSameBound(got.lowerAToB(), want.lowerAToB());
        BoundAssertions.assertSameBound(got.upperAToB(), want.upperAToB());
    }

    @Test
    void rejectsSwappedSides() {
        HalfHull lower = new HalfHull(HalfHull.Side.LOWER);
        HalfHull upper = new HalfHull(HalfHull.Side.UPPER);
        assertThatThrownBy(() -> PairAccumulator.ofHulls(0, 0, upper, lower, 1, 1, 0, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
