package org.tracesync.core.matching;

/**
 * A run of network events in merged local-time order — TCP segments for {@link TcpMatcher},
 * broadcast datagrams for {@link BroadcastMatcher} — kept as primitive columns: the unit a reader
 * hands to the matchers ({@link TcpMatcher#match}), on its own thread or through a queue to
 * another one. A block is filled, matched, cleared and filled again: no object per event.
 *
 * <p>Segments are stored as the matcher's packed key (connection, seq|ack, flags|length), other
 * keys with their table hash too, so packing (and hashing) is done by whoever fills the block: on
 * the reading thread when there is one, which takes that work off the matching thread.
 */
public final class EventBlock {

    /** Events per block used by the capture reader: large enough to make a hand-over rare. */
    public static final int DEFAULT_CAPACITY = 4096;

    private static final int NODE_MASK = TcpMatcher.MAX_NODES - 1;
    private static final int SEND = 1 << 15;
    private static final int DATAGRAM = 1 << 16;

    /** node | SEND | DATAGRAM. */
    final int[] info;
    /**
     * {@link KeyWindow#tableHash} of an other key ({@link #OTHER_KEY}), computed by whoever fills
     * the block; 0 for a TCP segment (the matcher finds those by connection and computes the hash
     * only for the few it looks up in its table) and for a datagram.
     */
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
        hash[i] = 0; // TCP keys are found by connection (ConnectionRings): the hash only when the table is asked
    }

    /**
     * Set in the third key word of every key that is not a TCP segment between addressed hosts
     * (TCP segments keep flags and length there, so that bit is clear for them): such keys are
     * matched like segments but take no part in retransmission tracking or exchanges.
     */
    public static final long OTHER_KEY = 1L << 63;
    /** Kinds of other keys, in bits 56–62 of the third word. */
    static final long TCP_WITHOUT_ADDRESSES = 1L << 56;
    static final long UNICAST_DATAGRAM = 2L << 56;
    static final long MESSAGE_ID = 3L << 56;
    static final long MESSAGE_ID_HASHED = 4L << 56;

    /**
     * A TCP segment of a trace that records no addresses, ports or length (the LTTng add-on events:
     * seq, ack_seq, flags): matched exactly on those three fields.
     */
    public void addSegmentWithoutAddresses(int node, boolean send, long t, long seq, long ack, int flags) {
        addKey(node, send, t, 0, seq << 32 | (ack & 0xffffffffL), OTHER_KEY | TCP_WITHOUT_ADDRESSES | (flags & 0xffffffffL));
    }

    /**
     * A unicast UDP datagram (a kernel trace's {@code udp} header): matched exactly on its addresses,
     * ports, IP identification, checksum and length, as a message.
     */
    public void addUnicastDatagram(int node, boolean send, long t, int srcAddr, int dstAddr, int srcPort, int dstPort,
                                   long ipId, long checksum, int length) {
        addKey(node, send, t, TcpMatcher.connection(srcAddr, dstAddr, srcPort, dstPort),
                (ipId & 0xffffffffL) << 32 | (checksum & 0xffffffffL),
                OTHER_KEY | UNICAST_DATAGRAM | (length & 0xffffffffL));
    }

    /**
     * An application message id (JSON lines). Ids of up to 16 UTF-8 bytes are stored exactly; a
     * longer id is stored as its length and a 152-bit hash of its bytes (two keys collide with
     * probability about 2^-152 per pair: for 10^9 distinct ids within one window, below 10^-27).
     */
    public void addMessageId(int node, boolean send, long t, String id) {
        byte[] bytes = id.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        addMessageId(node, send, t, bytes, 0, bytes.length);
    }

    /**
     * {@link #addMessageId(int, boolean, long, String)} for an id given as its UTF-8 bytes
     * {@code bytes[from, from + n)} (a reader that has them in its buffer): the same key.
     */
    public void addMessageId(int node, boolean send, long t, byte[] bytes, int from, int n) {
        if (n <= 16) {
            long ka = 0;
            long kb = 0;
            for (int i = 0; i < n; i++) {
                long v = bytes[from + i] & 0xffL;
                if (i < 8) {
                    ka |= v << (8 * (7 - i));
                } else {
                    kb |= v << (8 * (15 - i));
                }
            }
            addKey(node, send, t, ka, kb, OTHER_KEY | MESSAGE_ID | n);
        } else {
            long h1 = bytesHash(bytes, from, n, 0x9E3779B97F4A7C15L);
            long h2 = bytesHash(bytes, from, n, 0xC2B2AE3D27D4EB4FL);
            long h3 = bytesHash(bytes, from, n, 0x165667B19E3779F9L);
            addKey(node, send, t, h1, h2, OTHER_KEY | MESSAGE_ID_HASHED | (h3 & 0xffffffL) << 32 | (n & 0xffffffffL));
        }
    }

    /** 64-bit hash of the byte string {@code b[from, from + n)} (multiply–rotate per 8 bytes, MurmurHash3's finalizer). */
    private static long bytesHash(byte[] b, int from, int n, long seed) {
        long h = seed ^ n;
        int end = from + n;
        int i = from;
        for (; i + 8 <= end; i += 8) {
            long w = 0;
            for (int j = 0; j < 8; j++) {
                w = w << 8 | (b[i + j] & 0xffL);
            }
            h = Long.rotateLeft(h ^ (w * 0x87C37B91114253D5L), 31) * 0x4CF5AD432745937FL;
        }
        long w = 0;
        for (; i < end; i++) {
            w = w << 8 | (b[i] & 0xffL);
        }
        h = Long.rotateLeft(h ^ (w * 0x87C37B91114253D5L), 31) * 0x4CF5AD432745937FL;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** A key already packed; {@code c} must have {@link #OTHER_KEY} set. */
    private void addKey(int node, boolean send, long t, long ka, long kb, long kc) {
        int i = size++;
        info[i] = (node & NODE_MASK) | (send ? SEND : 0);
        time[i] = t;
        a[i] = ka;
        b[i] = kb;
        c[i] = kc;
        hash[i] = KeyWindow.tableHash(ka, kb, kc);
    }

    /**
     * A segment or other key already packed as {@link #keyA}, {@link #keyB}, {@link #keyC} give it
     * (events handed on as rows and read back, e.g. by a cluster job's coarse-offset sample).
     */
    public void addPacked(int node, boolean send, long t, long ka, long kb, long kc) {
        int i = size++;
        info[i] = (node & NODE_MASK) | (send ? SEND : 0);
        time[i] = t;
        a[i] = ka;
        b[i] = kb;
        c[i] = kc;
        hash[i] = kc < 0 ? KeyWindow.tableHash(ka, kb, kc) : 0;
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

    /** Event i's node (for readers that hand the events on as rows, e.g. to a cluster job). */
    public int nodeOf(int i) {
        return node(info[i]);
    }

    /** Whether event i is a send. */
    public boolean isSend(int i) {
        return send(info[i]);
    }

    /** Whether event i is a broadcast datagram (else a segment or another key). */
    public boolean isDatagram(int i) {
        return datagram(info[i]);
    }

    /** Event i's time as it was added. */
    public long time(int i) {
        return time[i];
    }

    /** Event i's key, first word (a segment's connection). */
    public long keyA(int i) {
        return a[i];
    }

    /** Event i's key, second word. */
    public long keyB(int i) {
        return b[i];
    }

    /** Event i's key, third word ({@link #OTHER_KEY} set for keys that are not addressed TCP segments). */
    public long keyC(int i) {
        return c[i];
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
