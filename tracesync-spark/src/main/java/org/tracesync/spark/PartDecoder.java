package org.tracesync.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.tracesync.formats.pcap.BroadcastDatagram;
import org.tracesync.formats.pcap.CapturePart;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.pcap.DecodedPacket;
import org.tracesync.formats.pcap.PacketDecoder;
import scala.Tuple2;

/**
 * The decoding task: reads one {@link PartSpec} with the existing readers ({@link CapturePart},
 * {@link PacketDecoder}) and yields, lazily, one {@link SegmentEvent} per TCP segment between two
 * traced hosts that the capture's node sent or received, and one per broadcast or multicast UDP
 * datagram — the events the one-machine reader gives its matchers. Other packets are counted. When the part is done, its {@link PartReport} goes to
 * {@code reports}.
 *
 * <p>Cost: one pass over the part's bytes, O(1) per packet, one small object per TCP event.
 */
final class PartDecoder implements Iterator<Tuple2<SegmentEvent, Object>> {

    private final PartSpec spec;
    private final TracedAddresses traced;
    private final Consumer<PartReport> reports;
    private final CapturePart part;
    private final CaptureReader r;
    private final DecodedPacket p = new DecodedPacket();
    private SegmentEvent next;
    private boolean done;

    private long packets;
    private long tcpBetweenTraced;
    private long otherTraffic;
    private long broadcastDatagrams;
    private long backwardTimestamps;
    private long firstTime = Long.MIN_VALUE;
    private long lastTime = Long.MIN_VALUE;
    /** The largest timestamp so far in the capture (the carry from earlier parts included). */
    private long order;

    /** The node's coarse clock offset (ns), subtracted from every time for matching. */
    private final long offset;
    /** Stop after this many packets (the coarse-offset sample), else Long.MAX_VALUE. */
    private final long limit;

    private PartDecoder(PartSpec spec, TracedAddresses traced, Consumer<PartReport> reports, CapturePart part,
                        long offset, long limit) {
        this.spec = spec;
        this.traced = traced;
        this.reports = reports;
        this.part = part;
        this.r = part.reader();
        this.offset = offset;
        this.limit = limit;
        this.order = spec.carry() == Long.MIN_VALUE ? Long.MIN_VALUE : spec.carry() - offset;
    }

    static Iterator<Tuple2<SegmentEvent, Object>> open(PartSpec spec, TracedAddresses traced,
                                                      Map<String, String> hadoopConf, Consumer<PartReport> reports) {
        return open(spec, traced, hadoopConf, reports, 0, Long.MAX_VALUE);
    }

    /**
     * As {@link #open(PartSpec, TracedAddresses, Map, Consumer)}, times minus the node's coarse clock
     * {@code offset}, stopping after {@code limit} packets.
     */
    static Iterator<Tuple2<SegmentEvent, Object>> open(PartSpec spec, TracedAddresses traced,
                                                      Map<String, String> hadoopConf, Consumer<PartReport> reports,
                                                      long offset, long limit) {
        Configuration conf = new Configuration(false);
        hadoopConf.forEach(conf::set);
        try {
            CapturePart part = CapturePart.open(Path.of(spec.name()), new HadoopFileChannel(spec.uri(), conf),
                    spec.start(), spec.end(), spec.boundary());
            return new PartDecoder(spec, traced, reports, part, offset, limit);
        } catch (IOException e) {
            throw new CaptureInputError(PartWalk.message(spec, e));
        }
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (done) {
            return false;
        }
        try {
            next = advance();
        } catch (IOException e) {
            closeQuietly();
            throw new CaptureInputError(PartWalk.message(spec, e));
        }
        return next != null;
    }

    @Override
    public Tuple2<SegmentEvent, Object> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        SegmentEvent e = next;
        next = null;
        return new Tuple2<>(e, null);
    }

    private SegmentEvent advance() throws IOException {
        int node = spec.file();
        while (packets < limit && r.next()) {
            long raw = r.timestamp();
            long ts = raw - offset;
            if (packets++ == 0) {
                firstTime = raw;
            } else if (raw < lastTime) {
                backwardTimestamps++;
            }
            lastTime = raw;
            order = Math.max(order, ts);
            int kind = PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p);
            if (kind == DecodedPacket.TCP) {
                int src = traced.find(p.srcHi, p.srcLo);
                int dst = traced.find(p.dstHi, p.dstLo);
                if (src >= 0 && dst >= 0) {
                    boolean fromMe = traced.ownerOf(src) == node;
                    boolean toMe = traced.ownerOf(dst) == node;
                    if (fromMe != toMe) {
                        tcpBetweenTraced++;
                        long a = (long) src << 48 | (long) (dst & 0xffff) << 32 | (long) (p.srcPort & 0xffff) << 16
                                | (p.dstPort & 0xffff);
                        long b = p.seq << 32 | (p.ack & 0xffffffffL);
                        long c = (long) p.flags << 32 | (p.payloadLength & 0xffffffffL);
                        return new SegmentEvent(node, fromMe, ts, order, r.recordOffset(), a, b, c);
                    }
                }
                otherTraffic++;
            } else if (kind == DecodedPacket.UDP && BroadcastDatagram.isBroadcast(p, traced.directedBroadcasts())) {
                broadcastDatagrams++;
                int src = traced.find(p.srcHi, p.srcLo);
                boolean fromMe = src >= 0 && traced.ownerOf(src) == node;
                long[] k = BroadcastDatagram.key(p, r.data());
                return SegmentEvent.datagram(node, fromMe, ts, order, r.recordOffset(), k[0], k[1], k[2]);
            } else {
                otherTraffic++;
            }
        }
        done = true;
        long stop = part.stopOffset();
        long late = part.lateHeaderBlocks();
        part.close();
        reports.accept(new PartReport(spec.file(), spec.part(), part.firstRecord(), stop, late, packets,
                tcpBetweenTraced, otherTraffic, broadcastDatagrams, backwardTimestamps, firstTime, lastTime, order));
        return null;
    }

    private void closeQuietly() {
        done = true;
        try {
            part.close();
        } catch (IOException ignored) {
            // the read error is the one reported
        }
    }
}
