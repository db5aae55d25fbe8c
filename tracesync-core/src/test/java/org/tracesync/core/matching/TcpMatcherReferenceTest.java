package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link TcpMatcher} against a reference written here from the rule its class comment states,
 * on seeded random streams: a {@link LinkedHashMap} of keys in first-event order, a map of flows
 * for retransmissions and a map standing for the exchange cache's slots. Every message in order,
 * every exchange with its four times, every count, the peak of keys and the round-trip minima
 * must be equal. The streams have what decides where a key lives in the matcher's
 * {@link ConnectionRings} (in a connection's ring, in the probe table, or found again after new
 * anchors): several connections in both directions between two or three captures, lost and
 * duplicated segments, duplicate ACKs, retransmissions, reordering at the receiver, sequence
 * numbers that wrap (and connections of huge segments whose order values run out of their
 * anchors' range), new ISNs on the same ports, clock offsets smaller and larger than the latency,
 * one capture's clock stepping back, a third capture that sees other hosts' segments, small key
 * limits, a table of connections too small for all of them (their keys go to the table), and keys
 * that are not TCP segments (message ids, segments without addresses) mixed in.
 */
class TcpMatcherReferenceTest {

    private static final int ACK = 0x10;

    @ParameterizedTest(name = "seed {0}: {1} captures, window {2} ns, key limit {3}, offsets {4}, block {5}, "
            + "connection slots {6}, idle connections {7}")
    @CsvSource({
        "1, 2, 1000000000, 0, 0, 4096, 0, false",
        "2, 3, 200000000, 0, 1, 4096, 0, false",
        "3, 3, 20000000, 0, 2, 97, 16, false",
        "4, 2, 2000000000, 0, 2, 4096, 0, false",
        "5, 3, 500000000, 300, 1, 4096, 0, false",
        "6, 3, 100000000, 0, 0, 1, 0, false",
        "7, 2, 50000000, 40, 1, 333, 16, false",
        "8, 3, 1000000000, 0, 2, 4096, 32, false",
        "9, 3, 300000000, 2000, 0, 4096, 0, false",
        "10, 2, 5000000000, 0, 1, 1000, 0, false",
        "11, 3, 30000000, 0, 1, 4096, 16, false",
        "12, 3, 2000000000, 0, 0, 4096, 0, false",
        "13, 2, 100000000, 0, 0, 4096, 0, true",
        "14, 3, 200000000, 0, 1, 4096, 0, true",
        "15, 3, 50000000, 0, 2, 511, 16, true",
        "16, 3, 1000000000, 500, 1, 4096, 0, true",
        "17, 2, 20000000, 0, 2, 64, 32, true",
    })
    void sameAsTheReference(long seed, int nodes, long window, int keyLimit, int offsets, int blockSize,
                            int connectionSlots, boolean idle) {
        List<EventBlock> blocks = stream(seed, nodes, window, offsets, blockSize, idle);
        int limit = keyLimit > 0 ? keyLimit : Integer.MAX_VALUE;

        List<long[]> messages = new ArrayList<>();
        List<long[]> exchanges = new ArrayList<>();
        TcpMatcher m = new TcpMatcher(nodes, window, limit, (s, r, t1, t2) -> messages.add(new long[] {s, r, t1, t2}));
        m.exchangesTo((a, b, t1, t2, t3, t4) -> exchanges.add(new long[] {a, b, t1, t2, t3, t4}));
        if (connectionSlots > 0) {
            // fewer live connections than the stream has: the others' keys go to the table
            m.connections().maxSlots(connectionSlots);
        }
        Reference ref = new Reference(nodes, window, limit);
        for (EventBlock b : blocks) {
            m.match(b, null);
            for (int i = 0; i < b.size(); i++) {
                ref.event(b.nodeOf(i), b.isSend(i), b.time(i), b.keyA(i), b.keyB(i), b.keyC(i));
            }
        }
        m.finish();
        ref.finish();

        assertThat(messages).hasSameSizeAs(ref.messages);
        for (int i = 0; i < messages.size(); i++) {
            assertThat(messages.get(i)).as("message %d", i).containsExactly(ref.messages.get(i));
        }
        assertThat(exchanges).hasSameSizeAs(ref.exchanges);
        for (int i = 0; i < exchanges.size(); i++) {
            assertThat(exchanges.get(i)).as("exchange %d", i).containsExactly(ref.exchanges.get(i));
        }
        assertThat(new long[] {m.events(), m.matched(), m.ambiguous(), m.retransmissions(), m.duplicateEvents(),
            m.sameNode(), m.evictedUnmatched(), m.unmatchedAtEnd(), m.exchanges(), m.peakKeys(), m.limitEvictions(),
            m.limitUnmatched(), m.tcpSegments()})
                .containsExactly(ref.events, ref.matched, ref.ambiguous, ref.retransmissions, ref.duplicateEvents,
                        ref.sameNode, ref.evictedUnmatched, ref.unmatchedAtEnd, ref.exchangeCount, ref.peakKeys,
                        ref.limitEvictions, ref.limitUnmatched, ref.tcpSegments);
        RoundTripMinima rt = m.roundTrips();
        for (int a = 0; a < nodes; a++) {
            for (int b = 0; b < nodes; b++) {
                long[] want = ref.roundTrips.get((long) Math.min(a, b) * nodes + Math.max(a, b));
                assertThat(rt.known(a, b)).isEqualTo(want != null);
                if (want != null) {
                    assertThat(new long[] {rt.minimum(a, b), rt.exchanges(a, b)}).containsExactly(want);
                }
            }
        }

        // the streams exercise what they are meant to
        assertThat(m.matched()).isGreaterThan(2_000);
        assertThat(m.ambiguous()).isGreaterThan(0);
        assertThat(m.retransmissions()).isGreaterThan(0);
        assertThat(m.exchanges()).isGreaterThan(0);
        assertThat(m.evictedUnmatched() + m.limitUnmatched() + m.unmatchedAtEnd()).isGreaterThan(0);
        if (keyLimit > 0) {
            assertThat(m.limitEvictions()).isGreaterThan(0);
        }
        ConnectionRings c = m.connections();
        assertThat(List.of(c.searches, c.tableLookups, c.reanchors, c.guardedLookups, c.rebuilds))
                .as("searches, table lookups, new anchors, guarded lookups, rebuilds").allMatch(n -> n > 0);
        if (connectionSlots > 0) {
            assertThat(c.withoutStateKeys).isGreaterThan(0);
        }
    }

    /** The rule of {@link TcpMatcher}'s class comment, kept in maps. */
    private static final class Reference {
        final int nodes;
        final long window;
        final int maxKeys;
        /** Live keys in first-event order. */
        final LinkedHashMap<Key, State> keys = new LinkedHashMap<>();
        /** (node, connection direction) to {next expected sequence number, last time}. */
        final Map<Flow, long[]> flows = new HashMap<>();
        long lastSweep = Long.MIN_VALUE;
        /** The exchange cache: slot to {reversed connection, expected ack, state (1 waits, 2 used), from, to, t2 − t1, decision time, t1}. */
        final Map<Integer, long[]> cache = new HashMap<>();
        /** Per unordered pair of nodes: {least round trip, exchanges}. */
        final Map<Long, long[]> roundTrips = new HashMap<>();
        final List<long[]> messages = new ArrayList<>();
        final List<long[]> exchanges = new ArrayList<>();
        long now = Long.MIN_VALUE;
        boolean finishing;
        long events;
        long matched;
        long ambiguous;
        long retransmissions;
        long duplicateEvents;
        long sameNode;
        long evictedUnmatched;
        long unmatchedAtEnd;
        long exchangeCount;
        long peakKeys;
        long limitEvictions;
        long limitUnmatched;
        long tcpSegments;

        record Key(long a, long b, long c) {
        }

        record Flow(int node, long a) {
        }

        static final class State {
            long inserted;
            int sends;
            int recvs;
            int sendNode = -1;
            int recvNode = -1;
            long sendTime;
            long recvTime;
            boolean retransmitted;
        }

        Reference(int nodes, long window, int maxKeys) {
            this.nodes = nodes;
            this.window = window;
            this.maxKeys = maxKeys;
        }

        void event(int node, boolean send, long time, long a, long b, long c) {
            events++;
            if (time > now) {
                now = time;
                while (!keys.isEmpty() && keys.values().iterator().next().inserted < now - window) {
                    decideOldest();
                }
            }
            boolean tcp = c >= 0;
            if (tcp) {
                tcpSegments++;
            }
            boolean retrans = send && tcp && retransmission(node, a, b >>> 32, (int) c, (int) (c >>> 32), time);
            Key k = new Key(a, b, c);
            State s = keys.get(k);
            boolean inserted = s == null;
            if (inserted) {
                s = new State();
                s.inserted = time;
                keys.put(k, s);
            }
            if (retrans) {
                s.retransmitted = true;
                retransmissions++;
            }
            if (send) {
                s.sends++;
                s.sendNode = node;
                s.sendTime = time;
            } else {
                s.recvs++;
                s.recvNode = node;
                s.recvTime = time;
            }
            if (inserted) {
                if (keys.size() > maxKeys) {
                    limitEvictions++;
                    decideOldest();
                }
                peakKeys = Math.max(peakKeys, keys.size());
            }
        }

        /** A data segment (or SYN, FIN) starting before its flow's next expected sequence number; flows idle a window are forgotten, swept once per window. */
        boolean retransmission(int node, long a, long seq, int len, int flags, long time) {
            if (lastSweep == Long.MIN_VALUE || time - lastSweep > window) {
                if (lastSweep != Long.MIN_VALUE) {
                    flows.values().removeIf(f -> f[1] < time - window);
                }
                lastSweep = time;
            }
            long span = len + ((flags & 0x02) != 0 ? 1 : 0) + ((flags & 0x01) != 0 ? 1 : 0);
            long end = (seq + span) & 0xffffffffL;
            long[] f = flows.get(new Flow(node, a));
            if (f == null) {
                flows.put(new Flow(node, a), new long[] {end, time});
                return false;
            }
            f[1] = time;
            boolean retrans = span > 0 && (int) (seq - f[0]) < 0;
            if ((int) (end - f[0]) > 0) {
                f[0] = end;
            }
            return retrans;
        }

        void decideOldest() {
            Iterator<Map.Entry<Key, State>> it = keys.entrySet().iterator();
            Map.Entry<Key, State> e = it.next();
            it.remove();
            Key k = e.getKey();
            State s = e.getValue();
            if (s.sends == 1 && s.recvs == 1 && !s.retransmitted && s.sendNode != s.recvNode) {
                matched++;
                messages.add(new long[] {s.sendNode, s.recvNode, s.sendTime, s.recvTime});
                if (k.c() >= 0) {
                    exchange(s.inserted, s.sendNode, s.recvNode, s.sendTime, s.recvTime, k);
                }
            } else if (s.retransmitted && s.sends > 0 && s.recvs > 0) {
                ambiguous++;
                duplicateEvents += s.sends + s.recvs - 2;
            } else if (s.sends == 0 || s.recvs == 0) {
                if (finishing) {
                    unmatchedAtEnd++;
                } else if (s.inserted >= now - window) {
                    limitUnmatched++;
                } else {
                    evictedUnmatched++;
                }
                duplicateEvents += Math.max(0, Math.max(s.sends, s.recvs) - 1);
            } else if (s.sends > 1 || s.recvs > 1) {
                ambiguous++;
                duplicateEvents += s.sends + s.recvs - 2;
            } else {
                sameNode++;
            }
        }

        /** A message with ACK completes the data message waiting for its ack number; a data message waits (its slot taken over). */
        void exchange(long decided, int from, int to, long t1, long t2, Key k) {
            int flags = (int) (k.c() >>> 32);
            int len = (int) k.c();
            if ((flags & ACK) != 0) {
                long ackNo = k.b() & 0xffffffffL;
                long[] w = cache.get(KeyWindow.hash(k.a(), ackNo, 0) & 0xffff);
                if (w != null && w[0] == k.a() && w[1] == ackNo && w[2] == 1 && w[3] == to && w[4] == from
                        && decided - w[6] <= window) {
                    long rtt = (t2 - t1) + w[5];
                    long[] min = roundTrips.computeIfAbsent((long) Math.min(to, from) * nodes + Math.max(to, from), p -> new long[] {Long.MAX_VALUE, 0});
                    min[0] = Math.min(min[0], rtt);
                    min[1]++;
                    exchangeCount++;
                    exchanges.add(new long[] {to, from, w[7], w[7] + w[5], t1, t2});
                    w[2] = 2;
                }
            }
            if (len > 0) {
                long a = k.a();
                long reversed = (a >>> 32 & 0xffff) << 48 | (a >>> 48) << 32 | (a & 0xffff) << 16 | (a >>> 16 & 0xffff);
                long expected = ((k.b() >>> 32) + len) & 0xffffffffL;
                int slot = KeyWindow.hash(reversed, expected, 0) & 0xffff;
                long[] w = cache.get(slot);
                boolean same = w != null && w[0] == reversed && w[1] == expected && decided - w[6] <= window;
                cache.put(slot, new long[] {reversed, expected, same ? 2 : 1, from, to, t2 - t1, decided, t1});
            }
        }

        void finish() {
            finishing = true;
            while (!keys.isEmpty()) {
                decideOldest();
            }
        }
    }

    /** One capture's event before the merge. */
    private record Ev(long t, int node, boolean send, int kind, int src, int dst, int sport, int dport, long seq,
                      long ack, int flags, int len) {
    }

    /**
     * About 40,000 steps of traffic on 12 to 40 connections (both directions), each captured by
     * its sender and its receiver on their own clocks and merged by the captures' head times,
     * into blocks of {@code blockSize}. {@code offsets}: 0, clocks apart by less than the latency;
     * 1, by more; 2, by up to a third of the window.
     */
    private static List<EventBlock> stream(long seed, int nodes, long window, int offsets, int blockSize,
                                           boolean idle) {
        SplittableRandom r = new SplittableRandom(seed);
        long latency = 200_000;
        long[] offset = new long[nodes];
        for (int n = 1; n < nodes; n++) {
            long scale = offsets == 0 ? latency / 4 : offsets == 1 ? 20 * latency : window / 3;
            offset[n] = r.nextLong(-scale, scale + 1);
        }
        // one capture's clock steps back by up to two windows, once
        int stepper = r.nextInt(nodes);
        long start = 1_000_000_000_000L;
        long stepAt = start + r.nextLong(20_000 * Math.max(100_000, window / 2_000));
        long stepBy = r.nextLong(1, 2 * window);
        List<List<Ev>> perNode = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            perNode.add(new ArrayList<>());
        }
        int conns = 12 + r.nextInt(29);
        int[] host = new int[2 * conns];
        long[] next = new long[2 * conns]; // next sequence number per direction
        long[] lastSeq = new long[2 * conns];
        int[] lastLen = new int[2 * conns];
        int[] lastFlags = new int[2 * conns];
        long[] lastAck = new long[2 * conns];
        // with idle: a connection direction now and then sends nothing for half a window to two windows
        long[] quietUntil = new long[2 * conns];
        boolean[] huge = new boolean[conns];
        for (int k = 0; k < conns; k++) {
            host[2 * k] = r.nextInt(nodes);
            host[2 * k + 1] = (host[2 * k] + 1 + r.nextInt(nodes - 1)) % nodes;
            // some start just below the wrap of 32 bits
            next[2 * k] = r.nextInt(4) == 0 ? (1L << 32) - r.nextLong(100_000) : r.nextLong(1L << 32);
            next[2 * k + 1] = r.nextLong(1L << 32);
            huge[k] = k % 10 == 3; // segments of up to 16 MB: order values run past their anchors' range
        }
        long t = start;
        long ids = 0;
        // the stream spans at least ten windows (keys die, rings drain)
        long gap = Math.max(100_000, window / 2_000);
        for (int step = 0; step < 40_000; step++) {
            t += r.nextLong(gap);
            if (r.nextInt(20) == 0) {
                // a key that is not a TCP segment: a message id (sometimes one seen before) or a segment without addresses
                int from = r.nextInt(nodes);
                int to = (from + 1 + r.nextInt(nodes - 1)) % nodes;
                long id = r.nextInt(4) == 0 && ids > 0 ? r.nextLong(ids) : ids++;
                int kind = r.nextBoolean() ? 1 : 2;
                perNode.get(from).add(new Ev(t, from, true, kind, 0, 0, 0, 0, id, id * 7, 0x18, 0));
                perNode.get(to).add(new Ev(t + latency, to, false, kind, 0, 0, 0, 0, id, id * 7, 0x18, 0));
                continue;
            }
            int k = r.nextInt(conns);
            int d = 2 * k + r.nextInt(2);
            int o = d ^ 1;
            if (idle) {
                if (t < quietUntil[d]) {
                    continue;
                }
                if (r.nextInt(400) == 0) {
                    quietUntil[d] = t + window / 2 + r.nextLong(2 * window);
                }
            }
            int src = host[d];
            int dst = host[o];
            int sport = d % 2 == 0 ? 30_000 + k : 80;
            int dport = d % 2 == 0 ? 80 : 30_000 + k;
            int what = r.nextInt(100);
            long seq;
            long ack = next[o];
            int flags = ACK;
            int len = 0;
            if (what < 55) {
                // data
                len = huge[k] ? 1 + r.nextInt(1 << 24) : 1 + r.nextInt(1460);
                flags = ACK | 0x08;
                seq = next[d];
                next[d] = (next[d] + len) & 0xffffffffL;
            } else if (what < 82) {
                seq = next[d]; // a pure ACK
            } else if (what < 90 && lastFlags[d] != 0) {
                // the last segment again: a duplicate ACK, or data sent again under the same key
                seq = lastSeq[d];
                len = lastLen[d];
                flags = lastFlags[d];
                ack = lastAck[d];
            } else if (what < 95) {
                // a retransmission of earlier data with the current ack (a new key)
                len = 1 + r.nextInt(1460);
                seq = (next[d] - len - r.nextInt(20_000)) & 0xffffffffL;
                flags = ACK | 0x08;
            } else if (what < 97) {
                // a new connection on the same ports: a new ISN, a SYN
                next[d] = r.nextLong(1L << 32);
                seq = next[d];
                flags = 0x02;
                next[d] = (next[d] + 1) & 0xffffffffL;
            } else if (what < 98) {
                seq = next[d]; // a FIN
                flags = ACK | 0x01;
                next[d] = (next[d] + 1) & 0xffffffffL;
            } else {
                seq = next[d]; // an ACK that acknowledges a little more (a new key, same seq)
                ack = (ack + 1 + r.nextInt(3)) & 0xffffffffL;
            }
            lastSeq[d] = seq;
            lastLen[d] = len;
            lastFlags[d] = flags;
            lastAck[d] = ack;
            if (r.nextInt(50) != 0) { // the sender's capture misses a few
                perNode.get(src).add(new Ev(t, src, true, 0, src, dst, sport, dport, seq, ack, flags, len));
            }
            if (r.nextInt(30) != 0) { // lost on the way
                // jitter up to half a millisecond: the receiver sees some segments out of order
                long arrive = t + latency + r.nextLong(500_000);
                perNode.get(dst).add(new Ev(arrive, dst, false, 0, src, dst, sport, dport, seq, ack, flags, len));
                if (r.nextInt(100) == 0) { // received twice
                    perNode.get(dst).add(new Ev(arrive + 10, dst, false, 0, src, dst, sport, dport, seq, ack, flags, len));
                }
            }
            if (nodes > 2 && r.nextInt(40) == 0) { // the third capture sees it too
                int third = 3 - src - dst;
                perNode.get(third).add(new Ev(t + latency / 2, third, false, 0, src, dst, sport, dport, seq, ack, flags, len));
            }
        }
        // each capture in its own order (true time), stamped with its clock
        List<List<long[]>> stamped = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            List<Ev> evs = perNode.get(n);
            evs.sort((x, y) -> Long.compare(x.t(), y.t()));
            List<long[]> s = new ArrayList<>();
            for (int i = 0; i < evs.size(); i++) {
                Ev e = evs.get(i);
                long local = e.t() + offset[n] - (n == stepper && e.t() >= stepAt ? stepBy : 0);
                s.add(new long[] {local, i});
            }
            stamped.add(s);
        }
        // merged by the captures' head times
        List<EventBlock> blocks = new ArrayList<>();
        EventBlock block = new EventBlock(blockSize);
        int[] at = new int[nodes];
        while (true) {
            int best = -1;
            for (int n = 0; n < nodes; n++) {
                if (at[n] < stamped.get(n).size()
                        && (best < 0 || stamped.get(n).get(at[n])[0] < stamped.get(best).get(at[best])[0])) {
                    best = n;
                }
            }
            if (best < 0) {
                break;
            }
            long[] s = stamped.get(best).get(at[best]++);
            Ev e = perNode.get(best).get((int) s[1]);
            if (e.kind() == 1) {
                block.addMessageId(e.node(), e.send(), s[0], "m" + e.seq());
            } else if (e.kind() == 2) {
                block.addSegmentWithoutAddresses(e.node(), e.send(), s[0], e.seq(), e.ack(), e.flags());
            } else {
                block.addSegment(e.node(), e.send(), s[0], e.src(), e.dst(), e.sport(), e.dport(), e.seq(), e.ack(),
                        e.flags(), e.len());
            }
            if (block.isFull()) {
                blocks.add(block);
                block = new EventBlock(blockSize);
            }
        }
        blocks.add(block);
        return blocks;
    }
}
