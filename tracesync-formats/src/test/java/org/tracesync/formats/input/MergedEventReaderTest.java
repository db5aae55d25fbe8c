package org.tracesync.formats.input;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;

/**
 * The merge of {@link MergedEventReader}: the scan used for a few traces gives the heap's order
 * (corrected time, then trace index), event for event, with equal times across traces, times
 * going backwards within a trace, coarse offsets, traces ending at different points and the
 * sample's per-trace limit.
 */
class MergedEventReaderTest {

    /** A trace of segments at the given local times; event j's key is (trace, j). */
    private record ListedTrace(String name, long[] times) implements EventTrace {
        @Override
        public NodeInfo node() {
            return new NodeInfo(name, name, List.of());
        }

        @Override
        public EventCursor cursor(int node, AddressTable addresses) {
            return new EventCursor() {
                private int next = -1;

                @Override
                public boolean advance() {
                    return ++next < times.length;
                }

                @Override
                public long time() {
                    return times[next];
                }

                @Override
                public int emit(EventBlock block, int n, long time) {
                    block.addPacked(n, next % 2 == 0, time, n, next, 0);
                    return next % 3 == 0 ? OTHER : KEY;
                }
            };
        }
    }

    /** Every row the reader fills, as "node time key" in order, then its counts. */
    private static List<String> rows(List<EventTrace> traces, long[] offsets, long limit, boolean linear)
            throws IOException {
        List<String> out = new ArrayList<>();
        try (MergedEventReader in = new MergedEventReader(traces, new AddressTable(), offsets, limit, linear)) {
            EventBlock block = new EventBlock(7); // small: a block ends between any two events
            boolean more;
            do {
                block.clear();
                more = in.fill(block);
                for (int i = 0; i < block.size(); i++) {
                    out.add(block.nodeOf(i) + " " + block.time(i) + " " + block.keyB(i) + " " + block.isSend(i));
                }
            } while (more);
            out.add("events " + in.events + " keys " + in.keyEvents + " other " + in.otherEvents + " backward "
                    + in.backwardTimestamps);
            for (int i = 0; i < traces.size(); i++) {
                long[] span = in.span(i);
                out.add("span " + i + " " + (span == null ? "none" : span[0] + ".." + span[1]));
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void theScanMergesAsTheHeapDoes(long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        for (int k = 1; k <= MergedEventReader.LINEAR_MAX; k++) {
            for (int round = 0; round < 20; round++) {
                List<EventTrace> traces = new ArrayList<>();
                long[] offsets = new long[k];
                for (int i = 0; i < k; i++) {
                    int n = r.nextInt(4) == 0 ? 0 : r.nextInt(1, 60);
                    long[] times = new long[n];
                    long t = r.nextLong(20);
                    for (int j = 0; j < n; j++) {
                        // small steps: many equal times across traces; now and then one goes back
                        t += r.nextInt(10) == 0 ? -r.nextInt(1, 5) : r.nextInt(3);
                        times[j] = t;
                    }
                    traces.add(new ListedTrace("t" + i, times));
                    offsets[i] = r.nextInt(3) == 0 ? r.nextLong(-5, 6) : 0;
                }
                long limit = r.nextBoolean() ? Long.MAX_VALUE : r.nextInt(1, 40);
                List<String> heap = rows(traces, offsets, limit, false);
                List<String> scan = rows(traces, offsets, limit, true);
                assertThat(scan).as("k=%d round %d", k, round).isEqualTo(heap);
                long expected = 0;
                for (EventTrace tr : traces) {
                    expected += Math.min(((ListedTrace) tr).times().length, limit);
                }
                assertThat(scan.get(scan.size() - 1 - k)).startsWith("events " + expected + " ");
            }
        }
    }
}
