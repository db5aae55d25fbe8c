package org.tracesync.formats.pcap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.BroadcastMatcher;
import org.tracesync.core.matching.BroadcastSink;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.matching.TcpMatcher;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;

/**
 * A set of pcap/pcapng captures, one per host, read as matched messages (stages 1 and 2 in one
 * streaming pass). The captures are read simultaneously and merged by local timestamp; each
 * TCP segment between two traced hosts (both addresses belong to some capture's node) goes to a
 * {@link TcpMatcher} (bounded window), each UDP datagram to a broadcast or multicast address to a
 * {@link BroadcastMatcher}. Everything else is counted and skipped.
 *
 * <p>Direction: on node N's capture a packet is a SEND when its source address is one of N's
 * addresses, a RECEIVE when its destination is (broadcast datagrams: RECEIVE unless sent by N).
 * Broadcast destinations: multicast, 255.255.255.255, a directed broadcast derived from a pcapng
 * interface's netmask, or — no netmask being known — an IPv4 address ending in .255.
 *
 * <p>Cost: O(log k) per packet for k captures plus the matchers' O(1); memory: one read buffer
 * per capture plus the matchers' windows.
 */
public final class CaptureMessageInput implements MessageInput {

    private final List<Path> files;
    private final List<NodeInfo> nodes;
    private final CaptureOptions options;
    private final List<String> warnings = new ArrayList<>();
    private RoundTripMinima roundTrips;
    private ReadStats stats;

    /** Counts of the last pass. */
    public record ReadStats(long packets, long tcpBetweenTraced, long otherTraffic, long broadcastDatagrams,
                            long backwardTimestamps, long messages, long ambiguous, long duplicateEvents,
                            long sameNode, long evictedUnmatched, long unmatchedAtEnd, long exchanges,
                            int peakKeys, long broadcastGroups) {
    }

    public CaptureMessageInput(List<Path> files, CaptureOptions options) throws IOException {
        this.files = List.copyOf(files);
        this.options = options;
        this.nodes = CaptureNodes.resolve(files, options);
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes;
    }

    public List<Path> files() {
        return files;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        read(sink, null);
    }

    /** Round-trip minima from the exchanges of the last pass (null before any pass). */
    public RoundTripMinima roundTrips() {
        return roundTrips;
    }

    public ReadStats stats() {
        return stats;
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** One pass: messages into {@code sink}, broadcast groups into {@code broadcasts} (nullable). */
    public void read(MessageSink sink, BroadcastSink broadcasts) throws IOException {
        int k = files.size();
        AddressTable traced = new AddressTable();
        for (int i = 0; i < k; i++) {
            for (String a : nodes.get(i).addresses()) {
                long[] v = DecodedPacket.parseAddress(a);
                if (v != null) {
                    traced.add(v[0], v[1], i);
                }
            }
        }
        TcpMatcher tcp = new TcpMatcher(k, options.window(), sink);
        BroadcastMatcher bcast = new BroadcastMatcher(options.window(),
                broadcasts == null ? (s, t, r, rt) -> { } : broadcasts);
        List<Long> directed = new ArrayList<>();
        CaptureReader[] readers = new CaptureReader[k];
        long packets = 0;
        long tcpTraced = 0;
        long other = 0;
        long bcastDatagrams = 0;
        long backwards = 0;
        warnings.clear();
        try {
            for (int i = 0; i < k; i++) {
                readers[i] = CaptureReader.open(files.get(i));
            }
            // min-heap of capture indices by current timestamp
            int[] heap = new int[k];
            int size = 0;
            long[] last = new long[k];
            for (int i = 0; i < k; i++) {
                if (readers[i].next()) {
                    heap[size++] = i;
                    last[i] = readers[i].timestamp();
                    siftUp(heap, size - 1, readers);
                }
            }
            for (CaptureReader r : readers) {
                for (CaptureInterface ci : r.interfaces()) {
                    directed.addAll(ci.ipv4Broadcasts());
                }
            }
            DecodedPacket p = new DecodedPacket();
            while (size > 0) {
                int node = heap[0];
                CaptureReader r = readers[node];
                long ts = r.timestamp();
                packets++;
                int kind = PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p);
                if (kind == DecodedPacket.TCP) {
                    int src = traced.find(p.srcHi, p.srcLo);
                    int dst = traced.find(p.dstHi, p.dstLo);
                    if (src >= 0 && dst >= 0) {
                        boolean fromMe = traced.ownerOf(src) == node;
                        boolean toMe = traced.ownerOf(dst) == node;
                        if (fromMe != toMe) {
                            tcpTraced++;
                            tcp.segment(node, fromMe, ts, src, dst, p.srcPort, p.dstPort, p.seq, p.ack,
                                    p.flags, p.payloadLength);
                        } else {
                            other++;
                        }
                    } else {
                        other++;
                    }
                } else if (kind == DecodedPacket.UDP && isBroadcast(p, directed)) {
                    bcastDatagrams++;
                    boolean fromMe = traced.owner(p.srcHi, p.srcLo) == node;
                    long hash = payloadHash(r.data(), p.payloadOffset, p.payloadCaptured);
                    long a = p.srcLo ^ Long.rotateLeft(p.srcHi, 17);
                    long b = p.dstLo ^ Long.rotateLeft(p.dstHi, 17) ^ ((long) p.payloadLength << 48);
                    long c = (long) p.srcPort << 48 | (long) p.dstPort << 32
                            | ((p.ipId ^ hash) & 0xffffffffL);
                    bcast.datagram(node, fromMe, ts, a, b, c);
                } else {
                    other++;
                }
                if (r.next()) {
                    long t = r.timestamp();
                    if (t < last[node]) {
                        backwards++;
                    }
                    last[node] = t;
                    siftDown(heap, size, readers);
                } else {
                    heap[0] = heap[--size];
                    siftDown(heap, size, readers);
                }
            }
            tcp.finish();
            bcast.finish();
            for (CaptureReader rd : readers) {
                warnings.addAll(rd.warnings());
            }
        } finally {
            for (CaptureReader rd : readers) {
                if (rd != null) {
                    rd.close();
                }
            }
        }
        roundTrips = tcp.roundTrips();
        stats = new ReadStats(packets, tcpTraced, other, bcastDatagrams, backwards, tcp.matched(),
                tcp.ambiguous(), tcp.duplicateEvents(), tcp.sameNode(), tcp.evictedUnmatched(),
                tcp.unmatchedAtEnd(), tcp.exchanges(), tcp.peakKeys(), bcast.groups());
        warnings.add(tcp.summary());
        if (backwards > 0) {
            warnings.add(backwards + " packets whose timestamp goes backwards within their capture");
        }
        if (bcastDatagrams > 0) {
            warnings.add("broadcast: " + bcastDatagrams + " datagrams, " + bcast.groups() + " groups seen by "
                    + "several hosts, " + bcast.ambiguous() + " ambiguous");
        }
    }

    static boolean isBroadcast(DecodedPacket p, List<Long> directed) {
        if (DecodedPacket.isGroupAddress(p.dstHi, p.dstLo)) {
            return true;
        }
        if (p.dstHi == 0 && (p.dstLo >>> 32) == 0xffff) {
            long v4 = p.dstLo & 0xffffffffL;
            return directed.isEmpty() ? (v4 & 0xff) == 0xff : directed.contains(v4);
        }
        return false;
    }

    private static long payloadHash(byte[] b, int off, int len) {
        int n = Math.min(len, 64);
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < n; i++) {
            h = (h ^ (b[off + i] & 0xff)) * 0x100000001b3L;
        }
        return h ^ (h >>> 32);
    }

    private static void siftUp(int[] heap, int i, CaptureReader[] r) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (less(heap[i], heap[parent], r)) {
                int t = heap[i];
                heap[i] = heap[parent];
                heap[parent] = t;
                i = parent;
            } else {
                return;
            }
        }
    }

    private static void siftDown(int[] heap, int size, CaptureReader[] r) {
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int m = l + 1 < size && less(heap[l + 1], heap[l], r) ? l + 1 : l;
            if (less(heap[m], heap[i], r)) {
                int t = heap[i];
                heap[i] = heap[m];
                heap[m] = t;
                i = m;
            } else {
                return;
            }
        }
    }

    private static boolean less(int a, int b, CaptureReader[] r) {
        long ta = r[a].timestamp();
        long tb = r[b].timestamp();
        return ta < tb || (ta == tb && a < b);
    }
}
