package org.tracesync.core.latency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.reduce.Synchronizer;

/**
 * Error bars on simulated chains a → b → c → a → c → b → a (every pair both ways) over three linear
 * clocks, synchronized with b as the reference (path reduction, the JDK-only default): every true
 * latency lies inside its bar, and for c → a (neither node is the reference) the direct pair's
 * envelope makes the bar narrower than the nodes' bounds alone.
 */
class LatencyBarsTest {

    private static final long T0 = 1_700_000_000_000_000_000L;

    @ParameterizedTest
    @ValueSource(longs = {11, 12, 13, 14, 15, 16})
    void trueLatenciesLieInsideTheBarsAndTheDirectPairNarrowsThem(long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        long[] alpha = new long[3];
        double[] beta = new double[3];
        for (int k = 0; k < 3; k++) {
            alpha[k] = r.nextLong(-3_000_000_000L, 3_000_000_000L);
            beta[k] = r.nextDouble(-80e-6, 80e-6);
        }
        LatencyEvents ev = new LatencyEvents();
        int[] node = {ev.node("a", "sim"), ev.node("b", "sim"), ev.node("c", "sim")};
        int e = ev.event("ring");
        int requests = 500 + r.nextInt(1_500);
        int[] stepNode = {0, 1, 2, 0, 2, 1, 0};
        long[][] truth = new long[requests][stepNode.length - 1];
        long t = T0;
        for (int s = 0; s < requests; s++) {
            t += 1_000_000 + r.nextLong(5_000_000);
            long[] times = new long[stepNode.length];
            times[0] = t;
            for (int k = 1; k < times.length; k++) {
                times[k] = times[k - 1] + 30_000 + Math.round(-25_000 * Math.log(1 - r.nextDouble()));
                truth[s][k - 1] = times[k] - times[k - 1];
            }
            for (int k = 0; k < times.length; k++) {
                int n = stepNode[k];
                ev.step(node[n], e, s, k + 1, times[k] + alpha[n] + Math.round(beta[n] * (double) (times[k] - T0)));
            }
        }
        LatencyInstances inst = LatencyInstances.find(ev);
        LatencyMessageInput input = new LatencyMessageInput(inst);
        Synchronizer.Synchronization sync = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("b"));
        LatencyBars withPairs = new LatencyBars(sync.result(), sync.pairs(), 1e-4);
        LatencyBars nodesOnly = new LatencyBars(sync.result(), List.of(), 1e-4);
        LatencyInstances.Measurements m = inst.measurements();
        long[] out = new long[3];
        long[] alone = new long[3];
        double widthCa = 0;
        double widthCaNodes = 0;
        int ca = 0;
        for (int i = 0; i < m.size(); i++) {
            if (m.kind(i) != LatencyInstances.Kind.TRANSITION) {
                continue;
            }
            assertThat(withPairs.measure(m.fromNode(i), m.timeFrom(i), m.toNode(i), m.timeTo(i), out))
                    .isEqualTo(LatencyBars.Status.BOUNDED);
            long trueLatency = truth[(int) m.seq(i)][m.fromStep(i) - 1];
            assertThat(trueLatency).isBetween(out[0] - out[1], out[0] + out[2]);
            if (m.fromNode(i) == node[2] && m.toNode(i) == node[0]) {
                nodesOnly.measure(m.fromNode(i), m.timeFrom(i), m.toNode(i), m.timeTo(i), alone);
                assertThat(trueLatency).isBetween(alone[0] - alone[1], alone[0] + alone[2]);
                assertThat(out[1] + out[2]).isLessThanOrEqualTo(alone[1] + alone[2]);
                widthCa += out[1] + out[2];
                widthCaNodes += alone[1] + alone[2];
                ca++;
            }
        }
        assertThat(ca).isEqualTo(requests);
        assertThat(widthCa).isLessThan(widthCaNodes);
    }
}
