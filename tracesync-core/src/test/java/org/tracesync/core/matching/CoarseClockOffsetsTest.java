package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CoarseClockOffsetsTest {

    private static final long HOUR = 3_600_000_000_000L;

    /**
     * Random clocks up to ±10 h apart, messages between random pairs with latencies up to 5 ms, a
     * few reused ids: every node's offset relative to node 0's group origin is found to within the
     * largest latency, and memory stays at the sample size.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void findsOffsetsHoursApartWithinALatency(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int nodes = 2 + rnd.nextInt(6);
        long[] offset = new long[nodes];
        for (int i = 1; i < nodes; i++) {
            offset[i] = rnd.nextLong(-10 * HOUR, 10 * HOUR);
        }
        CoarseClockOffsets c = new CoarseClockOffsets(nodes, 4096);
        EventBlock b = new EventBlock(EventBlock.DEFAULT_CAPACITY);
        long t = 1_700_000_000_000_000_000L;
        for (int m = 0; m < 50_000; m++) {
            t += rnd.nextLong(1_000_000);
            int s = rnd.nextInt(nodes);
            int r = (s + 1 + rnd.nextInt(nodes - 1)) % nodes;
            long id = rnd.nextInt(100) == 0 ? rnd.nextInt(m + 1) : m; // 1% reused ids
            if (b.size() + 2 > b.capacity()) {
                c.add(b);
                b.clear();
            }
            b.addMessageId(s, true, t + offset[s], "m" + id);
            b.addMessageId(r, false, t + rnd.nextLong(5_000_000) + offset[r], "m" + id);
        }
        c.add(b);
        CoarseClockOffsets.Estimate e = c.estimate();
        int root = 0;
        for (int i = 0; i < nodes; i++) {
            if (e.offsets()[i] == 0) {
                root = i;
            }
        }
        for (int i = 0; i < nodes; i++) {
            long truth = offset[i] - offset[root];
            assertThat(Math.abs(e.offsets()[i] - truth)).as("node %d of %d", i, nodes).isLessThan(5_000_000L);
        }
        long spread = java.util.Arrays.stream(offset).max().getAsLong() - java.util.Arrays.stream(offset).min().getAsLong();
        assertThat(Math.abs(e.largest() - spread)).isLessThan(10_000_000L);
    }

    /**
     * A chain of clocks 10 s apart each: no linked pair differs by more than 15 s, but the two ends
     * differ by 20 s, more than a quarter of a 60 s window: the spread counts, not the edges.
     */
    @org.junit.jupiter.api.Test
    void theSpreadOfAGroupCountsNotItsEdges() {
        CoarseClockOffsets c = new CoarseClockOffsets(3, 1024);
        EventBlock b = new EventBlock(64);
        long t = 1_700_000_000_000_000_000L;
        long[] offset = {0, 10_000_000_000L, 20_000_000_000L};
        for (int m = 0; m < 10; m++) {
            int s = m % 2; // messages 0 -> 1 and 1 -> 2 only
            b.addMessageId(s, true, t + m + offset[s], "m" + m);
            b.addMessageId(s + 1, false, t + m + 1000 + offset[s + 1], "m" + m);
        }
        c.add(b);
        CoarseClockOffsets.Estimate e = c.estimate();
        assertThat(e.largest()).isBetween(19_999_000_000L, 20_001_000_000L);
        assertThat(e.exceeds(15_000_000_000L)).isTrue();
    }

    /**
     * The sample is chosen by {@link KeyWindow#hash} of each key, whatever the block's hash column
     * holds (the probe table's cheaper {@link KeyWindow#tableHash} since the eighth session): a
     * block whose column is overwritten gives the same estimate, and the matches per node are
     * those the sampling by {@link KeyWindow#hash} gave before that change (recorded from it), and so
     * are the offsets.
     */
    @org.junit.jupiter.api.Test
    void theSampleFollowsTheKeyHashNotTheBlocksColumn() {
        long[] offset = {0, 7 * HOUR, -3 * HOUR};
        CoarseClockOffsets plain = new CoarseClockOffsets(3, 512);
        CoarseClockOffsets overwritten = new CoarseClockOffsets(3, 512);
        SplittableRandom rnd = new SplittableRandom(17);
        EventBlock b = new EventBlock(EventBlock.DEFAULT_CAPACITY);
        long t = 1_700_000_000_000_000_000L;
        for (int m = 0; m < 40_000; m++) {
            t += rnd.nextLong(1_000_000);
            int s = rnd.nextInt(3);
            int r = (s + 1 + rnd.nextInt(2)) % 3;
            if (b.size() + 2 > b.capacity()) {
                feed(plain, overwritten, b, rnd);
            }
            long seq = rnd.nextLong(1L << 32);
            b.addSegment(s, true, t + offset[s], s + 1, r + 1, 40000 + s, 5000 + r, seq, m, 0x18, 100);
            b.addSegment(r, false, t + rnd.nextLong(5_000_000) + offset[r], s + 1, r + 1, 40000 + s, 5000 + r,
                    seq, m, 0x18, 100);
        }
        feed(plain, overwritten, b, rnd);
        CoarseClockOffsets.Estimate e = plain.estimate();
        CoarseClockOffsets.Estimate f = overwritten.estimate();
        assertThat(f.offsets()).isEqualTo(e.offsets());
        assertThat(f.matches()).isEqualTo(e.matches());
        assertThat(e.matches()).containsExactly(201, 206, 225);
        assertThat(e.offsets()).containsExactly(10_800_000_270_829L, 35_999_999_921_921L, 0);
    }

    private static void feed(CoarseClockOffsets plain, CoarseClockOffsets overwritten, EventBlock b,
                             SplittableRandom rnd) {
        plain.add(b);
        for (int i = 0; i < b.size(); i++) {
            b.hash[i] = rnd.nextInt();
        }
        overwritten.add(b);
        b.clear();
    }
}
