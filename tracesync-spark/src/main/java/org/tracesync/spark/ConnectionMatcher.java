package org.tracesync.spark;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.tracesync.core.matching.BroadcastMatcher;

/**
 * The one-machine {@code TcpMatcher}'s rules, applied to the events of one shuffle partition,
 * connection by connection: the partition holds every event of its connections (both directions,
 * every capture), sorted by connection, then the one-machine merge order (see {@link SegmentEvent}).
 *
 * <p><b>Rules</b> (those of {@code TcpMatcher}, to the letter where a rule depends only on one
 * connection's events): a key instance lives from its first event at t0 until the merged stream's
 * largest time passes t0 + W; an event joins it while it lives, else starts a new instance. An
 * instance seen exactly once as a send and once as a receive, on different nodes, with no send
 * flagged as a retransmission, is a message; more sends or receives make it ambiguous; one node on
 * both sides is same-node. A send is a retransmission when it carries data (or SYN/FIN) starting
 * before the highest sequence already sent by that node on that connection direction. Exchanges: a
 * data message a → b waits, for W of first-event time, for the unique acknowledgement b → a with
 * ack = seq + length. Instances are decided in the order of their first events, as the one-machine
 * matcher emits them.
 *
 * <p><b>Differences</b> (docs/SPARK.md): the one-machine matcher forgets a flow's highest sequence
 * at a periodic sweep (idle for between W and 2W, depending on the sweep times); here a flow idle
 * for more than W is forgotten. The one-machine matcher keeps waiting data messages in a
 * direct-mapped cache that may drop one for a newer one; here no exchange is lost, so the
 * round-trip minima may be smaller (more exchanges), never larger. Unmatched keys are not split
 * into "evicted" and "at end".
 *
 * <p>Cost: O(1) expected per event (hash maps per connection); memory: the keys of one connection
 * within W, plus its flows and waiting exchanges.
 */
final class ConnectionMatcher {

    private static final int ACK = 0x10;

    /** A key's instance: the same counts as a {@code KeyWindow} entry. */
    private static final class Instance {
        final long a;
        final long b;
        final long c;
        final long t0;
        final long firstOrder;
        final int firstNode;
        final long firstOffset;
        int sends;
        int recvs;
        boolean retransmitted;
        int sendNode = -1;
        int recvNode = -1;
        long sendTime;
        long recvTime;

        Instance(long a, long b, long c, long t0, long firstOrder, int firstNode, long firstOffset) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.t0 = t0;
            this.firstOrder = firstOrder;
            this.firstNode = firstNode;
            this.firstOffset = firstOffset;
        }
    }

    private record Key(long a, long b, long c) {
    }

    private record Flow(int node, long a) {
    }

    private record Expected(long connection, long ack) {
    }

    private static final class FlowState {
        long next;
        long lastSeen;
    }

    private static final class Waiting {
        boolean used;
        int from;
        int to;
        long dataSent;
        long d21;
        long decisionTime;
    }

    /** Receives each matched message with its merge-order key, and each exchange's round trip. */
    interface Output {
        void message(int from, int to, long sendTime, long recvTime, long orderTime, int orderNode, long orderOffset);

        void roundTrip(int a, int b, long rtt);

        /**
         * An exchange, as {@code TcpMatcher} gives its {@code ExchangeSink} (a sent the data at t1,
         * b received it at t2, sent the acknowledgement at t3, a received it at t4), with the merge-order
         * key of the acknowledgement's first event (default: not kept).
         */
        default void exchange(int a, int b, long t1, long t2, long t3, long t4, long orderTime, int orderNode,
                              long orderOffset) {
        }

        /** A broadcast group, as {@code BroadcastSink} receives it (default: not kept). */
        default void broadcast(int sender, long sendTime, int[] receivers, long[] recvTimes) {
        }
    }

    private final long window;
    private final Output out;
    private final Map<Key, Instance> live = new HashMap<>();
    private final ArrayDeque<Instance> order = new ArrayDeque<>();
    private final Map<Flow, FlowState> flows = new HashMap<>();
    private final Map<Expected, Waiting> waiting = new HashMap<>();
    private long connection;
    private boolean any;
    private BroadcastMatcher broadcasts;

    private long events;
    private long messages;
    private long ambiguous;
    private long retransmissions;
    private long duplicateEvents;
    private long sameNode;
    private long unmatched;
    private long exchanges;
    private long connections;
    private long tcpSegments;

    ConnectionMatcher(long window, Output out) {
        this.window = window;
        this.out = out;
    }

    /**
     * One event; events come sorted by connection, order, node, offset. An event's order is the
     * largest time the one-machine merge has seen when it reaches that event, so the instances it
     * has evicted by then are those that began more than W before that time.
     */
    void event(SegmentEvent e) {
        if (e.datagram) {
            // every datagram of the job, in merge order: the one-machine matcher's own sequence
            if (broadcasts == null) {
                broadcasts = new BroadcastMatcher(window, out::broadcast);
            }
            broadcasts.datagram(e.node, e.send, e.time, e.a, e.b, e.c);
            return;
        }
        long conn = e.connection();
        if (!any || conn != connection) {
            finishConnection();
            any = true;
            connection = conn;
            connections++;
        }
        events++;
        if (e.c >= 0) {
            tcpSegments++;
        }
        while (!order.isEmpty() && order.peekFirst().t0 < e.order - window) {
            decide(order.pollFirst());
        }
        boolean retrans = e.send && e.c >= 0 && retransmission(e); // other keys have no flow
        Key k = new Key(e.a, e.b, e.c);
        Instance in = live.get(k);
        if (in == null) {
            in = new Instance(e.a, e.b, e.c, e.time, e.order, e.node, e.offset);
            live.put(k, in);
            order.addLast(in);
        }
        if (retrans) {
            retransmissions++;
            in.retransmitted = true;
        }
        if (e.send) {
            in.sends++;
            in.sendNode = e.node;
            in.sendTime = e.time;
        } else {
            in.recvs++;
            in.recvNode = e.node;
            in.recvTime = e.time;
        }
    }

    /** {@code FlowTable.retransmission}, with a flow idle for more than W forgotten. */
    private boolean retransmission(SegmentEvent e) {
        long seq = e.b >>> 32;
        int flags = (int) (e.c >>> 32);
        int payloadLength = (int) e.c;
        long span = payloadLength + ((flags & 0x02) != 0 ? 1 : 0) + ((flags & 0x01) != 0 ? 1 : 0);
        long end = (seq + span) & 0xffffffffL;
        Flow f = new Flow(e.node, e.a);
        FlowState s = flows.get(f);
        if (s == null || e.time - s.lastSeen > window) {
            s = new FlowState();
            s.next = end;
            s.lastSeen = e.time;
            flows.put(f, s);
            return false;
        }
        s.lastSeen = e.time;
        boolean retrans = span > 0 && (int) (seq - s.next) < 0;
        if ((int) (end - s.next) > 0) {
            s.next = end;
        }
        return retrans;
    }

    private void decide(Instance in) {
        live.remove(new Key(in.a, in.b, in.c));
        int sends = in.sends;
        int recvs = in.recvs;
        if (in.retransmitted && sends > 0 && recvs > 0) {
            ambiguous++;
            duplicateEvents += sends + recvs - 2;
        } else if (sends == 0 || recvs == 0) {
            unmatched++;
            if (sends > 1 || recvs > 1) {
                duplicateEvents += Math.max(sends, recvs) - 1;
            }
        } else if (sends > 1 || recvs > 1) {
            ambiguous++;
            duplicateEvents += sends + recvs - 2;
        } else if (in.sendNode == in.recvNode) {
            sameNode++;
        } else {
            messages++;
            out.message(in.sendNode, in.recvNode, in.sendTime, in.recvTime, in.firstOrder, in.firstNode,
                    in.firstOffset);
            if (in.c >= 0) {
                exchange(in);
            }
        }
    }

    /** {@code TcpMatcher.exchange}, with an exact table instead of a direct-mapped cache. */
    private void exchange(Instance in) {
        int from = in.sendNode;
        int to = in.recvNode;
        int flags = (int) (in.c >>> 32);
        int len = (int) in.c;
        long seq = in.b >>> 32;
        if ((flags & ACK) != 0) {
            long ackNo = in.b & 0xffffffffL;
            Waiting w = waiting.get(new Expected(in.a, ackNo));
            if (w != null && !w.used && w.from == to && w.to == from && in.t0 - w.decisionTime <= window) {
                out.roundTrip(to, from, (in.recvTime - in.sendTime) + w.d21);
                out.exchange(to, from, w.dataSent, w.dataSent + w.d21, in.sendTime, in.recvTime, in.firstOrder,
                        in.firstNode, in.firstOffset);
                exchanges++;
                w.used = true;
            }
        }
        if (len > 0) {
            long reversed = SegmentEvent.reversed(in.a);
            long expected = (seq + len) & 0xffffffffL;
            Expected k = new Expected(reversed, expected);
            Waiting w = waiting.get(k);
            boolean same = w != null && in.t0 - w.decisionTime <= window;
            if (w == null) {
                w = new Waiting();
                waiting.put(k, w);
            }
            w.used = same;
            w.from = from;
            w.to = to;
            w.dataSent = in.sendTime;
            w.d21 = in.recvTime - in.sendTime;
            w.decisionTime = in.t0;
        }
    }

    /** Decides what is left of the current connection. */
    void finishConnection() {
        while (!order.isEmpty()) {
            decide(order.pollFirst());
        }
        flows.clear();
        waiting.clear();
    }

    /** Decides what is left: the current connection and the broadcast groups. */
    void finish() {
        finishConnection();
        if (broadcasts != null) {
            broadcasts.finish();
        }
    }

    MatchStats stats() {
        return new MatchStats(events, messages, ambiguous, retransmissions, duplicateEvents, sameNode, unmatched,
                exchanges, connections, broadcasts == null ? 0 : broadcasts.groups(),
                broadcasts == null ? 0 : broadcasts.ambiguous(), tcpSegments);
    }
}
