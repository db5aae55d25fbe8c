package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.NetEvent;

class TcpMatcherTest {

    private static final long W = 1_000_000_000L;
    private final List<Message> out = new ArrayList<>();
    private final TcpMatcher m = new TcpMatcher(3, W, (s, r, ts, tr) -> out.add(new Message(s, r, ts, tr)));

    /** Node 0 has address 0, node 1 address 1, node 2 address 2; ports 1000 → 2000. */
    private void seg(int node, boolean send, long t, int from, int to, long seq, long ack, int flags, int len) {
        m.segment(node, send, t, from, to, from == 0 ? 1000 : 2000, from == 0 ? 2000 : 1000, seq, ack, flags, len);
    }

    @Test
    void uniqueKeyGivesOneMessage() {
        seg(0, true, 100, 0, 1, 10, 20, 0x18, 5);
        seg(1, false, 150, 0, 1, 10, 20, 0x18, 5);
        m.finish();
        assertThat(out).containsExactly(new Message(0, 1, 100, 150));
        assertThat(m.matched()).isEqualTo(1);
    }

    @Test
    void duplicateSendIsDroppedAndCounted() {
        seg(0, true, 100, 0, 1, 10, 20, 0x10, 0);
        seg(0, true, 120, 0, 1, 10, 20, 0x10, 0);
        seg(1, false, 150, 0, 1, 10, 20, 0x10, 0);
        m.finish();
        assertThat(out).isEmpty();
        assertThat(m.ambiguous()).isEqualTo(1);
        assertThat(m.duplicateEvents()).isEqualTo(1);
    }

    @Test
    void partialRetransmissionUnderANewKeyIsDropped() {
        // a 2000-byte segment, then a retransmission of its second half: a key never seen before
        seg(0, true, 100, 0, 1, 10_000, 1, 0x10, 2000);
        seg(0, true, 500, 0, 1, 11_000, 1, 0x10, 1000);
        seg(1, false, 600, 0, 1, 11_000, 1, 0x10, 1000);
        seg(0, true, 700, 0, 1, 12_000, 1, 0x10, 100); // new data: fine
        seg(1, false, 750, 0, 1, 12_000, 1, 0x10, 100);
        m.finish();
        assertThat(out).containsExactly(new Message(0, 1, 700, 750));
        assertThat(m.retransmissions()).isEqualTo(1);
    }

    @Test
    void sequenceWrapAroundIsNotARetransmission() {
        seg(0, true, 100, 0, 1, 0xffff_ff00L, 1, 0x10, 0x100);
        seg(1, false, 110, 0, 1, 0xffff_ff00L, 1, 0x10, 0x100);
        seg(0, true, 200, 0, 1, 0, 1, 0x10, 10);
        seg(1, false, 210, 0, 1, 0, 1, 0x10, 10);
        m.finish();
        assertThat(out).hasSize(2);
        assertThat(m.retransmissions()).isZero();
    }

    @Test
    void sameNodeIsDiscarded() {
        seg(0, true, 100, 0, 1, 10, 20, 0x10, 0);
        seg(0, false, 101, 0, 1, 10, 20, 0x10, 0);
        m.finish();
        assertThat(out).isEmpty();
        assertThat(m.sameNode()).isEqualTo(1);
    }

    @Test
    void keysOlderThanTheWindowAreEvictedUnmatched() {
        seg(0, true, 0, 0, 1, 10, 20, 0x10, 0);
        seg(2, true, W + 1, 2, 1, 99, 20, 0x10, 0); // advances time past the first key's window
        seg(1, false, W + 2, 0, 1, 10, 20, 0x10, 0); // its counterpart, too late
        m.finish();
        assertThat(out).isEmpty();
        assertThat(m.evictedUnmatched()).isEqualTo(1);
        assertThat(m.unmatchedAtEnd()).isEqualTo(2);
    }

    @Test
    void exchangeGivesAnOffsetIndependentRoundTrip() {
        long off = 500_000_000L; // node 1's clock is 0.5 s ahead: does not matter
        seg(0, true, 1_000, 0, 1, 100, 7, 0x18, 50); // t1
        seg(1, false, off + 1_400, 0, 1, 100, 7, 0x18, 50); // t2 = t1 + 400 true
        seg(1, true, off + 1_900, 1, 0, 7, 150, 0x10, 0); // t3 (ack = 100 + 50)
        seg(0, false, 2_200, 1, 0, 7, 150, 0x10, 0); // t4
        m.finish();
        assertThat(out).hasSize(2);
        assertThat(m.exchanges()).isEqualTo(1);
        // (t4 - t1) - (t3 - t2) = 1200 - 500
        assertThat(m.roundTrips().minimum(0, 1)).isEqualTo(700);
        assertThat(m.roundTrips().minimumLatency(1, 0)).isEqualTo(350);
        assertThat(m.roundTrips().known(0, 2)).isFalse();
    }

    /**
     * The exchange sink gets the four local times of each exchange, whichever clock is ahead:
     * fed in merged time order, the data (first event at min(t1, t2)) is decided before its
     * acknowledgement (min(t3, t4)), also when b's clock is 0.5 s behind a's.
     */
    @ParameterizedTest
    @ValueSource(longs = {500_000_000L, -500_000_000L})
    void exchangeSinkGetsTheFourTimesWhicheverClockIsAhead(long off) {
        List<long[]> got = new ArrayList<>();
        m.exchangesTo((a, b, t1, t2, t3, t4) -> got.add(new long[] {a, b, t1, t2, t3, t4}));
        long[][] events = { // node, send, time, from, to, seq, ack, flags, len
            {0, 1, 1_000, 0, 1, 100, 7, 0x18, 50},          // t1
            {1, 0, off + 1_400, 0, 1, 100, 7, 0x18, 50},    // t2
            {1, 1, off + 1_900, 1, 0, 7, 150, 0x18, 30},    // t3: a reply acknowledging 150
            {0, 0, 2_200, 1, 0, 7, 150, 0x18, 30},          // t4
            {0, 1, 2_300, 0, 1, 150, 37, 0x10, 0},          // a acknowledges the reply
            {1, 0, off + 2_650, 0, 1, 150, 37, 0x10, 0},
        };
        java.util.Arrays.sort(events, java.util.Comparator.comparingLong(e -> e[2]));
        for (long[] e : events) {
            seg((int) e[0], e[1] == 1, e[2], (int) e[3], (int) e[4], e[5], e[6], (int) e[7], (int) e[8]);
        }
        m.finish();
        assertThat(m.exchanges()).isEqualTo(2);
        assertThat(got).containsExactlyInAnyOrder(new long[] {0, 1, 1_000, off + 1_400, off + 1_900, 2_200},
                new long[] {1, 0, off + 1_900, 2_200, 2_300, off + 2_650});
        assertThat(m.tcpSegments()).isEqualTo(6);
        assertThat(m.roundTrips().minimum(0, 1)).isEqualTo(650); // (2650 − 1900) − (2300 − 2200); the other 700
    }

    @Test
    void anAckCountsOnceEvenWhenTwoSegmentsCarryIt() {
        seg(0, true, 1_000, 0, 1, 100, 7, 0x18, 50);
        seg(1, false, 1_400, 0, 1, 100, 7, 0x18, 50);
        seg(1, true, 1_900, 1, 0, 7, 150, 0x10, 0); // pure ack of 150: rtt 1200 - 500
        seg(0, false, 2_200, 1, 0, 7, 150, 0x10, 0);
        seg(1, true, 2_000, 1, 0, 7, 150, 0x18, 20); // data that carries ack 150 again
        seg(0, false, 2_150, 1, 0, 7, 150, 0x18, 20);
        m.finish();
        assertThat(out).hasSize(3);
        assertThat(m.exchanges()).isEqualTo(1);
        assertThat(m.roundTrips().minimum(0, 1)).isEqualTo(700);
    }

    @Test
    void twoDataMessagesExpectingTheSameAckGiveNoExchange() {
        // nodes 0 and 2 both send on address 0's connection (a duplicated address), both segments
        // ending at 150: the ack of 150 that node 2 receives cannot tell which one it covers
        seg(0, true, 1_000, 0, 1, 100, 7, 0x18, 50);
        seg(1, false, 1_400, 0, 1, 100, 7, 0x18, 50);
        seg(2, true, 1_100, 0, 1, 120, 7, 0x18, 30);
        seg(1, false, 1_500, 0, 1, 120, 7, 0x18, 30);
        seg(1, true, 1_900, 1, 0, 7, 150, 0x10, 0);
        seg(2, false, 2_200, 1, 0, 7, 150, 0x10, 0);
        m.finish();
        assertThat(out).hasSize(3);
        assertThat(m.exchanges()).isZero();
    }

    @Test
    void memoryStaysBoundedByTheWindow() {
        long step = 1_000_000; // one segment per ms: 1000 per window
        for (int i = 0; i < 200_000; i++) {
            long t = i * step;
            seg(0, true, t, 0, 1, i * 10L, 1, 0x10, 10);
            seg(1, false, t + 100, 0, 1, i * 10L, 1, 0x10, 10);
        }
        m.finish();
        assertThat(m.matched()).isEqualTo(200_000);
        assertThat(m.peakKeys()).isLessThanOrEqualTo((int) (W / step) + 2);
    }

    /**
     * Property: on time-ordered input whose counterparts are all within the window and without
     * retransmission, the bounded matcher finds exactly what the unbounded KeyMatcher finds.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void agreesWithKeyMatcherWithinTheWindow(long seed) {
        Random rnd = new Random(seed);
        long[] offset = {0, rnd.nextInt(100_000_000), -rnd.nextInt(100_000_000)};
        record Ev(int node, long t, boolean send, int from, int to, long seq, long ack, int flags, int len) {
        }
        List<Ev> evs = new ArrayList<>();
        long[][] nextSeq = new long[3][3];
        long trueTime = 1_000_000_000_000L;
        for (int i = 0; i < 5_000; i++) {
            trueTime += rnd.nextInt(200_000);
            int a = rnd.nextInt(3);
            int b = (a + 1 + rnd.nextInt(2)) % 3;
            int len = rnd.nextInt(4) == 0 ? 0 : 1 + rnd.nextInt(1400);
            long seq = nextSeq[a][b];
            nextSeq[a][b] = (seq + len) & 0xffffffffL;
            int flags = len == 0 ? 0x10 : 0x18;
            long lat = 20_000 + rnd.nextInt(500_000);
            boolean lost = rnd.nextInt(20) == 0;
            boolean dupRecv = rnd.nextInt(30) == 0;
            evs.add(new Ev(a, trueTime + offset[a], true, a, b, seq, 0, flags, len));
            if (!lost) {
                evs.add(new Ev(b, trueTime + lat + offset[b], false, a, b, seq, 0, flags, len));
            }
            if (dupRecv) {
                evs.add(new Ev(b, trueTime + lat + 1 + offset[b], false, a, b, seq, 0, flags, len));
            }
        }
        evs.sort((x, y) -> Long.compare(x.t(), y.t()));
        KeyMatcher km = new KeyMatcher();
        Set<Message> expected = new HashSet<>();
        List<Message> got = new ArrayList<>();
        TcpMatcher tm = new TcpMatcher(3, W, (s, r, ts, tr) -> got.add(new Message(s, r, ts, tr)));
        for (Ev e : evs) {
            int sp = e.from() * 1000 + e.to();
            int dp = e.to() * 1000 + e.from();
            tm.segment(e.node(), e.send(), e.t(), e.from(), e.to(), sp, dp, e.seq(), e.ack(), e.flags(), e.len());
            km.add(e.node(), new NetEvent(e.send() ? Direction.SEND : Direction.RECEIVE, e.t(),
                    new TcpSegmentKey(new byte[] {(byte) e.from()}, new byte[] {(byte) e.to()}, sp, dp, e.seq(),
                            e.ack(), e.flags(), e.len())));
        }
        tm.finish();
        km.finish((s, r, ts, tr) -> expected.add(new Message(s, r, ts, tr)));
        assertThat(got).doesNotHaveDuplicates();
        assertThat(new HashSet<>(got)).isEqualTo(expected);
        assertThat(tm.ambiguous()).isEqualTo(km.ambiguous());
        assertThat(expected).hasSizeGreaterThan(3_000);
    }

    /**
     * The keys left at the end are decided by {@link TcpMatcher#finish} with their slots read
     * ahead, several runs of them: the messages, their order and the exchanges are those of the
     * same keys decided one by one as the window passes them (a last event after the window).
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void finishingDecidesAsTheWindowDoes(long seed) {
        List<long[]> viaFinish = new ArrayList<>();
        List<long[]> viaWindow = new ArrayList<>();
        TcpMatcher[] ms = new TcpMatcher[2];
        for (int v = 0; v < 2; v++) {
            List<long[]> got = v == 0 ? viaFinish : viaWindow;
            TcpMatcher tm = new TcpMatcher(2, W, (s, r, ts, tr) -> got.add(new long[] {s, r, ts, tr}));
            tm.exchangesTo((a, b, t1, t2, t3, t4) -> got.add(new long[] {-1, a, b, t1, t2, t3, t4}));
            Random rnd = new Random(seed);
            EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
            long t = 1_000_000;
            long seqA = rnd.nextInt();
            for (int i = 0; i < 700; i++) { // 1,400 keys: about 22 runs of keys to decide at the end
                int len = 1 + rnd.nextInt(1400);
                t += rnd.nextInt(500_000);
                block.addSegment(0, true, t, 0, 1, 1000, 2000, seqA, 7, 0x18, len);
                block.addSegment(1, false, t + 30_000, 0, 1, 1000, 2000, seqA, 7, 0x18, len);
                seqA = (seqA + len) & 0xffffffffL;
                block.addSegment(1, true, t + 40_000, 1, 0, 2000, 1000, 7, seqA, 0x10, 0);
                block.addSegment(0, false, t + 70_000 + rnd.nextInt(1000), 1, 0, 2000, 1000, 7, seqA, 0x10, 0);
                if (block.isFull()) {
                    tm.match(block, null);
                    block.clear();
                }
            }
            if (v == 1) { // an unrelated late segment: the window passes every key above
                block.addSegment(0, true, t + 2 * W, 0, 1, 1001, 2001, 1, 1, 0x10, 0);
            }
            tm.match(block, null);
            tm.finish();
            ms[v] = tm;
        }
        assertThat(ms[0].matched()).isEqualTo(1_400);
        assertThat(ms[1].matched()).isEqualTo(1_400);
        assertThat(ms[0].exchanges()).isEqualTo(ms[1].exchanges()).isGreaterThan(600);
        assertThat(viaFinish).hasSize(1_400 + (int) ms[0].exchanges());
        assertThat(viaFinish).containsExactlyElementsOf(viaWindow);
    }

    /**
     * Acknowledgements look up the exchange cache only on connections some decided data message
     * waits on ({@code ConnectionSet}): the same messages, in the same order, the same exchanges
     * and round-trip minima as looking up every acknowledgement. The stream mixes connections
     * with traffic both ways (exchanges), one-way connections (acknowledgements that can match
     * nothing), and enough data messages in the window that entries of the 65,536-slot cache are
     * overwritten (exchanges lost to collisions, which the filter must not bring back), with
     * acknowledgements both before and after their connection's first data message is decided.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void acknowledgementsLookUpOnlyWhereDataWaits(long seed) {
        List<List<long[]>> got = new ArrayList<>();
        TcpMatcher[] ms = new TcpMatcher[2];
        for (int v = 0; v < 2; v++) {
            List<long[]> out = new ArrayList<>();
            got.add(out);
            TcpMatcher tm = new TcpMatcher(4, W, (s, r, ts, tr) -> out.add(new long[] {s, r, ts, tr}));
            tm.exchangesTo((a, b, t1, t2, t3, t4) -> out.add(new long[] {-1, a, b, t1, t2, t3, t4}));
            if (v == 1) {
                tm.lookUpEveryAcknowledgement();
            }
            Random rnd = new Random(seed);
            EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
            int connections = 300;
            long[] seq = new long[connections];
            long[] peerSeq = new long[connections];
            for (int k = 0; k < connections; k++) {
                seq[k] = rnd.nextInt() & 0xffffffffL;
                peerSeq[k] = rnd.nextInt() & 0xffffffffL;
            }
            long t = 1_000_000;
            List<long[]> pending = new ArrayList<>(); // {time, node, send, src, dst, sport, dport, seq, ack, flags, len}
            for (int i = 0; i < 150_000; i++) {
                t += rnd.nextInt(20_000);
                int k = rnd.nextInt(connections);
                int a = k % 4;
                int b = (a + 1 + k / 4 % 3) % 4;
                int sport = 1000 + k;
                int dport = 5000 + k;
                boolean twoWay = k % 3 != 0; // a third of the connections never answer
                int len = 1 + rnd.nextInt(1400);
                long s0 = seq[k];
                seq[k] = (s0 + len) & 0xffffffffL;
                long lat = 30_000 + rnd.nextInt(200_000);
                pending.add(new long[] {t, a, 1, a, b, sport, dport, s0, peerSeq[k], 0x18, len});
                pending.add(new long[] {t + lat, b, 0, a, b, sport, dport, s0, peerSeq[k], 0x18, len});
                if (twoWay && rnd.nextInt(4) != 0) {
                    // the acknowledgement, sometimes more than the window later (no exchange then)
                    long at = t + lat + 10_000 + (rnd.nextInt(50) == 0 ? 2 * W : rnd.nextInt(100_000));
                    long lat2 = 30_000 + rnd.nextInt(200_000);
                    pending.add(new long[] {at, b, 1, b, a, dport, sport, peerSeq[k], seq[k], 0x10, 0});
                    pending.add(new long[] {at + lat2, a, 0, b, a, dport, sport, peerSeq[k], seq[k], 0x10, 0});
                }
            }
            pending.sort((x, y) -> Long.compare(x[0], y[0]));
            for (long[] e : pending) {
                block.addSegment((int) e[1], e[2] == 1, e[0], (int) e[3], (int) e[4], (int) e[5], (int) e[6], e[7], e[8],
                        (int) e[9], (int) e[10]);
                if (block.isFull()) {
                    tm.match(block, null);
                    block.clear();
                }
            }
            tm.match(block, null);
            tm.finish();
            ms[v] = tm;
        }
        assertThat(ms[0].exchanges()).isEqualTo(ms[1].exchanges()).isGreaterThan(10_000);
        assertThat(ms[0].matched()).isEqualTo(ms[1].matched()).isGreaterThan(150_000);
        assertThat(got.get(0)).hasSameSizeAs(got.get(1));
        for (int i = 0; i < got.get(0).size(); i++) {
            assertThat(got.get(0).get(i)).as("call %d", i).containsExactly(got.get(1).get(i));
        }
        for (int a = 0; a < 4; a++) {
            for (int b = 0; b < 4; b++) {
                assertThat(ms[0].roundTrips().known(a, b)).isEqualTo(ms[1].roundTrips().known(a, b));
                assertThat(ms[0].roundTrips().exchanges(a, b)).isEqualTo(ms[1].roundTrips().exchanges(a, b));
                if (ms[0].roundTrips().known(a, b)) {
                    assertThat(ms[0].roundTrips().minimum(a, b)).isEqualTo(ms[1].roundTrips().minimum(a, b));
                }
            }
        }
    }

    /**
     * A data message whose cache entry no later data message writes is still found by its
     * acknowledgement however many data messages were decided in between (here 140,000, more than
     * the records the cache keeps them in: the record of an entry nobody wrote again must not be
     * written over), as when the entries were written in place; and an acknowledgement whose entry
     * was written again by another data message finds nothing.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anEntryNotWrittenAgainOutlivesAnyNumberOfDataMessages(boolean overwrite) {
        long w = 100 * W;
        List<long[]> got = new ArrayList<>();
        TcpMatcher tm = new TcpMatcher(4, w, (s, r, ts, tr) -> { });
        tm.exchangesTo((a, b, t1, t2, t3, t4) -> got.add(new long[] {a, b, t1, t2, t3, t4}));
        EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
        long seqD = 123_456;
        int lenD = 100;
        long ackNo = seqD + lenD;
        // the slot the data message waits in: its reversed connection and the number it expects
        int slotD = KeyWindow.hash(TcpMatcher.connection(1, 0, 2000, 1000), ackNo, 0) & 0xffff;
        block.addSegment(0, true, 1_000_000_000L, 0, 1, 1000, 2000, seqD, 9, 0x18, lenD);
        block.addSegment(1, false, 1_000_050_000L, 0, 1, 1000, 2000, seqD, 9, 0x18, lenD);
        long t = 1_001_000_000L;
        long seq = 1;
        int written = 0;
        for (int i = 0; written < 140_000; i++) {
            // data messages between nodes 2 and 3 (never acknowledged): the last one on the data
            // message's entry when it must be written again, every other one elsewhere
            int len = 1 + i % 1000;
            long expected = (seq + len) & 0xffffffffL;
            int slot = KeyWindow.hash(TcpMatcher.connection(3, 2, 6000, 5000), expected, 0) & 0xffff;
            boolean wanted = written < 139_999 ? slot != slotD : slot == slotD || !overwrite;
            if (wanted) {
                t += 100_000;
                block.addSegment(2, true, t, 2, 3, 5000, 6000, seq, 1, 0x18, len);
                block.addSegment(3, false, t + 40_000, 2, 3, 5000, 6000, seq, 1, 0x18, len);
                written++;
                if (block.size() > block.capacity() - 4) {
                    tm.match(block, null);
                    block.clear();
                }
                seq = expected;
            } else {
                seq = (seq + 1 + i % 7) & 0xffffffffL; // a gap, not sent
            }
        }
        // the acknowledgement, 20 s later, well within the window
        block.addSegment(1, true, 21_000_000_000L, 1, 0, 2000, 1000, 9, ackNo, 0x10, 0);
        block.addSegment(0, false, 21_000_070_000L, 1, 0, 2000, 1000, 9, ackNo, 0x10, 0);
        tm.match(block, null);
        tm.finish();
        assertThat(tm.matched()).isEqualTo(140_000 + 2);
        if (overwrite) {
            assertThat(tm.exchanges()).isZero();
        } else {
            assertThat(tm.exchanges()).isEqualTo(1);
            assertThat(got.get(0)).containsExactly(0, 1, 1_000_000_000L, 1_000_050_000L, 21_000_000_000L,
                    21_000_070_000L);
        }
    }
}
