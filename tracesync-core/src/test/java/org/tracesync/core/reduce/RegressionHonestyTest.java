package org.tracesync.core.reduce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.Quality;
import org.tracesync.core.transform.ClockTransform;

/** Issue #11 item 5: a regression line that inverts messages is not called accurate. */
class RegressionHonestyTest {

    @Test
    void aRegressionLineOutsideTheCorridorIsFallbackWithItsInversionsCounted() throws Exception {
        SplittableRandom r = new SplittableRandom(5);
        LinearClusterSimulation sim = new LinearClusterSimulation(2, r);
        // both ways at least 10 µs, but a → b queues (mean 500 µs more) and b → a does not: the offset
        // samples are biased by half the mean asymmetry (~250 µs), far outside the corridor's 10 µs
        for (int k = 0; k < 4000; k++) {
            boolean forward = k % 2 == 0;
            long send = LinearClusterSimulation.T0 + r.nextLong(10_000_000_000L);
            long latency = 10_000 + (long) (-Math.log(1 - r.nextDouble()) * (forward ? 500_000 : 2_000));
            int from = forward ? 0 : 1;
            int to = forward ? 1 : 0;
            sim.messages.add(new Message(from, to, sim.local(from, send), sim.local(to, send + latency)));
        }
        Synchronizer.Synchronization s = Synchronizer.synchronize(sim,
                Synchronizer.Options.defaults().withEstimator(Synchronizer.Estimator.REGRESSION).withReference("n0"));
        PairEstimate p = s.pairs().get(0);
        ClockTransform line = p.transformAToB();
        int inverted = 0;
        for (Message m : sim.messages) {
            boolean forward = m.sender() == 0;
            long x = forward ? m.sendTime() : m.recvTime();
            long y = forward ? m.recvTime() : m.sendTime();
            double yOnLine = (double) (x - y) + line.correction(x); // line(x) − y
            if (forward ? yOnLine > 0 : yOnLine < 0) {
                inverted++;
            }
        }
        assertThat(inverted).isGreaterThan(100);
        assertThat(p.quality()).isEqualTo(Quality.FALLBACK);
        assertThat(p.violations()).isEqualTo(inverted);
        assertThat(p.note()).contains("regression line leaves the feasible region", "inverts " + inverted + " of 4000 messages");
        assertThat(p.hasBounds()).isTrue();
        // the node's bounds are the hull's, written around the regression line: they still contain the truth
        NodeResult n1 = s.result().node("n1");
        assertThat(n1.quality()).isEqualTo(Quality.FALLBACK);
        for (int k = 0; k <= 10; k++) {
            long t = n1.start() + (n1.end() - n1.start()) / 10 * k;
            double truth = sim.trueCorrection(1, 0, t);
            double est = n1.transform().correction(t);
            assertThat(truth).isBetween(est - n1.bounds().minus(t) - 2, est + n1.bounds().plus(t) + 2);
        }
    }

    @Test
    void aRegressionLineInsideTheCorridorStaysAccurate() throws Exception {
        SplittableRandom r = new SplittableRandom(6);
        LinearClusterSimulation sim = new LinearClusterSimulation(2, r);
        sim.link(r, 0, 1, 2000, 10_000_000_000L, 100_000, 100_000, 2_000);
        Synchronizer.Synchronization s = Synchronizer.synchronize(sim,
                Synchronizer.Options.defaults().withEstimator(Synchronizer.Estimator.REGRESSION));
        PairEstimate p = s.pairs().get(0);
        assertThat(p.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(p.note()).contains("regression on", "standard error");
    }
}
