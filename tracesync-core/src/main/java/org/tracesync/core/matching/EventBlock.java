package org.tracesync.core.matching;

/**
 * A run of network events in merged local-time order — TCP segments for {@link TcpMatcher},
 * broadcast datagrams for {@link BroadcastMatcher} — kept as primitive columns: the unit a reader
 * hands to the matchers ({@link TcpMatcher#match}), on its own thread or through a queue to
 * another one. A block is filled, matched, cleared and filled again: no object per event.
 *
 * <p>Segments are stored as the matcher's packed key (connection, seq|ack, flags|length) and its
 * hash, so packing and hashing are done by whoever fills the block: on the reading thread when
 * there is one, which takes that work off the matching thread.
 */
public final class EventBlock {

    /** Events per block used by the capture reader: large enough to make a hand-over rare. */
    public static final int DEFAULT_CAPACITY = 4096;

    private static final int NODE_MASK = TcpMatcher.MAX_NODES - 1;
    private static final int SEND = 1 << 15;
    private static final int DATAGRAM = 1 << 16;

    /** node | SEND | DATAGRAM. */
    final int[] info;
    /** {@link KeyWindow#hash} of a segment's key, computed by whoever fills the block (0 for a datagram). */
    final int[] hash;
    final long[] time;
    final long[] a;
    final long[] b;
    final long[] c;
    int size;

    public EventBlock(int capacity) {
        info = new int[capacity];
        hash = new int[capacity];
        time = new long[capacity];
        a = new long[capacity];
        b = new long[capacity];
        c = new long[capacity];
    }

    /** A TCP segment, as {@link TcpMatcher#segment} takes it. */
    public void addSegment(int node, boolean send, long t, int srcAddr, int dstAddr, int srcPort, int dstPort,
                           long seq, long ack, int flags, int payloadLength) {
        int i = size++;
        info[i] = (node & NODE_MASK) | (send ? SEND : 0);
        time[i] = t;
        long ka = TcpMatcher.connection(srcAddr, dstAddr, srcPort, dstPort);
        long kb = TcpMatcher.sequences(seq, ack);
        long kc = TcpMatcher.flagsAndLength(flags, payloadLength);
        a[i] = ka;
        b[i] = kb;
        c[i] = kc;
        hash[i] = KeyWindow.hash(ka, kb, kc);
    }

    /** A broadcast datagram, as {@link BroadcastMatcher#datagram} takes it. */
    public void addDatagram(int node, boolean send, long t, long ka, long kb, long kc) {
        int i = size++;
        info[i] = (node & NODE_MASK) | (send ? SEND : 0) | DATAGRAM;
        hash[i] = 0;
        time[i] = t;
        a[i] = ka;
        b[i] = kb;
        c[i] = kc;
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return info.length;
    }

    public boolean isFull() {
        return size == info.length;
    }

    public void clear() {
        size = 0;
    }

    static int node(int info) {
        return info & NODE_MASK;
    }

    static boolean send(int info) {
        return (info & SEND) != 0;
    }

    static boolean datagram(int info) {
        return (info & DATAGRAM) != 0;
    }
}
