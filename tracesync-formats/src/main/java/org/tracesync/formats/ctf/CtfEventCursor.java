package org.tracesync.formats.ctf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.model.Direction;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.TraceFormatException;

/**
 * One pass over a CTF trace's network events, pulled one at a time for the matching pipeline: the
 * trace's streams merged in timestamp order (as {@link CtfTrace#read}: a {@link StreamMerge}, ties
 * to the lower stream index), every event given to a {@link CtfNetworkEvents}, the network events it
 * recognises returned. Memory is independent of the trace length (one packet per stream); cost
 * O(log s) per event for s streams plus the decoding, which reads only the fields the handler uses
 * ({@link CtfStreamReader#readOnly}). Nothing is allocated per event: a network
 * event's fields arrive in the handler's reused {@link CtfNetworkEvents.Segment} and go to the
 * block as numbers, its addresses through the pass's {@link AddressTable} (the keys a
 * {@code NetEventCursor} would add for the same events' {@code NetEvent}s).
 */
final class CtfEventCursor implements EventCursor {

    private final CtfTrace trace;
    private final List<CtfStreamReader> readers = new ArrayList<>();
    private final StreamMerge merge;
    private final CtfNetworkEvents net;
    private final AddressTable addresses;
    private CtfNetworkEvents.Segment current;
    private boolean ended;
    /** Events dropped because the address table was full. */
    private long tooManyAddresses;
    /** The one stream read, or -1 for all of them. */
    private final int only;

    CtfEventCursor(CtfTrace trace, List<String> warnings, AddressTable addresses) throws IOException {
        this(trace, warnings, addresses, -1);
    }

    /** A pass over stream {@code only} alone (its index in the trace's stream files), or all when -1. */
    CtfEventCursor(CtfTrace trace, List<String> warnings, AddressTable addresses, int only) throws IOException {
        this.trace = trace;
        this.addresses = addresses;
        this.only = only;
        this.net = CtfNetworkEvents.toSegments(s -> current = s);
        try {
            List<Path> files = trace.streamFiles();
            for (int i = 0; i < files.size(); i++) {
                if (only >= 0 && i != only) {
                    continue;
                }
                Path f = files.get(i);
                if (!Files.exists(f)) {
                    throw new TraceFormatException(f, "", "stream file missing");
                }
                CtfStreamReader r = new CtfStreamReader(f, i, trace.metadata(), warnings);
                r.readOnly(net::slotsRead); // the network fields; other events are stepped over
                readers.add(r);
            }
            merge = new StreamMerge(readers);
        } catch (NoSuchFileException e) {
            close();
            throw new TraceFormatException(Path.of(e.getFile()), "", "stream file missing");
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public boolean advance() throws IOException {
        current = null;
        for (CtfStreamReader r = merge.head(); r != null; r = merge.head()) {
            net.event(r);
            merge.next();
            if (current != null) {
                return true;
            }
        }
        if (!ended) {
            ended = true;
            if (only < 0) {
                trace.passEnded(net.summary(), readers);
            }
        }
        return false;
    }

    /** The current network event's fields (valid until the next {@link #advance}), for tests. */
    CtfNetworkEvents.Segment segment() {
        return current;
    }

    @Override
    public long time() {
        return current.timestamp;
    }

    @Override
    public int emit(EventBlock block, int node, long time) {
        CtfNetworkEvents.Segment s = current;
        boolean send = s.direction == Direction.SEND;
        if (s.sourceLength == 0 || s.destinationLength == 0) {
            block.addSegmentWithoutAddresses(node, send, time, s.seq, s.ack, s.flags);
            return KEY;
        }
        int src = intern(s.sourceLength, s.sourceHi, s.sourceLo);
        int dst = intern(s.destinationLength, s.destinationHi, s.destinationLo);
        if (src < 0 || dst < 0) {
            tooManyAddresses++;
            return OTHER;
        }
        if (s.flags == -1) {
            block.addUnicastDatagram(node, send, time, src, dst, s.sourcePort, s.destinationPort, s.seq, s.ack,
                    s.payloadLength);
        } else {
            block.addSegment(node, send, time, src, dst, s.sourcePort, s.destinationPort, s.seq, s.ack, s.flags,
                    s.payloadLength);
        }
        return KEY;
    }

    /** The address's id (IPv4 and IPv6 only, as {@link AddressTable#intern(byte[])}); -1 when full or another length. */
    private int intern(int length, long hi, long lo) {
        return length == 4 || length == 16 ? addresses.intern(hi, lo) : -1;
    }

    @Override
    public List<String> warnings() {
        if (!ended) {
            return List.of();
        }
        List<String> w = new ArrayList<>(only < 0 ? trace.warnings() : List.of());
        if (tooManyAddresses > 0) {
            w.add(trace.directory() + ": " + tooManyAddresses + " network events not matched: the traces name more"
                    + " than 65,536 addresses");
        }
        return w;
    }

    @Override
    public void close() throws IOException {
        for (CtfStreamReader r : readers) {
            r.close();
        }
    }
}
