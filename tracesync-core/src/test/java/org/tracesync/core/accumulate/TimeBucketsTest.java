package org.tracesync.core.accumulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-bucket hulls are mergeable (accumulating in two halves and merging gives the buckets of one
 * accumulation, at the coarser width), and their number stays bounded however long the trace.
 */
class TimeBucketsTest {

    private static final long T0 = 1_700_000_000_000_000_000L;

    private static List<TimeBuckets.Bucket> buckets(PairAccumulator acc) {
        return acc.timeBuckets().buckets();
    }

    private static void assertSame(PairAccumulator x, PairAccumulator y) {
        List<TimeBuckets.Bucket> a = buckets(x);
        List<TimeBuckets.Bucket> b = buckets(y);
        assertThat(x.timeBuckets().width()).isEqualTo(y.timeBuckets().width());
        assertThat(a).hasSameSizeAs(b);
        long du = y.x0() - x.x0();
        long dv = y.v0() - x.v0();
        for (int k = 0; k < a.size(); k++) {
            assertThat(a.get(k).key()).isEqualTo(b.get(k).key());
            long[] pu = b.get(k).pu().clone();
            long[] pv = b.get(k).pv().clone();
            for (int i = 0; i < pu.length; i++) {
                pu[i] += du;
                pv[i] += dv;
            }
            assertThat(a.get(k).pu()).containsExactly(pu);
            assertThat(a.get(k).pv()).containsExactly(pv);
            assertThat(a.get(k).qu()).hasSameSizeAs(b.get(k).qu());
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void mergingHalvesEqualsAccumulatingOnce(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        PairAccumulator once = new PairAccumulator(0, 1);
        PairAccumulator first = new PairAccumulator(0, 1);
        PairAccumulator second = new PairAccumulator(0, 1);
        long span = (seed % 2 == 0 ? 20 : 20_000) * 1_000_000_000L; // 20 s, or 5.6 h (coarser buckets)
        int n = 40_000;
        for (int k = 0; k < n; k++) {
            long x = T0 + r.nextLong(span);
            long lat = 40_000 + r.nextLong(200_000);
            boolean ab = r.nextBoolean();
            PairAccumulator half = r.nextBoolean() ? first : second;
            for (PairAccumulator acc : new PairAccumulator[] {once, half}) {
                if (ab) {
                    acc.addAToB(x, x + 1_000_000_000L + lat);
                } else {
                    acc.addBToA(x + 1_000_000_000L - lat, x);
                }
            }
        }
        first.merge(second);
        assertSame(once, first);
        assertThat(buckets(once).size()).isLessThanOrEqualTo(TimeBuckets.MAX_BUCKETS);
    }

    @org.junit.jupiter.api.Test
    void aDayOfMessagesStaysWithinTheBucketCap() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        long day = 86_400_000_000_000L;
        for (long t = 0; t < day; t += 500_000_000L) {
            acc.addAToB(T0 + t, T0 + t + 60_000);
            acc.addBToA(T0 + t + 250_000_000L, T0 + t + 250_000_000L + 80_000);
        }
        assertThat(buckets(acc).size()).isLessThanOrEqualTo(TimeBuckets.MAX_BUCKETS);
        assertThat(acc.timeBuckets().width()).isEqualTo(4_000_000_000L);
        assertThat(acc.aToB().size()).isGreaterThan(0);
    }
}
