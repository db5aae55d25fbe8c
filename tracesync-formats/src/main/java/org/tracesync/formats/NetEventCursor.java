package org.tracesync.formats;

import java.io.IOException;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;

/**
 * An {@link EventCursor} over {@link NetEvent}s, for formats that produce event objects (CTF,
 * JSON lines): a subclass only says what the next event is. Keys: {@link MessageIdKey} (exact up to
 * 16 bytes, else hashed: see {@link EventBlock#addMessageId}); {@link TcpSegmentKey} with
 * addresses (a TCP segment, or with flags -1 a unicast UDP datagram) through the pass's
 * {@link AddressTable}; without addresses (LTTng add-on events) on seq, ack and flags alone.
 * Allocation: whatever the subclass allocates per event; nothing is kept.
 */
public abstract class NetEventCursor implements EventCursor {

    private final AddressTable addresses;
    private NetEvent current;
    /** Events dropped because the address table was full. */
    private long tooManyAddresses;

    protected NetEventCursor(AddressTable addresses) {
        this.addresses = addresses;
    }

    /** The next event of the trace, or null at its end. */
    protected abstract NetEvent next() throws IOException;

    @Override
    public final boolean advance() throws IOException {
        current = next();
        return current != null;
    }

    @Override
    public final long time() {
        return current.timestamp();
    }

    /** Events that could not be matched because the trace names more than 65,536 addresses. */
    protected long tooManyAddresses() {
        return tooManyAddresses;
    }

    @Override
    public final int emit(EventBlock block, int node, long time) {
        boolean send = current.direction() == Direction.SEND;
        Object key = current.key();
        if (key instanceof MessageIdKey id) {
            block.addMessageId(node, send, time, id.id());
            return KEY;
        }
        if (key instanceof TcpSegmentKey k) {
            if (k.source() == null || k.destination() == null) {
                block.addSegmentWithoutAddresses(node, send, time, k.seq(), k.ack(), k.flags());
                return KEY;
            }
            int src = addresses.intern(k.source());
            int dst = addresses.intern(k.destination());
            if (src < 0 || dst < 0) {
                tooManyAddresses++;
                return OTHER;
            }
            if (k.flags() == -1) {
                block.addUnicastDatagram(node, send, time, src, dst, k.sourcePort(), k.destinationPort(), k.seq(),
                        k.ack(), k.payloadLength());
            } else {
                block.addSegment(node, send, time, src, dst, k.sourcePort(), k.destinationPort(), k.seq(), k.ack(),
                        k.flags(), k.payloadLength());
            }
            return KEY;
        }
        throw new IllegalStateException("unknown key type " + key.getClass().getName());
    }
}
