package org.tracesync.core.accumulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The nodes' time ranges and the pairs' a-time spans, which {@link PairAccumulators} and
 * {@link PairAccumulator} keep per direction instead of per node: equal to the straightforward
 * minimum and maximum over every message, whatever the order of times (sends and receives
 * interleaved, late messages), with self-messages (not counted), ranges given by
 * {@link PairAccumulators#seen(int, long, long)}, reads between messages (a cached range must not
 * go stale), and both kinds of merge.
 */
class PairAccumulatorsRangesTest {

    /** The straightforward ranges: every message's send time on its sender, receive time on its receiver. */
    private static final class Oracle {
        final long[] first;
        final long[] last;
        final long[][] minX;
        final long[][] maxX;

        Oracle(int nodes) {
            first = new long[nodes];
            last = new long[nodes];
            Arrays.fill(first, Long.MAX_VALUE);
            Arrays.fill(last, Long.MIN_VALUE);
            minX = new long[nodes][nodes];
            maxX = new long[nodes][nodes];
            for (long[] row : minX) {
                Arrays.fill(row, Long.MAX_VALUE);
            }
            for (long[] row : maxX) {
                Arrays.fill(row, Long.MIN_VALUE);
            }
        }

        void seen(int n, long t) {
            first[n] = Math.min(first[n], t);
            last[n] = Math.max(last[n], t);
        }

        void message(int s, int r, long st, long rt) {
            if (s == r) {
                return;
            }
            seen(s, st);
            seen(r, rt);
            int a = Math.min(s, r);
            int b = Math.max(s, r);
            long x = s < r ? st : rt; // a's time
            minX[a][b] = Math.min(minX[a][b], x);
            maxX[a][b] = Math.max(maxX[a][b], x);
        }
    }

    private static void assertRanges(PairAccumulators acc, Oracle o) {
        for (int n = 0; n < acc.nodes(); n++) {
            assertThat(acc.first(n)).as("first of node %d", n).isEqualTo(o.first[n]);
            assertThat(acc.last(n)).as("last of node %d", n).isEqualTo(o.last[n]);
        }
        for (PairAccumulator p : acc.nonEmptyPairs()) {
            assertThat(p.minX()).as("minX of %d-%d", p.a(), p.b()).isEqualTo(o.minX[p.a()][p.b()]);
            assertThat(p.maxX()).as("maxX of %d-%d", p.a(), p.b()).isEqualTo(o.maxX[p.a()][p.b()]);
        }
    }

    /** A message between two random nodes (sometimes the same), its times drifting forward with jitter and late ones. */
    private static long[] message(SplittableRandom r, int nodes, long t) {
        int s = r.nextInt(nodes);
        int d = r.nextInt(12) == 0 ? s : r.nextInt(nodes);
        long st = t + r.nextLong(-2_000_000, 2_000_000) - (r.nextInt(50) == 0 ? 5_000_000_000L : 0);
        long rt = st + 50_000 + r.nextLong(400_000) + (long) d * 1_000_000_000L; // per-node offsets
        return new long[] {s, d, st, rt};
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void rangesEqualTheMinimaAndMaximaOfEveryMessage(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int nodes = 2 + r.nextInt(5);
        PairAccumulators acc = new PairAccumulators(nodes);
        Oracle o = new Oracle(nodes);
        long t = 1_700_000_000_000_000_000L;
        int n = 2_000 + r.nextInt(20_000);
        for (int i = 0; i < n; i++) {
            t += r.nextLong(1_000_000);
            long[] m = message(r, nodes, t);
            acc.message((int) m[0], (int) m[1], m[2], m[3]);
            o.message((int) m[0], (int) m[1], m[2], m[3]);
            if (r.nextInt(3_000) == 0) {
                int k = r.nextInt(nodes);
                long f = t - r.nextLong(10_000_000_000L);
                long l = t + r.nextLong(10_000_000_000L);
                acc.seen(k, f, l);
                o.seen(k, f);
                o.seen(k, l);
            }
            if (r.nextInt(1_000) == 0) {
                assertRanges(acc, o); // a read between messages: later ones must still count
            }
        }
        assertRanges(acc, o);
    }

    /**
     * Sets merged (the parts of a file read in parallel) and pairs merged one by one (a distributed
     * job's partitions) give the ranges of every message of every part.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void mergedSetsAndMergedPairsKeepEveryMessagesRange(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int nodes = 2 + r.nextInt(4);
        int parts = 2 + r.nextInt(3);
        PairAccumulators[] part = new PairAccumulators[parts];
        Oracle o = new Oracle(nodes);
        long t = 1_700_000_000_000_000_000L;
        for (int k = 0; k < parts; k++) {
            part[k] = new PairAccumulators(nodes);
            int n = 500 + r.nextInt(5_000);
            for (int i = 0; i < n; i++) {
                t += r.nextLong(1_000_000);
                long[] m = message(r, nodes, t);
                part[k].message((int) m[0], (int) m[1], m[2], m[3]);
                o.message((int) m[0], (int) m[1], m[2], m[3]);
            }
            part[k].first(0); // a range read before the merge must not hide what comes after
        }
        PairAccumulators sets = new PairAccumulators(nodes);
        PairAccumulators pairs = new PairAccumulators(nodes);
        sets.first(0);
        pairs.first(0);
        for (PairAccumulators p : part) {
            sets.merge(p);
            for (PairAccumulator one : p.nonEmptyPairs()) {
                pairs.merge(one);
            }
        }
        assertRanges(sets, o);
        assertRanges(pairs, o);
        assertThat(sets.messages()).isEqualTo(pairs.messages());
    }
}
