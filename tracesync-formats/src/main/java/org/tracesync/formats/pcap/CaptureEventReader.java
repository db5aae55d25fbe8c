package org.tracesync.formats.pcap;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.model.NodeInfo;

/**
 * The reading half of {@link CaptureMessageInput}: reads the captures simultaneously, merges
 * them by local timestamp (a binary heap over the captures, ties to the lower index), decodes
 * each packet and appends the ones the matchers need to an {@link EventBlock} — TCP segments
 * between traced hosts, UDP datagrams to broadcast or multicast addresses — counting the rest.
 * It touches no matcher state, so it can run on a thread of its own.
 *
 * <p>Cost: O(log k) per packet for k captures plus the decoding; memory: one read buffer per
 * capture.
 */
final class CaptureEventReader implements Closeable {

    private final CaptureReader[] readers;
    private final AddressTable traced = new AddressTable();
    private final List<Long> directed = new ArrayList<>();
    private final DecodedPacket p = new DecodedPacket();
    /** Min-heap of capture indices by current timestamp. */
    private final int[] heap;
    private int size;
    private final long[] last;

    long packets;
    long tcpBetweenTraced;
    long otherTraffic;
    long broadcastDatagrams;
    long backwardTimestamps;

    CaptureEventReader(List<Path> files, List<NodeInfo> nodes) throws IOException {
        int k = files.size();
        for (int i = 0; i < k; i++) {
            for (String a : nodes.get(i).addresses()) {
                long[] v = DecodedPacket.parseAddress(a);
                if (v != null) {
                    traced.add(v[0], v[1], i);
                }
            }
        }
        readers = new CaptureReader[k];
        heap = new int[k];
        last = new long[k];
        try {
            for (int i = 0; i < k; i++) {
                readers[i] = CaptureReader.open(files.get(i));
            }
            for (int i = 0; i < k; i++) {
                if (readers[i].next()) {
                    heap[size++] = i;
                    last[i] = readers[i].timestamp();
                    siftUp(size - 1);
                }
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        // pcapng interfaces (and their netmasks) are known once each capture's first packet is read
        for (CaptureReader r : readers) {
            for (CaptureInterface ci : r.interfaces()) {
                directed.addAll(ci.ipv4Broadcasts());
            }
        }
    }

    /**
     * Appends events to {@code block} until it is full or the captures end; returns false when
     * they have ended (the block may still hold their last events).
     */
    boolean fill(EventBlock block) throws IOException {
        DecodedPacket p = this.p;
        while (size > 0) {
            if (block.isFull()) {
                return true;
            }
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
                        tcpBetweenTraced++;
                        block.addSegment(node, fromMe, ts, src, dst, p.srcPort, p.dstPort, p.seq, p.ack,
                                p.flags, p.payloadLength);
                    } else {
                        otherTraffic++;
                    }
                } else {
                    otherTraffic++;
                }
            } else if (kind == DecodedPacket.UDP && CaptureMessageInput.isBroadcast(p, directed)) {
                broadcastDatagrams++;
                boolean fromMe = traced.owner(p.srcHi, p.srcLo) == node;
                long hash = payloadHash(r.data(), p.payloadOffset, p.payloadCaptured);
                long a = p.srcLo ^ Long.rotateLeft(p.srcHi, 17);
                long b = p.dstLo ^ Long.rotateLeft(p.dstHi, 17) ^ ((long) p.payloadLength << 48);
                long c = (long) p.srcPort << 48 | (long) p.dstPort << 32 | ((p.ipId ^ hash) & 0xffffffffL);
                block.addDatagram(node, fromMe, ts, a, b, c);
            } else {
                otherTraffic++;
            }
            if (r.next()) {
                long t = r.timestamp();
                if (t < last[node]) {
                    backwardTimestamps++;
                }
                last[node] = t;
                siftDown();
            } else {
                heap[0] = heap[--size];
                siftDown();
            }
        }
        return false;
    }

    /** Notes of the capture readers (skipped blocks, ...). */
    List<String> warnings() {
        List<String> w = new ArrayList<>();
        for (CaptureReader r : readers) {
            w.addAll(r.warnings());
        }
        return w;
    }

    private static long payloadHash(byte[] b, int off, int len) {
        int n = Math.min(len, 64);
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < n; i++) {
            h = (h ^ (b[off + i] & 0xff)) * 0x100000001b3L;
        }
        return h ^ (h >>> 32);
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (less(heap[i], heap[parent])) {
                int t = heap[i];
                heap[i] = heap[parent];
                heap[parent] = t;
                i = parent;
            } else {
                return;
            }
        }
    }

    private void siftDown() {
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= size) {
                return;
            }
            int m = l + 1 < size && less(heap[l + 1], heap[l]) ? l + 1 : l;
            if (less(heap[m], heap[i])) {
                int t = heap[i];
                heap[i] = heap[m];
                heap[m] = t;
                i = m;
            } else {
                return;
            }
        }
    }

    private boolean less(int a, int b) {
        long ta = readers[a].timestamp();
        long tb = readers[b].timestamp();
        return ta < tb || (ta == tb && a < b);
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (CaptureReader r : readers) {
            if (r != null) {
                try {
                    r.close();
                } catch (IOException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
