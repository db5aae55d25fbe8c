package org.tracesync.formats.pcap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.model.NetEventSink;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.core.model.NodeInfo;

/**
 * One capture as a {@link NetEventSource}: every TCP segment sent or received by the node
 * becomes a {@link NetEvent} with a {@link TcpSegmentKey} (direction by the rule of
 * {@link CaptureMessageInput}). For mixing captures with other trace kinds through a generic
 * matcher; a set of captures alone is faster through {@link CaptureMessageInput}.
 * Allocates one event and key per TCP segment.
 */
public final class CaptureSource implements NetEventSource {

    private final Path file;
    private final NodeInfo node;
    private final List<String> warnings = new ArrayList<>();

    public CaptureSource(Path file, NodeInfo node) {
        this.file = file;
        this.node = node;
    }

    /** A capture on its own: name from the file stem, addresses from the capture or inferred. */
    public static CaptureSource open(Path file) throws IOException {
        return new CaptureSource(file, CaptureNodes.resolve(List.of(file), CaptureOptions.defaults()).get(0));
    }

    @Override
    public NodeInfo node() {
        return node;
    }

    @Override
    public void stream(NetEventSink sink) throws IOException {
        AddressTable own = new AddressTable();
        for (String a : node.addresses()) {
            long[] v = DecodedPacket.parseAddress(a);
            if (v != null) {
                own.add(v[0], v[1], 0);
            }
        }
        DecodedPacket p = new DecodedPacket();
        warnings.clear();
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                if (PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p)
                        != DecodedPacket.TCP) {
                    continue;
                }
                boolean fromMe = own.find(p.srcHi, p.srcLo) >= 0;
                boolean toMe = own.find(p.dstHi, p.dstLo) >= 0;
                if (fromMe == toMe) {
                    continue;
                }
                TcpSegmentKey key = new TcpSegmentKey(DecodedPacket.addressBytes(p.srcHi, p.srcLo),
                        DecodedPacket.addressBytes(p.dstHi, p.dstLo), p.srcPort, p.dstPort, p.seq, p.ack,
                        p.flags, p.payloadLength);
                sink.event(new NetEvent(fromMe ? Direction.SEND : Direction.RECEIVE, r.timestamp(), key));
            }
            warnings.addAll(r.warnings());
        }
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }
}
