package org.tracesync.formats.pcap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.BroadcastMatcher;
import org.tracesync.core.matching.BroadcastSink;
import org.tracesync.core.matching.EventBlock;
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
 * <p>Threads: with {@link CaptureOptions#readerThread()} the captures are read, merged and
 * decoded on a second thread ({@link CaptureEventReader}) that hands blocks of events to this
 * one, which matches them ({@link BlockHandover}); the messages, their order and every count are
 * those of the single-threaded pass, and the sinks are called from the calling thread only.
 *
 * <p>Cost: O(log k) per packet for k captures plus the matchers' O(1); memory: one read buffer
 * per capture, four blocks of {@value EventBlock#DEFAULT_CAPACITY} events, the matchers' windows.
 */
public final class CaptureMessageInput implements MessageInput {

    /** Blocks in flight between the reading thread and the matching one. */
    private static final int HANDOVER_BLOCKS = 4;

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
        TcpMatcher tcp = new TcpMatcher(k, options.window(), sink);
        BroadcastMatcher bcast = new BroadcastMatcher(options.window(),
                broadcasts == null ? (s, t, r, rt) -> { } : broadcasts);
        warnings.clear();
        CaptureEventReader in = new CaptureEventReader(files, nodes);
        try (in) {
            if (options.readerThread()) {
                BlockHandover.threaded(in::fill, block -> tcp.match(block, bcast), HANDOVER_BLOCKS,
                        EventBlock.DEFAULT_CAPACITY);
            } else {
                BlockHandover.inline(in::fill, block -> tcp.match(block, bcast), EventBlock.DEFAULT_CAPACITY);
            }
            tcp.finish();
            bcast.finish();
            warnings.addAll(in.warnings());
        }
        roundTrips = tcp.roundTrips();
        stats = new ReadStats(in.packets, in.tcpBetweenTraced, in.otherTraffic,
                in.broadcastDatagrams, in.backwardTimestamps, tcp.matched(), tcp.ambiguous(),
                tcp.duplicateEvents(), tcp.sameNode(), tcp.evictedUnmatched(), tcp.unmatchedAtEnd(),
                tcp.exchanges(), tcp.peakKeys(), bcast.groups());
        warnings.add(tcp.summary());
        if (in.backwardTimestamps > 0) {
            warnings.add(in.backwardTimestamps + " packets whose timestamp goes backwards within their capture");
        }
        if (in.broadcastDatagrams > 0) {
            warnings.add("broadcast: " + in.broadcastDatagrams + " datagrams, " + bcast.groups()
                    + " groups seen by several hosts, " + bcast.ambiguous() + " ambiguous");
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
}
