package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * The constant-offset box of {@link OffsetOnlyFit} against a general LP solver (ojAlgo): for every
 * host, the smallest and largest feasible offset under all difference constraints, the reference at
 * 0. Seeded random hosts with true offsets and positive latencies (so the constraints are feasible
 * and contain the truth), each pair tied both ways.
 */
class OffsetOnlyFitLpOracleTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void boxEqualsTheLpExtremes(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int n = 3 + r.nextInt(6);
        long[] offset = new long[n];
        for (int i = 1; i < n; i++) {
            offset[i] = r.nextLong(-5_000_000, 5_000_000);
        }
        Map<Long, Long> minLatency = new HashMap<>();
        // a random spanning tree plus extra pairs, each tied both ways; latency >= 20 us
        List<int[]> pairs = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            pairs.add(new int[] {r.nextInt(i), i});
        }
        for (int k = 0; k < n; k++) {
            int a = r.nextInt(n);
            int b = r.nextInt(n);
            if (a != b) {
                pairs.add(new int[] {a, b});
            }
        }
        for (int[] p : pairs) {
            for (int dir = 0; dir < 2; dir++) {
                int a = dir == 0 ? p[0] : p[1];
                int b = dir == 0 ? p[1] : p[0];
                long latency = 20_000 + r.nextLong(500_000);
                // sent at true time T on a (local T - o_a), received at T + latency on b (local T + latency - o_b)
                long w = latency - offset[b] + offset[a];
                minLatency.merge(((long) a << 32) | b, w, Math::min);
            }
        }
        List<Integer> group = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            group.add(i);
        }
        long[][] box = OffsetOnlyFit.solve(group, 0, minLatency);
        assertThat(box).isNotNull();
        for (int i = 0; i < n; i++) {
            // the true offset (reference time = local + o) lies in the box
            assertThat(offset[i]).isBetween(box[0][i], box[1][i]);
            assertThat((double) box[0][i]).isCloseTo(lp(n, minLatency, i, false), org.assertj.core.data.Offset.offset(1e-3));
            assertThat((double) box[1][i]).isCloseTo(lp(n, minLatency, i, true), org.assertj.core.data.Offset.offset(1e-3));
        }
    }

    private static double lp(int n, Map<Long, Long> minLatency, int node, boolean max) {
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable[] o = new Variable[n];
        for (int i = 0; i < n; i++) {
            o[i] = model.addVariable("o" + i).lower(i == 0 ? 0 : -1e9).upper(i == 0 ? 0 : 1e9);
        }
        int row = 0;
        for (Map.Entry<Long, Long> e : minLatency.entrySet()) {
            int a = (int) (e.getKey() >>> 32);
            int b = (int) (e.getKey() & 0xFFFFFFFFL);
            Expression x = model.addExpression("m" + row++).upper((double) e.getValue()); // o_a - o_b <= w
            x.set(o[a], 1);
            x.set(o[b], -1);
        }
        model.addExpression("objective").weight(1).set(o[node], 1);
        Optimisation.Result res = max ? model.maximise() : model.minimise();
        assertThat(res.getState().isFeasible()).isTrue();
        return res.getValue();
    }
}
