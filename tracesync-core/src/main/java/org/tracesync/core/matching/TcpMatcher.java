package org.tracesync.core.matching;

import org.tracesync.core.model.ExchangeSink;
import org.tracesync.core.model.MessageSink;

/**
 * Bounded-memory TCP segment matcher for long captures (DESIGN §1, stage 2).
 *
 * <p><b>Input contract.</b> Events of all traces arrive merged in local-timestamp order (the
 * caller k-way merges its sources). Addresses are small integers assigned by the caller (only
 * traffic between traced hosts should be fed). The key is DESIGN §1's: source and destination
 * address, ports, seq, ack, flags and payload length.
 *
 * <p><b>Rule.</b> A key seen exactly once as a send and once as a receive, on two different
 * nodes, within its window, is a message. Seen twice or more on either side (retransmission,
 * duplicate capture) it is ambiguous: dropped and counted, never guessed. So is a key that either
 * sender's capture sees as a retransmission of earlier data on its connection (a data segment
 * starting before the highest sequence number already sent in that direction, see
 * {@code FlowTable}; receive-side reordering is not a retransmission and is kept):
 * with segmentation offload the sender captures large segments and may retransmit a part of one
 * under a key never seen before. Same node on both
 * sides (loopback): discarded and counted.
 *
 * <p><b>Eviction (the memory bound).</b> Each key lives from its first event at local time t
 * until the merged stream passes t + W (the window, default 60 s): it is then decided (message,
 * ambiguous, or unmatched) and forgotten. Memory is therefore proportional to the number of
 * distinct keys within any span W of the merged stream, independent of capture length.
 * Consequences, documented to the user: a counterpart further than W away in local time — which
 * includes clocks offset by more than W — is not found (counted as evicted unmatched); a
 * retransmission more than W after the original looks new. Messages are emitted when their key
 * is decided, i.e. up to W late, in first-event order.
 *
 * <p><b>Exchanges.</b> When a data message a → b (payload length L &gt; 0, sequence s) is decided,
 * it waits (for W of first-event time, in a fixed-size cache that may drop it for a newer one) for
 * the unique message b → a with ACK set and ack = s + L on the reversed connection; the pair gives one round trip {@code (t4 − t1) − (t3 − t2)} into
 * {@link #roundTrips()} and, with {@link #exchangesTo}, the four times to an {@link ExchangeSink}
 * (the regression estimator's samples). Keys are decided in first-event order of the merged
 * clocks, and the data is always decided first whatever the clocks' offset: its first event is
 * at min(t1, t2), the acknowledgement's at min(t3, t4), and t1 &lt; t4, t2 &lt; t3 on each
 * node's own clock. An exchange is lost when its entry is overwritten in the cache, when its
 * acknowledgement comes more than W after the data, or when either message is ambiguous.
 *
 * <p><b>Other keys.</b> Every trace format goes through this matcher: keys whose third word has
 * {@link EventBlock#OTHER_KEY} set (application message ids, kernel-trace segments without
 * addresses, unicast datagrams) follow the same rule, window and counts, but are not tracked as
 * TCP flows (no retransmission detection, no exchanges).
 *
 * <p><b>Key limit.</b> With {@code maxKeys}, a key that would make the matcher hold more keys
 * decides the oldest one early: memory stays bounded even when millions of keys never match
 * within the window; keys dropped that way are counted and named in {@link #summary()}.
 *
 * <p><b>Where keys live.</b> TCP keys are found by connection and order ({@link ConnectionRings}):
 * a key greater than every key of its connection direction is new and is appended without a
 * lookup, and the other capture's copy is found in that connection's ring of ids, after the
 * position of that capture's last key; only keys out of order (retransmissions, reordering, a
 * clock stepping back, new ISNs) go to the probe table of {@link KeyWindow}, as do other keys.
 * Which structure holds a key changes no result (every key is found wherever it lives; the
 * argument is in {@link ConnectionRings}). On the 1.17 GB benchmark capture set (six connection
 * directions) this took the matching half from about 106 to about 83 ns per event (thirteenth
 * session, docs/PERFORMANCE.md).
 *
 * <p>Cost: O(1) expected per event, no allocation per event once the tables have grown. Measured
 * 100–125 ns per segment, pair accumulators included, on the 1 GB benchmark capture sets on an idle
 * machine, 150–160 ns per packet of the simulated set under load 10–19 (185 before the slots of
 * the keys to decide were read ahead; docs/PERFORMANCE.md): cache misses in its tables, whose size
 * follows the window, and the work per event. Of that, the pair accumulators behind the sink take
 * about 25–30 ns per event and the exchanges about 20; with a 1 s window (tables within the caches)
 * the matcher alone still takes about 50 ns per event without exchanges and flows (fourth session
 * of 2026-11-23, docs/PERFORMANCE.md). A minimal matcher of the same design (one probe per event,
 * one record per key, decided by time) with the flow table and the exchange cache added costs as
 * much as this one on the benchmark set's key stream; alone it costs about 66 ns per event with
 * the 60 s window and 42 with every table cached ({@code MatchFloorRun}, ninth session).
 */
public final class TcpMatcher {

    /** Default window W: 60 s. */
    public static final long DEFAULT_WINDOW_NS = 60_000_000_000L;

    /** The exchange table packs node ids in 15 bits. */
    public static final int MAX_NODES = 1 << 15;

    private static final int ACK = 0x10;

    private final MessageSink out;
    private final long window;
    private final KeyWindow keys = new KeyWindow();
    /** TCP keys by connection and order: most need no probe of {@link #keys}' table ({@link ConnectionRings}). */
    private final ConnectionRings connections = new ConnectionRings(keys);
    /**
     * Decided data messages awaiting their acknowledgement: a direct-mapped cache of
     * {@value #EXCHANGE_SLOTS} entries indexed by (reversed connection, expected ack). Fixed size,
     * one memory access per lookup; a newer data message may overwrite an older one that is still
     * waiting, losing that exchange — round-trip minima are a sample, which is all they need.
     */
    private static final int EXCHANGE_SLOTS = 1 << 16;
    private static final int EXCHANGE_MASK = EXCHANGE_SLOTS - 1;
    /**
     * Entry d at {@code ex[4d ..]}: flow, expected ack|state|from|to, t2 − t1 of the data message
     * (the round trip needs only that difference), decision time. 32 bytes rather than a cache
     * line per entry: the table (2 MB) is touched at random once or twice per message, and at half
     * the size more of it stays cached (measured: about a fifth of the matcher's time on the real
     * capture set).
     */
    private final long[] ex = new long[EXCHANGE_SLOTS * 4];
    /**
     * Only with an exchange sink: t1 of entry d at {@code exSend[d]} (t2 is t1 + the stored
     * t2 − t1). A separate array so that the default path keeps its 32-byte entries.
     */
    private long[] exSend;
    private ExchangeSink exchangeSink;
    private long tcpSegments;
    private static final long AWAITING = 1;
    private static final long USED = 2;
    private static final long STATE_MASK = 3L << 30;

    private static long exWord(long expected, long state, int from, int to) {
        return expected << 32 | state << 30 | (long) (from & 0x7fff) << 15 | (to & 0x7fff);
    }
    private final FlowTable flows = new FlowTable();
    /**
     * The connections an acknowledgement could complete an exchange on: the reversed connection
     * of every data message decided so far ({@link #awaitAcknowledgement}), which is what its
     * exchange-cache entry holds in its first word. An acknowledgement on any other connection
     * cannot match an entry, so its lookup (a hash and a load in a 2 MB table) is skipped: the
     * same answers (no entry is read or written differently), less work where data flows one way
     * on a connection, as on the benchmark set (none of its messages can complete an exchange).
     * Null once it would hold more than {@value #ACK_CONNECTIONS_MAX} connections: then every
     * acknowledgement looks up, as before.
     */
    private ConnectionSet ackConnections = new ConnectionSet();
    private static final int ACK_CONNECTIONS_MAX = 1 << 16;
    /**
     * Events per run of {@link #match}: enough reads in flight, few enough to stay cached. 128
     * rather than 64 since the eighth session: read + match 0.94x (24 of 34 alternated rounds
     * faster); 256 showed nothing (docs/PERFORMANCE.md).
     */
    private static final int RUN = 128;
    private long homeReads;
    private static final int RETRANSMITTED = 0x8000_0000;
    private static final int SIDE_MAX = 0x7fff;
    private long retransmissions;
    private final RoundTripMinima roundTrips;
    private long now = Long.MIN_VALUE;
    /** First-event time of the key being decided: the clock of the exchange table. */
    private long decisionTime;

    private final int maxKeys;
    private long limitEvictions;
    private long limitUnmatched;
    private long events;
    private long matched;
    private long ambiguous;
    private long duplicateEvents;
    private long sameNode;
    private long evictedUnmatched;
    private long unmatchedAtEnd;
    private long exchanges;
    private int peakKeys;
    private boolean finishing;

    public TcpMatcher(int nodes, long windowNs, MessageSink out) {
        this(nodes, windowNs, Integer.MAX_VALUE, out);
    }

    /**
     * As {@link #TcpMatcher(int, long, MessageSink)}, holding at most {@code maxKeys} keys: when a
     * new key would exceed it, the oldest key is decided at once, before its window has passed
     * (counted in {@link #limitEvictions()}). This bounds memory whatever the input: application
     * logs with millions of ids that never match within the window.
     */
    public TcpMatcher(int nodes, long windowNs, int maxKeys, MessageSink out) {
        if (maxKeys < 2) {
            throw new IllegalArgumentException("maxKeys must be at least 2");
        }
        this.maxKeys = maxKeys;
        if (windowNs <= 0) {
            throw new IllegalArgumentException("window must be positive");
        }
        if (nodes > MAX_NODES) {
            throw new org.tracesync.core.model.InvalidRequestException(nodes + " traces: the TCP matcher handles at most " + MAX_NODES);
        }
        this.out = out;
        this.window = windowNs;
        this.roundTrips = new RoundTripMinima(nodes);
    }

    /**
     * Sends every exchange found from now on to {@code sink} (data a → b sent t1, received t2;
     * acknowledgement b → a sent t3, received t4), right after the acknowledgement's message.
     * Costs one more 512 kB array and one store per data message.
     */
    public void exchangesTo(ExchangeSink sink) {
        this.exchangeSink = sink;
        if (sink != null && exSend == null) {
            exSend = new long[EXCHANGE_SLOTS];
        }
    }

    /**
     * One TCP segment event. {@code srcAddr}/{@code dstAddr} are caller-assigned address ids
     * (0..65535); seq and ack unsigned 32-bit; flags the 9 TCP flag bits.
     */
    public void segment(int node, boolean send, long time, int srcAddr, int dstAddr, int srcPort,
                        int dstPort, long seq, long ack, int flags, int payloadLength) {
        long a = connection(srcAddr, dstAddr, srcPort, dstPort);
        long b = sequences(seq, ack);
        long c = flagsAndLength(flags, payloadLength);
        // a TCP key (flags within 9 bits: c >= 0) goes by connection, its table hash computed when needed
        step(node, send, time, a, b, c, c < 0 ? KeyWindow.tableHash(a, b, c) : 0);
    }

    /**
     * Every event of {@code block} in order: its segments as {@link #segment} would take them, its
     * datagrams given to {@code broadcasts} (which may be null when the block has none). The
     * results, and the order of the calls to both sinks, are those of feeding the events one by one.
     *
     * <p>Events go in runs of {@value #RUN}: first the home slot in the probe table of each key
     * that is sure to probe it (the other keys: TCP segments go by connection,
     * {@link ConnectionRings}, and reach the table only when out of order) is read, then the run is
     * matched. Those reads do not depend on each other, so their cache misses overlap instead of
     * stalling one key after the other (the probe table of a 60 s window over a busy trace set is
     * tens of MB); by the time a key is matched its slot is cached. Measured on the matching thread
     * when every key probed the table, hashes computed by the block's filler (median of 9
     * replays): 179 -> 135 ns per segment on the simulated benchmark set, 133 -> 125 on the real
     * one. The same is done for the keys the run will decide ({@link #touchExchanges}): the probe
     * slot their removal empties (keys in the table only) and their exchange-cache slots.
     */
    public void match(EventBlock block, BroadcastMatcher broadcasts) {
        int[] info = block.info;
        int[] hash = block.hash;
        long[] time = block.time;
        long[] a = block.a;
        long[] b = block.b;
        long[] c = block.c;
        for (int start = 0, n = block.size; start < n; start += RUN) {
            int end = Math.min(n, start + RUN);
            long read = 0;
            for (int i = start; i < end; i++) {
                // only other keys are sure to probe the table (TCP keys mostly go by connection):
                // the rest read slot 0, a harmless read (as datagrams, whose hash is 0)
                read += keys.home(c[i] < 0 ? hash[i] : 0);
            }
            read += touchExchanges(time[end - 1] - window);
            homeReads += read; // keeps the reads from being optimized away
            for (int i = start; i < end; i++) {
                int f = info[i];
                if (EventBlock.datagram(f)) {
                    broadcasts.datagram(EventBlock.node(f), EventBlock.send(f), time[i], a[i], b[i], c[i]);
                } else {
                    step(EventBlock.node(f), EventBlock.send(f), time[i], a[i], b[i], c[i], hash[i]);
                }
            }
        }
    }

    /**
     * Reads, for the keys that the run about to be matched will decide (those inserted before
     * {@code limit}, at most {@value #RUN} beyond what was read already), their probe-table slot
     * (which their removal empties) and their exchange-cache slots (data and acknowledgement),
     * in two tight loops of independent reads so that the cache misses overlap (a loop that also
     * hashed between the reads filled the processor's window with the hashing and overlapped
     * only a few). The exchange slots are kept in the upper half of the key's hash word, for
     * {@link #exchange}; returns a sum of what was read (only to keep the reads).
     */
    private long touchExchanges(long limit) {
        long id = Math.max(keys.head, exAhead);
        long stop = Math.min(keys.tail, id + RUN);
        int nh = 0;
        int nx = 0;
        int[] homes = aheadHomes;
        int[] slots = aheadSlots;
        for (; id < stop; id++) {
            long[] ring = keys.chunk(id);
            int e = KeyWindow.at(id);
            if (ring[e + KeyWindow.INSERTED] >= limit) {
                break;
            }
            long hw = ring[e + KeyWindow.HASH];
            homes[nh] = (int) hw;
            nh += (int) hw != 0 ? 1 : 0; // 0: a key of a connection ring, in no table slot
            long k2 = ring[e + 2];
            if (k2 >= 0 && isMessage(ring[e + KeyWindow.META])) {
                long k0 = ring[e];
                long k1 = ring[e + 1];
                // only the slots exchange() will use (an unused one stays 0)
                int ackSlot = 0;
                int dataSlot = 0;
                if ((k2 & (long) ACK << 32) != 0 && mayAcknowledge(k0)) {
                    ackSlot = ackSlot(k0, k1);
                    slots[nx++] = ackSlot;
                }
                if ((int) k2 > 0) {
                    dataSlot = dataSlot(k0, k1, (int) k2);
                    slots[nx++] = dataSlot;
                }
                ring[e + KeyWindow.HASH] = (hw & 0xffff_ffffL) | (long) (ackSlot >> 2) << 48
                        | (long) (dataSlot >> 2) << 32;
            } else {
                // not a message so far (ambiguous, unmatched): its decision most likely looks up no
                // exchange, so none is read ahead; should a last event make it one, exchange()
                // computes its slots (none kept)
                ring[e + KeyWindow.HASH] = hw & 0xffff_ffffL;
            }
        }
        exAhead = id;
        long read = 0;
        for (int k = 0; k < nh; k++) {
            read += keys.home(homes[k]);
        }
        long[] ex = this.ex;
        for (int k = 0; k < nx; k++) {
            // both ends of the 32-byte entry: an entry may straddle two cache lines (arrays are
            // not line-aligned), and the decision reads all of it
            read += ex[slots[k]] + ex[slots[k] + 3];
        }
        return read;
    }

    /** Keys below this id had their slots read ahead, and their exchange slots kept, by {@link #touchExchanges}. */
    private long exAhead;
    private final int[] aheadHomes = new int[RUN];
    private final int[] aheadSlots = new int[2 * RUN];

    /** Index in {@link #ex} of the entry an acknowledgement of key (k0, k1) looks up. */
    private static int ackSlot(long k0, long k1) {
        return (KeyWindow.hash(k0, k1 & 0xffffffffL, 0) & EXCHANGE_MASK) << 2;
    }

    /** Index in {@link #ex} of the entry a data segment of key (k0, k1, length) waits in. */
    private static int dataSlot(long k0, long k1, int len) {
        long reversed = (k0 >>> 32 & 0xffff) << 48 | (k0 >>> 48) << 32
                | (k0 & 0xffff) << 16 | (k0 >>> 16 & 0xffff);
        long expected = ((k1 >>> 32) + len) & 0xffffffffL;
        return (KeyWindow.hash(reversed, expected, 0) & EXCHANGE_MASK) << 2;
    }

    /** The key's first word: the connection direction. */
    static long connection(int srcAddr, int dstAddr, int srcPort, int dstPort) {
        return (long) srcAddr << 48 | (long) (dstAddr & 0xffff) << 32 | (long) (srcPort & 0xffff) << 16
                | (dstPort & 0xffff);
    }

    static long sequences(long seq, long ack) {
        return seq << 32 | (ack & 0xffffffffL);
    }

    static long flagsAndLength(int flags, int payloadLength) {
        return (long) flags << 32 | (payloadLength & 0xffffffffL);
    }

    /**
     * One segment with its key packed (a: connection, b: seq|ack, c: flags|length). This and the
     * methods it calls for every event or key ({@link FlowTable#retransmission},
     * {@link KeyWindow#findOrInsert}, {@link #decideHead}, {@link #exchange}) are kept below the
     * JIT's size limit for inlining hot methods (325 bytecodes): rare paths live in methods of
     * their own. Above it they were compiled as calls, with their arguments and fields spilled and
     * reloaded at each.
     */
    private void step(int node, boolean send, long time, long a, long b, long c, int hash) {
        events++;
        if (time > now) {
            now = time;
            evictOlderThan(now - window);
        }
        // other keys (EventBlock.OTHER_KEY: message ids, segments without addresses) have no flow
        boolean tcp = c >= 0;
        tcpSegments += tcp ? 1 : 0;
        boolean retrans = send && tcp && flows.retransmission(node, a, b >>> 32, (int) c, (int) (c >>> 32), time, window);
        long id = tcp ? connections.findOrInsert(node, a, b, c, time) : keys.findOrInsert(a, b, c, hash, time);
        boolean inserted = keys.inserted;
        record(keys.found, KeyWindow.at(id), node, send, time, retrans);
        if (inserted) {
            inserted();
        }
    }

    /** The event's side of the key at index {@code e} of {@code ring}: its count, node and time. */
    private void record(long[] ring, int e, int node, boolean send, long time, boolean retrans) {
        long meta = ring[e + KeyWindow.META];
        int cnt = (int) meta | (retrans ? RETRANSMITTED : 0);
        retransmissions += retrans ? 1 : 0;
        // send or receive without a branch (the merged stream alternates them unpredictably): the
        // side's count (saturating at SIDE_MAX), node and time
        int side = send ? 0 : 1;
        int countShift = side << 4;
        int count = cnt >>> countShift & SIDE_MAX;
        cnt += (count < SIDE_MAX ? 1 : 0) << countShift;
        int nodeShift = 32 + countShift;
        meta = (meta & ~(0xffffL << nodeShift)) | (long) ((node + 1) & 0xffff) << nodeShift;
        ring[e + KeyWindow.SEND_TIME + side] = time;
        ring[e + KeyWindow.META] = (meta & ~0xffff_ffffL) | (cnt & 0xffff_ffffL);
    }

    /** After a key was inserted: the key limit, the peak. */
    private void inserted() {
        int size = keys.size();
        if (size > maxKeys) {
            // the memory cap: decide the oldest key now, before its window has passed
            limitEvictions++;
            decideHead();
            size = keys.size();
        }
        if (size > peakKeys) {
            peakKeys = size;
        }
    }

    private static int sendNode(long meta) {
        return (int) (meta >>> 32 & 0xffff) - 1;
    }

    private static int recvNode(long meta) {
        return (int) (meta >>> 48 & 0xffff) - 1;
    }

    /** Whether a key's counts and nodes ({@link KeyWindow#META}) make it a message: sent once, received once, no retransmission, two nodes. */
    private static boolean isMessage(long meta) {
        return ((int) meta & (RETRANSMITTED | SIDE_MAX << 16 | SIDE_MAX)) == (1 << 16 | 1)
                && sendNode(meta) != recvNode(meta);
    }

    private void evictOlderThan(long limit) {
        while (!keys.isEmpty() && keys.headChunk[KeyWindow.at(keys.head) + KeyWindow.INSERTED] < limit) {
            decideHead();
        }
    }

    private void decideHead() {
        long[] ring = keys.headChunk;
        int e = KeyWindow.at(keys.head);
        decisionTime = ring[e + KeyWindow.INSERTED];
        long meta = ring[e + KeyWindow.META];
        int from = sendNode(meta);
        int to = recvNode(meta);
        // sent once, received once, no retransmission, two nodes: a message (the common case)
        if (isMessage(meta)) {
            matched++;
            long t1 = ring[e + KeyWindow.SEND_TIME];
            long t2 = ring[e + KeyWindow.RECV_TIME];
            long k2 = ring[e + 2];
            out.message(from, to, t1, t2);
            if (k2 >= 0) {
                exchange(from, to, t1, t2, ring[e], ring[e + 1], k2,
                        keys.head < exAhead ? ring[e + KeyWindow.HASH] : 0);
            }
        } else {
            notMatched(ring[e + KeyWindow.INSERTED], meta);
        }
        keys.removeHead();
    }

    /** Counts why the key first seen at {@code inserted}, with counts and nodes {@code meta}, is not a message. */
    private void notMatched(long inserted, long meta) {
        int cnt = (int) meta;
        int sends = cnt & SIDE_MAX;
        int recvs = cnt >>> 16 & SIDE_MAX;
        if ((cnt & RETRANSMITTED) != 0 && sends > 0 && recvs > 0) {
            ambiguous++;
            duplicateEvents += sends + recvs - 2;
        } else if (sends == 0 || recvs == 0) {
            if (finishing) {
                unmatchedAtEnd++;
            } else if (inserted >= now - window) {
                limitUnmatched++; // forced out by the key limit, its window not yet over
            } else {
                evictedUnmatched++;
            }
            if (sends > 1 || recvs > 1) {
                duplicateEvents += Math.max(sends, recvs) - 1;
            }
        } else if (sends > 1 || recvs > 1) {
            ambiguous++;
            duplicateEvents += sends + recvs - 2;
        } else {
            sameNode++; // sent once and received once, on one node
        }
    }

    /**
     * {@code slotsKept}: the key's hash word with its exchange slots, or 0 when they were not kept
     * (two slots 0 read as not kept: computed again, the same).
     */
    private void exchange(int from, int to, long t1, long t2, long k0, long k1, long k2, long slotsKept) {
        boolean kept = slotsKept >>> 32 != 0;
        if (((int) (k2 >>> 32) & ACK) != 0 && mayAcknowledge(k0)) {
            // an acknowledgement slot of 0 may be one not read ahead (the connection had no data
            // then): computed again (the same when it was slot 0)
            int ackKept = (int) (slotsKept >>> 48);
            acknowledgement(from, to, t1, t2, k0, k1 & 0xffffffffL,
                    kept && ackKept != 0 ? ackKept << 2 : ackSlot(k0, k1));
        }
        int len = (int) k2;
        if (len > 0) {
            awaitAcknowledgement(from, to, t1, t2, k0, k1 >>> 32, len,
                    kept ? ((int) (slotsKept >>> 32) & 0xffff) << 2 : dataSlot(k0, k1, len));
        }
    }

    /** A message with ACK set: completes the exchange of the data message waiting in entry {@code d}, if it is there. */
    private void acknowledgement(int from, int to, long t1, long t2, long k0, long ackNo, int d) {
        if (ex[d + 1] == exWord(ackNo, AWAITING, to, from) && ex[d] == k0
                && decisionTime - ex[d + 3] <= window) {
            // (t4 − t1) − (t3 − t2) = (t4 − t3) + (t2 − t1), the same long even on overflow
            roundTrips.add(to, from, (t2 - t1) + ex[d + 2]);
            exchanges++;
            if (exchangeSink != null) {
                long dataSent = exSend[d >> 2];
                exchangeSink.exchange(to, from, dataSent, dataSent + ex[d + 2], t1, t2);
            }
            ex[d + 1] = exWord(ackNo, USED, to, from); // a later duplicate ack must not count again
        }
    }

    /** For tests: the connection rings' counts of their rare paths. */
    ConnectionRings connections() {
        return connections;
    }

    /** Every acknowledgement looks its data message up, as before the filter (for tests: the path it replaces). */
    void lookUpEveryAcknowledgement() {
        ackConnections = null;
    }

    /**
     * Whether an acknowledgement on connection {@code k0} may find its data message in the
     * exchange cache: some data message decided so far waits on that connection.
     */
    private boolean mayAcknowledge(long k0) {
        ConnectionSet c = ackConnections;
        return c == null || c.contains(k0);
    }

    /** A data message (sequence {@code seq}, {@code len} bytes): waits in entry {@code d} for its acknowledgement. */
    private void awaitAcknowledgement(int from, int to, long t1, long t2, long k0, long seq, int len, int d) {
        long reversed = (k0 >>> 32 & 0xffff) << 48 | (k0 >>> 48) << 32
                | (k0 & 0xffff) << 16 | (k0 >>> 16 & 0xffff);
        long expected = (seq + len) & 0xffffffffL;
        if (ackConnections != null) {
            if (ackConnections.add(reversed) && ackConnections.size() > ACK_CONNECTIONS_MAX) {
                ackConnections = null; // too many to be worth it: every acknowledgement looks up
            }
        }
        long w = ex[d + 1];
        boolean same = (w & STATE_MASK) != 0 && ex[d] == reversed && w >>> 32 == expected
                && decisionTime - ex[d + 3] <= window;
        ex[d] = reversed;
        // two data segments expecting the same ack: the ack cannot tell which, neither counts
        ex[d + 1] = exWord(expected, same ? USED : AWAITING, from, to);
        ex[d + 2] = t2 - t1;
        ex[d + 3] = decisionTime;
        if (exSend != null) {
            exSend[d >> 2] = t1;
        }
    }

    /**
     * Decides every remaining key (emitting the last messages), oldest first. The keys of a
     * window's span (about a tenth of the keys of a 10-minute capture set with the 60 s window)
     * are decided here at once: their slots are read ahead a run at a time, as {@link #match}
     * does, one run ahead of the decisions, so that the removals' and the exchanges' cache misses
     * overlap instead of stalling each decision in turn.
     */
    public void finish() {
        finishing = true;
        homeReads += touchExchanges(Long.MAX_VALUE);
        while (!keys.isEmpty()) {
            long stop = Math.max(exAhead, keys.head + 1);
            homeReads += touchExchanges(Long.MAX_VALUE); // the next run, while this one is decided
            while (keys.head < stop && !keys.isEmpty()) {
                decideHead();
            }
        }
        finishing = false;
    }

    public RoundTripMinima roundTrips() {
        return roundTrips;
    }

    public long window() {
        return window;
    }

    public long events() {
        return events;
    }

    public long matched() {
        return matched;
    }

    /** Keys dropped because they were sent or received more than once. */
    public long ambiguous() {
        return ambiguous;
    }

    /** Events that re-send earlier sequence space on their connection. */
    public long retransmissions() {
        return retransmissions;
    }

    /** Extra events (retransmissions, duplicates) beyond the first on each side. */
    public long duplicateEvents() {
        return duplicateEvents;
    }

    public long sameNode() {
        return sameNode;
    }

    /** Keys that aged out of the window without a counterpart. */
    public long evictedUnmatched() {
        return evictedUnmatched;
    }

    /** Keys decided early because the matcher held {@code maxKeys} keys. */
    public long limitEvictions() {
        return limitEvictions;
    }

    /** Keys forced out by the key limit with no counterpart yet (dropped: a later counterpart is unmatched). */
    public long limitUnmatched() {
        return limitUnmatched;
    }

    public int maxKeys() {
        return maxKeys;
    }

    /** Keys still without a counterpart at the end of the input. */
    public long unmatchedAtEnd() {
        return unmatchedAtEnd;
    }

    public long exchanges() {
        return exchanges;
    }

    /** Events that were TCP segments with addresses (keys that can form exchanges). */
    public long tcpSegments() {
        return tcpSegments;
    }

    /** Largest number of keys held at once (the memory bound actually reached). */
    public int peakKeys() {
        return peakKeys;
    }

    private static String seconds(long ns) {
        return ns % 1_000_000_000L == 0 ? Long.toString(ns / 1_000_000_000L)
                : java.math.BigDecimal.valueOf(ns, 9).stripTrailingZeros().toPlainString();
    }

    /** One line summarizing the counts, for warnings. */
    public String summary() {
        String s = String.format("matching: %d events, %d messages, %d ambiguous keys dropped "
                        + "(%d retransmitted segments, %d duplicate events), %d same-node, %d evicted unmatched "
                        + "(window %s s), %d unmatched at end, %d exchanges, peak %d keys",
                events, matched, ambiguous, retransmissions, duplicateEvents, sameNode, evictedUnmatched,
                seconds(window), unmatchedAtEnd, exchanges, peakKeys);
        if (limitEvictions > 0) {
            s += String.format("; key limit %d reached: %d keys decided early, %d of them dropped unmatched"
                    + " (raise the heap, TRACESYNC_JAVA_OPTS=-Xmx..., to hold more)", maxKeys, limitEvictions,
                    limitUnmatched);
        }
        return s;
    }
}
