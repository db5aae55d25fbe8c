package org.tracesync.spark;

import java.io.Serializable;
import java.util.Comparator;

/**
 * One TCP segment as a capture saw it, the row the decoding stage emits and the shuffle moves:
 * the node whose capture it is, the direction on that node, the local timestamp, its merge order
 * (the largest timestamp of the capture up to this record: the one-machine reader's heap merges the
 * captures in that order, even where timestamps go backwards), the record's byte offset in its
 * capture (record order), and the match key of {@code TcpMatcher} packed in three
 * longs — {@code a}: source and destination address ids and ports, {@code b}: seq|ack,
 * {@code c}: flags|payload length. About 45 bytes on the wire (Kryo, {@link TracesyncKryo}).
 *
 * <p>Shuffle order: partitioned by the connection without its direction ({@link #connection()}),
 * so that a segment, its counterpart, the sender's other segments of the flow and the
 * acknowledgements coming back meet in one task; sorted within a partition by connection, then
 * the one-machine merge order: order, node, offset.
 */
public final class SegmentEvent implements Serializable {

    private static final long serialVersionUID = 1L;

    public long a;
    public long b;
    public long c;
    public long time;
    public long order;
    public long offset;
    public int node;
    public boolean send;
    /** A broadcast/multicast datagram (key: the one-machine datagram digest), not a segment. */
    public boolean datagram;

    public SegmentEvent() {
    }

    /** A broadcast datagram with the one-machine digest {@code a, b, c}. */
    static SegmentEvent datagram(int node, boolean send, long time, long order, long offset, long a, long b, long c) {
        SegmentEvent e = new SegmentEvent(node, send, time, order, offset, a, b, c);
        e.datagram = true;
        return e;
    }

    public SegmentEvent(int node, boolean send, long time, long order, long offset, long a, long b, long c) {
        this.node = node;
        this.send = send;
        this.time = time;
        this.order = order;
        this.offset = offset;
        this.a = a;
        this.b = b;
        this.c = c;
    }

    /** The connection direction {@code a} with source and destination swapped. */
    public static long reversed(long a) {
        return (a >>> 32 & 0xffff) << 48 | (a >>> 48) << 32 | (a & 0xffff) << 16 | (a >>> 16 & 0xffff);
    }

    /**
     * Every broadcast datagram's "connection": they all meet in one match task, in merge order, as
     * the one-machine {@code BroadcastMatcher} sees them (its window follows the datagrams' own times).
     */
    public static final long DATAGRAMS = -1L;

    /**
     * The connection regardless of direction: the smaller of {@code a} and its reverse. Keys that are
     * not addressed TCP segments ({@code c < 0}: message ids, segments without addresses, unicast
     * datagrams of kernel traces) have no connection: a mix of the whole key spreads them.
     */
    public long connection() {
        if (datagram) {
            return DATAGRAMS;
        }
        if (c < 0) {
            long h = (a * 0x9E3779B97F4A7C15L ^ b) * 0xC2B2AE3D27D4EB4FL ^ c;
            h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
            return (h ^ (h >>> 33)) & ~1L; // even: never DATAGRAMS (-1)
        }
        long r = reversed(a);
        return Long.compareUnsigned(a, r) <= 0 ? a : r;
    }

    /** Connection, then order, node, offset (the order a one-machine merge of the captures gives). */
    public static final class Order implements Comparator<SegmentEvent>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(SegmentEvent x, SegmentEvent y) {
            int k = Long.compareUnsigned(x.connection(), y.connection());
            if (k != 0) {
                return k;
            }
            k = Long.compare(x.order, y.order);
            if (k != 0) {
                return k;
            }
            k = Integer.compare(x.node, y.node);
            return k != 0 ? k : Long.compare(x.offset, y.offset);
        }
    }
}
