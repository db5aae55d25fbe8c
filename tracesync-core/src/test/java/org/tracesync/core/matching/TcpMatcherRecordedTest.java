package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link TcpMatcher} on seeded generated streams gives, to the bit, what the matcher of
 * 2026-11-24 (main at 0cbcbd5, before the key table kept two generations instead of removing keys
 * one by one) gave on them: every message in order, every exchange with its four times, every
 * count, the peak of keys and the round-trip minima, folded into one digest recorded from that
 * build. The streams have what changes which key an event belongs to: three and four captures
 * (a third capture that also sees a segment between two others), retransmissions within and
 * beyond the window, duplicated receives, lost segments, acknowledgements that complete
 * exchanges and duplicated ones, clocks that step backwards (the merged stream's times go back),
 * windows from 20 ms to 2 s over 20 s of traffic (many generations of the table), a key limit,
 * application message ids beside the segments, and blocks of several sizes.
 */
class TcpMatcherRecordedTest {

    /** One event before the merge: a capture's own order. */
    private record Ev(long truth, long t, int node, boolean send, int src, int dst, int sport, int dport, long seq,
                      long ack, int flags, int len, long id) {
    }

    @ParameterizedTest(name = "seed {0}: {1} nodes, window {2} ns, key limit {3}, block {4}, {6} segments")
    @CsvSource({
        "1, 3, 1000000000, 0, 4096, 0x696e61498340b84, 30000",
        "2, 4, 200000000, 0, 4096, 0xa2aeb7650c48b2bc, 30000",
        "3, 3, 20000000, 0, 97, 0x7be64cd73265674f, 30000",
        "4, 4, 2000000000, 0, 4096, 0xa9a8a58e448ec2e8, 30000",
        "5, 3, 500000000, 600, 4096, 0x34ea9b650a6e373b, 30000",
        "6, 4, 100000000, 0, 1, 0x4049c9ffa20c48e4, 30000",
        "7, 3, 50000000, 60, 333, 0x2fc9e7bcdbfa93f5, 30000",
        "8, 4, 1000000000, 0, 4096, 0x1706a8c57210d42f, 30000",
        // about 200,000 data messages: the exchange cache's 65,536 entries written over three times
        "9, 3, 2000000000, 0, 4096, 0xfc88f22e2065a267, 400000",
        "10, 4, 5000000000, 0, 4096, 0x82c138b8989c29d6, 400000",
    })
    void sameAsTheRecordedMatcher(long seed, int nodes, long window, int keyLimit, int blockSize, String recorded,
                                  int segments) {
        long digest = run(seed, nodes, window, keyLimit, blockSize, segments);
        if (Boolean.getBoolean("tracesync.printDigests")) {
            System.out.printf("seed %d: 0x%016x%n", seed, digest);
        }
        assertThat(String.format("0x%x", digest)).isEqualTo(recorded);
    }

    private long run(long seed, int nodes, long window, int keyLimit, int blockSize, int segments) {
        List<Ev> merged = stream(seed, nodes, window, segments);
        long[] digest = {seed};
        TcpMatcher m = new TcpMatcher(nodes, window, keyLimit > 0 ? keyLimit : Integer.MAX_VALUE,
                (s, r, ts, tr) -> fold(digest, 1, s, r, ts, tr));
        m.exchangesTo((a, b, t1, t2, t3, t4) -> {
            fold(digest, 2, a, b, t1, t2);
            fold(digest, 3, t3, t4, 0, 0);
        });
        EventBlock block = new EventBlock(blockSize);
        for (Ev e : merged) {
            if (e.id() >= 0) {
                block.addMessageId(e.node(), e.send(), e.t(), "m" + e.id());
            } else {
                block.addSegment(e.node(), e.send(), e.t(), e.src(), e.dst(), e.sport(), e.dport(), e.seq(), e.ack(),
                        e.flags(), e.len());
            }
            if (block.isFull()) {
                m.match(block, null);
                block.clear();
            }
        }
        m.match(block, null);
        m.finish();
        fold(digest, 4, m.events(), m.matched(), m.ambiguous(), m.retransmissions());
        fold(digest, 5, m.duplicateEvents(), m.sameNode(), m.evictedUnmatched(), m.unmatchedAtEnd());
        fold(digest, 6, m.exchanges(), m.peakKeys(), m.limitEvictions(), m.limitUnmatched());
        fold(digest, 7, m.tcpSegments(), 0, 0, 0);
        RoundTripMinima rt = m.roundTrips();
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                fold(digest, 8, a, b, rt.known(a, b) ? rt.minimum(a, b) : -1, rt.exchanges(a, b));
            }
        }
        // the streams exercise what they are meant to (not a digest of nothing)
        assertThat(m.matched()).isGreaterThan(5_000);
        assertThat(m.ambiguous()).isGreaterThan(0);
        assertThat(m.retransmissions()).isGreaterThan(0);
        assertThat(m.exchanges()).isGreaterThan(0);
        if (keyLimit > 0) {
            assertThat(m.limitEvictions()).isGreaterThan(0);
        }
        return digest[0];
    }

    private static void fold(long[] d, long tag, long a, long b, long c, long e) {
        long h = d[0];
        for (long v : new long[] {tag, a, b, c, e}) {
            h = (h ^ v) * 0x100000001B3L;
            h ^= h >>> 29;
        }
        d[0] = h;
    }

    /**
     * {@code segments} segments, 30,000 over about 20 s, between {@code nodes} hosts, each captured by its sender
     * and its receiver with their clocks' offsets, merged by the captures' head times (so a
     * capture whose clock steps back puts times out of order in the merged stream).
     */
    private static List<Ev> stream(long seed, int nodes, long window, int segments) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] offset = new long[nodes];
        for (int n = 1; n < nodes; n++) {
            offset[n] = r.nextLong(-window / 2, window / 2 + 1);
        }
        // one capture's clock steps back by up to three windows, once, at a random time
        int stepper = r.nextInt(nodes);
        long stepAt = 1_000_000_000_000L + r.nextLong(20_000_000_000L);
        long stepBy = r.nextLong(1, 3 * window);
        List<List<Ev>> perNode = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            perNode.add(new ArrayList<>());
        }
        int conns = 12;
        long[] seq = new long[conns];
        long[] peer = new long[conns];
        for (int k = 0; k < conns; k++) {
            seq[k] = r.nextLong(1L << 32);
            peer[k] = r.nextLong(1L << 32);
        }
        long t = 1_000_000_000_000L;
        long ids = 0;
        for (int i = 0; i < segments; i++) {
            t += r.nextLong(1_300_000);
            int k = r.nextInt(conns);
            int a = k % nodes;
            int b = (a + 1 + (k / nodes) % (nodes - 1)) % nodes;
            int sport = 40_000 + k;
            int dport = 5_000 + k;
            if (r.nextInt(40) == 0) { // an application message id
                long id = r.nextInt(10) == 0 ? ids - r.nextInt(5) : ids++;
                add(perNode, offset, stepper, stepAt, stepBy, t, a, true, 0, 0, 0, 0, 0, 0, 0, 0, id);
                add(perNode, offset, stepper, stepAt, stepBy, t + 50_000, b, false, 0, 0, 0, 0, 0, 0, 0, 0, id);
                continue;
            }
            boolean data = r.nextInt(3) != 0;
            int len = data ? 1 + r.nextInt(1448) : 0;
            long s0 = seq[k];
            if (data && r.nextInt(60) == 0) {
                s0 = (s0 - len) & 0xffffffffL; // re-sends earlier sequence space under a new key
            } else {
                seq[k] = (s0 + len) & 0xffffffffL;
            }
            int flags = data ? 0x18 : 0x10;
            long lat = 30_000 + r.nextLong(400_000);
            boolean lost = r.nextInt(50) == 0;
            add(perNode, offset, stepper, stepAt, stepBy, t, a, true, a, b, sport, dport, s0, peer[k], flags, len, -1);
            if (!lost) {
                add(perNode, offset, stepper, stepAt, stepBy, t + lat, b, false, a, b, sport, dport, s0, peer[k], flags,
                        len, -1);
            }
            if (r.nextInt(80) == 0) { // the same key sent again, within or beyond the window
                long again = t + (r.nextBoolean() ? r.nextLong(window) : window + r.nextLong(window));
                add(perNode, offset, stepper, stepAt, stepBy, again, a, true, a, b, sport, dport, s0, peer[k], flags,
                        len, -1);
                add(perNode, offset, stepper, stepAt, stepBy, again + lat, b, false, a, b, sport, dport, s0, peer[k],
                        flags, len, -1);
            }
            if (r.nextInt(70) == 0) { // a duplicated receive
                add(perNode, offset, stepper, stepAt, stepBy, t + lat + 1_000, b, false, a, b, sport, dport, s0,
                        peer[k], flags, len, -1);
            }
            if (nodes > 2 && r.nextInt(90) == 0) { // a third capture sees it too
                int c = (b + 1) % nodes == a ? (b + 2) % nodes : (b + 1) % nodes;
                add(perNode, offset, stepper, stepAt, stepBy, t + lat / 2, c, false, a, b, sport, dport, s0, peer[k],
                        flags, len, -1);
            }
            if (data && r.nextInt(3) != 0) {
                // the acknowledgement b -> a on the same connection: completes an exchange
                long ackNo = (s0 + len) & 0xffffffffL;
                long at = t + lat + 5_000 + r.nextLong(200_000);
                long lat2 = 30_000 + r.nextLong(400_000);
                int copies = r.nextInt(25) == 0 ? 2 : 1;
                for (int cp = 0; cp < copies; cp++) {
                    add(perNode, offset, stepper, stepAt, stepBy, at + cp * 7_000, b, true, b, a, dport, sport, peer[k],
                            ackNo, 0x10, 0, -1);
                    add(perNode, offset, stepper, stepAt, stepBy, at + cp * 7_000 + lat2, a, false, b, a, dport, sport,
                            peer[k], ackNo, 0x10, 0, -1);
                }
                if (r.nextInt(5) == 0) {
                    peer[k] = (peer[k] + 1 + r.nextInt(500)) & 0xffffffffL; // b sends data of its own
                }
            }
        }
        for (List<Ev> evs : perNode) {
            evs.sort((x, y) -> Long.compare(x.truth(), y.truth())); // a capture records in true time order
        }
        return merge(perNode);
    }

    private static void add(List<List<Ev>> perNode, long[] offset, int stepper, long stepAt, long stepBy, long trueT,
                            int node, boolean send, int src, int dst, int sport, int dport, long seq, long ack,
                            int flags, int len, long id) {
        long local = trueT + offset[node] - (node == stepper && trueT >= stepAt ? stepBy : 0);
        perNode.get(node).add(new Ev(trueT, local, node, send, src, dst, sport, dport, seq, ack, flags, len, id));
    }

    /** Merges the captures, each in its own order, by their head events' times (ties: lower node). */
    private static List<Ev> merge(List<List<Ev>> perNode) {
        int n = perNode.size();
        int[] pos = new int[n];
        List<Ev> out = new ArrayList<>();
        while (true) {
            int best = -1;
            for (int k = 0; k < n; k++) {
                if (pos[k] < perNode.get(k).size()
                        && (best < 0 || perNode.get(k).get(pos[k]).t() < perNode.get(best).get(pos[best]).t())) {
                    best = k;
                }
            }
            if (best < 0) {
                return out;
            }
            out.add(perNode.get(best).get(pos[best]++));
        }
    }
}
