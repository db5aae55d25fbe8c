package org.tracesync.formats.pcap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;

/**
 * One pcap/pcapng capture of a set, as an {@link EventTrace}. Its cursor decodes each packet
 * and emits what the matchers need: a TCP segment between traced hosts (both addresses belong to
 * some node of the pass, as a SEND when the source is this node's, a RECEIVE when the destination
 * is), or a UDP datagram to a broadcast or multicast address (RECEIVE unless this node sent it).
 * Everything else is other traffic. Broadcast destinations: multicast, 255.255.255.255, a directed
 * broadcast derived from a pcapng interface's netmask of any capture of the set, or — no netmask
 * being known — an IPv4 address ending in .255.
 *
 * <p>Cost: the packet decoding plus one or two address-table lookups per packet; no allocation
 * per packet. A classic pcap is decoded in place from mapped windows ({@link CaptureWindow},
 * {@link CaptureReader#openInPlace}), without the heap copy. Memory: one read buffer (a pcap: a
 * 1 MiB window) per capture.
 */
final class CaptureTrace implements EventTrace {

    private final Path file;
    private final NodeInfo node;
    /** Directed broadcast addresses of every capture of the set (known once each has been opened). */
    private final List<Long> directed;
    private long resolution;

    CaptureTrace(Path file, NodeInfo node, List<Long> directed) {
        this.file = file;
        this.node = node;
        this.directed = directed;
    }

    @Override
    public NodeInfo node() {
        return node;
    }

    /**
     * The coarsest resolution of the capture's interfaces (1 µs for a classic µs pcap), read from
     * the file header and the interface blocks before the first packet. O(1): one record read.
     */
    @Override
    public long timestampResolution() throws IOException {
        if (resolution == 0) {
            long r = 1;
            try (CaptureReader reader = CaptureReader.open(file)) {
                reader.next();
                for (CaptureInterface ci : reader.interfaces()) {
                    long ticks = ci.resolution().ticksPerSecond();
                    r = Math.max(r, ticks >= 1_000_000_000L ? 1 : (1_000_000_000L + ticks - 1) / ticks);
                }
            }
            resolution = r;
        }
        return resolution;
    }

    @Override
    public EventCursor cursor(int index, AddressTable addresses) throws IOException {
        return new Cursor(CaptureReader.openInPlace(file), index, addresses, directed, true);
    }

    /** A cursor that decodes every packet through {@link PacketDecoder#decode} (tests: the other path). */
    EventCursor decodingCursor(int index, AddressTable addresses) throws IOException {
        return new Cursor(CaptureReader.open(file), index, addresses, directed, false);
    }

    static boolean isBroadcast(DecodedPacket p, List<Long> directed) {
        return BroadcastDatagram.isBroadcast(p, directed);
    }

    private static final class Cursor implements EventCursor {
        private final CaptureReader r;
        private final int self;
        private final AddressTable traced;
        private final List<Long> directed;
        private final DecodedPacket p = new DecodedPacket();
        private boolean interfacesRead;

        Cursor(CaptureReader r, int self, AddressTable traced, List<Long> directed, boolean fused) {
            this.r = r;
            this.fused = fused;
            // a classic pcap's link type is the file's: checked once here, not per packet
            this.ethernetInPlace = fused && r.readsInPlace && r instanceof PcapReader
                    && r.linkType() == LinkTypes.ETHERNET;
            this.inPlacePcap = r.readsInPlace && r instanceof PcapReader p ? p : null;
            for (int k = 0; k < PAIRS; k++) {
                pairKey[k] = pairSlot(EMPTY_A) == k ? EMPTY_B : EMPTY_A;
            }
            this.self = self;
            this.traced = traced;
            this.directed = directed;
        }

        @Override
        public boolean advance() throws IOException {
            boolean more = inPlacePcap != null ? inPlacePcap.nextFromWindow() : r.next();
            if (!interfacesRead) {
                readInterfaces();
            }
            return more;
        }

        /** Once, after the first packet: pcapng interfaces (and their netmasks) are known then. */
        private void readInterfaces() {
            interfacesRead = true;
            synchronized (directed) {
                for (CaptureInterface ci : r.interfaces()) {
                    for (Long b : ci.ipv4Broadcasts()) {
                        if (!directed.contains(b)) {
                            directed.add(b);
                        }
                    }
                }
            }
        }

        @Override
        public long time() {
            return r.timestamp();
        }

        /**
         * Small enough in bytecode (under C2's 325 bytes for a hot call) for the merge loop to
         * inline it with the in-place fast path ({@link #inPlace}); every other packet goes
         * through {@link #emitOther}, out of line.
         */
        @Override
        public int emit(EventBlock block, int node, long ts) {
            long in;
            if (ethernetInPlace && r.capturedLength >= 54 && (in = r.windowAddress) != 0) {
                int kind = inPlace(block, node, ts, in);
                if (kind != NOT_FAST) {
                    return kind;
                }
            }
            return emitOther(block, node, ts);
        }

        /** {@link #ethernetIpv4Tcp} of the record in place at {@code in} (54 bytes or more readable from it). */
        private int inPlace(EventBlock block, int node, long ts, long in) {
            sun.misc.Unsafe u = CaptureWindow.U;
            return ethernetIpv4Tcp(block, node, ts, Long.reverseBytes(u.getLong(in + 12)),
                    Long.reverseBytes(u.getLong(in + 20)), Long.reverseBytes(u.getLong(in + 26)),
                    Long.reverseBytes(u.getLong(in + 34)), Long.reverseBytes(u.getLong(in + 42)));
        }

        /** {@link #emit} of a packet that the in-place fast path did not take. */
        private int emitOther(EventBlock block, int node, long ts) {
            if (fused && !ethernetInPlace && r.linkType() == LinkTypes.ETHERNET && r.capturedLength() >= 54) {
                int kind;
                long a = r.windowAddress; // in place: 54 bytes or more readable from a
                if (a != 0) {
                    kind = inPlace(block, node, ts, a);
                } else {
                    byte[] b = r.data();
                    int off = r.dataOffset();
                    kind = ethernetIpv4Tcp(block, node, ts, Bytes.i64be(b, off + 12), Bytes.i64be(b, off + 20),
                            Bytes.i64be(b, off + 26), Bytes.i64be(b, off + 34), Bytes.i64be(b, off + 42));
                }
                if (kind != NOT_FAST) {
                    return kind;
                }
            }
            return decoded(block, node, ts);
        }

        private static final int NOT_FAST = -1;
        /** A classic pcap of Ethernet frames read in place: {@link #emit} loads the fast path's words from the window with no other check than the length. */
        private final boolean ethernetInPlace;
        /** The reader when it is a classic pcap read in place: {@link #advance} calls its in-place step directly. */
        private final PcapReader inPlacePcap;
        /** Whether {@link #emit} takes {@link #ethernetIpv4Tcp} first (false only in tests: the other path alone). */
        private final boolean fused;

        /**
         * The commonest packet, untagged Ethernet → IPv4 without options → TCP, whose 54 header
         * bytes were captured, decoded straight into the block: five 8-byte reads (at 12, 20, 26,
         * 34 and 42, made by {@link #emit} from the window in place or the heap buffer) hold every
         * field the key needs, and nothing goes through {@link DecodedPacket} (whose sixteen fields were
         * stored, then loaded back, for every packet). The result is {@link #decoded}'s, event for
         * event (tested); anything else returns {@link #NOT_FAST} having written nothing.
         */
        private int ethernetIpv4Tcp(EventBlock block, int node, long ts, long w0, long w1, long addresses,
                                    long ports, long w4) {
            // w0 (at 12): ethertype, IP version and header length, TOS, total length, identification
            // w1 (at 20): flags and fragment offset, TTL, protocol, checksum, first half of the source
            // addresses (at 26): source, destination; ports (at 34): ports, sequence number
            // w4 (at 42): acknowledgement, data offset and NS, flags, window
            int total = (int) (w0 >>> 16) & 0xffff;
            if (w0 >>> 40 != 0x08_00_45 || ((int) (w1 >>> 32) & 0xff) != 6 || (w1 >>> 48 & 0x1fff) != 0
                    || total < 20) {
                return NOT_FAST;
            }
            int k = pairSlot(addresses);
            long ids = pairKey[k] == addresses ? pairIds[k] : pair(addresses, k);
            if (ids != -1) {
                int src = (int) (ids >>> 32);
                int dst = (int) ids;
                int srcOwner = (src >>> 16) - 1;
                int dstOwner = (dst >>> 16) - 1;
                boolean fromMe = srcOwner == self;
                if (fromMe != (dstOwner == self)) {
                    int tcp12 = (int) (w4 >>> 24) & 0xff;
                    int payloadLength = Math.max(0, total - 20 - (tcp12 >>> 4) * 4);
                    block.addSegment(node, fromMe, ts, src & 0xffff, dst & 0xffff, (int) (ports >>> 48),
                            (int) (ports >>> 32) & 0xffff, ports & 0xffff_ffffL, w4 >>> 32,
                            (tcp12 & 0x01) << 8 | (int) (w4 >>> 16) & 0xff, payloadLength);
                    return KEY;
                }
            }
            return OTHER;
        }

        /** {@link #emit} through {@link PacketDecoder#decode}: every link layer and header layout. */
        private int decoded(EventBlock block, int node, long ts) {
            DecodedPacket p = this.p;
            int kind = PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p);
            if (kind == DecodedPacket.TCP) {
                int src = find(p.srcHi, p.srcLo);
                int dst = find(p.dstHi, p.dstLo);
                // both traced (owned by a node of the pass), exactly one of them this node's
                if (src != -1 && dst != -1) {
                    int srcOwner = (src >>> 16) - 1;
                    int dstOwner = (dst >>> 16) - 1;
                    boolean fromMe = srcOwner == self;
                    if (fromMe != (dstOwner == self) && srcOwner >= 0 && dstOwner >= 0) {
                        block.addSegment(node, fromMe, ts, src & 0xffff, dst & 0xffff, p.srcPort, p.dstPort,
                                p.seq, p.ack, p.flags, p.payloadLength);
                        return KEY;
                    }
                }
                return OTHER;
            }
            if (kind == DecodedPacket.UDP && isBroadcast(p, directed)) {
                boolean fromMe = traced.owner(p.srcHi, p.srcLo) == self;
                long[] k = BroadcastDatagram.key(p, r.data());
                block.addDatagram(node, fromMe, ts, k[0], k[1], k[2]);
                return BROADCAST;
            }
            return OTHER;
        }

        /**
         * The fast path's address pairs (source << 32 | destination, IPv4) whose two addresses
         * are in the table with an owner, by a hash of the pair, with their ids and owners as
         * {@link #find} gives them (source << 32 | destination): a capture's packets run between
         * a few pairs of hosts, and one compare here replaces two probes. A slot that holds no
         * pair holds a key whose own slot is another ({@link #EMPTY_A}, {@link #EMPTY_B}), so no
         * pair ever equals it there.
         */
        private final long[] pairKey = new long[PAIRS];
        private final long[] pairIds = new long[PAIRS];
        private static final int PAIRS = 64;
        private static final long EMPTY_A = 0;
        private static final long EMPTY_B = 1;

        private static int pairSlot(long addresses) {
            return (int) ((addresses * 0xC2B2AE3D27D4EB4FL) >>> 58); // 6 bits: PAIRS slots
        }

        /**
         * The pair's ids and owners (source << 32 | destination, each as {@link #find} gives it),
         * cached in slot {@code k}, or -1 when an address is not in the table or has no owner.
         */
        private long pair(long addresses, int k) {
            int src = find(0, DecodedPacket.V4_MAPPED | addresses >>> 32);
            int dst = find(0, DecodedPacket.V4_MAPPED | addresses & 0xffff_ffffL);
            if (src == -1 || dst == -1 || src >>> 16 == 0 || dst >>> 16 == 0) {
                return -1;
            }
            long ids = (long) src << 32 | (dst & 0xffff_ffffL);
            pairKey[k] = addresses;
            pairIds[k] = ids;
            return ids;
        }

        /**
         * IPv4 addresses found in the table, by a hash of their low word, with their id and owner:
         * a capture names a few hosts over and over, and one compare here replaces a probe of the
         * shared table and a read of the owner. Exact: an address's id and owner never change once
         * it is in the table.
         */
        private final long[] seenLo = new long[SEEN];
        private final int[] seenIdOwner = new int[SEEN];
        private static final int SEEN = 64;

        /**
         * The address's id (AddressTable ids are below 2^16) with its owner + 1 (at most
         * {@link org.tracesync.core.matching.TcpMatcher#MAX_NODES}) in the upper 16 bits, or -1 when
         * the address is not in the table (no id and owner give -1).
         */
        private int find(long hi, long lo) {
            if (hi != 0) {
                return idOwner(traced.find(hi, lo));
            }
            int k = (int) ((lo * 0x9E3779B97F4A7C15L) >>> 58); // 6 bits: SEEN slots
            if (seenLo[k] == lo) { // never 0 for an IPv4-mapped address, the empty slots' value
                return seenIdOwner[k];
            }
            int v = idOwner(traced.find(hi, lo));
            if (v != -1) {
                seenLo[k] = lo;
                seenIdOwner[k] = v;
            }
            return v;
        }

        private int idOwner(int id) {
            return id < 0 ? -1 : (traced.ownerOf(id) + 1) << 16 | id;
        }

        @Override
        public List<String> warnings() {
            return new ArrayList<>(r.warnings());
        }

        @Override
        public IOException inputFault(InternalError fault, boolean changedOnly) throws IOException {
            return r.fault(fault, changedOnly);
        }

        @Override
        public long bytesRead() {
            return r.recordOffset();
        }

        @Override
        public void close() throws IOException {
            r.close();
        }
    }
}
