package org.tracesync.formats.ctf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.tracesync.core.model.NetEvent;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.NetEventCursor;
import org.tracesync.formats.TraceFormatException;

/**
 * One pass over a CTF trace's network events, pulled one at a time for the matching pipeline: the
 * trace's streams merged in timestamp order (as {@link CtfTrace#read}: a priority queue, ties to
 * the lower stream index), every event given to a {@link CtfNetworkEvents}, the network events it
 * recognises returned. Memory is independent of the trace length (one packet per stream); cost
 * O(log s) per event for s streams plus the decoding.
 */
final class CtfEventCursor extends NetEventCursor {

    private final CtfTrace trace;
    private final List<CtfStreamReader> readers = new ArrayList<>();
    private final PriorityQueue<CtfStreamReader> queue = new PriorityQueue<>((a, b) -> {
        int c = Long.compare(a.timestamp(), b.timestamp());
        return c != 0 ? c : Integer.compare(a.streamIndex(), b.streamIndex());
    });
    private final CtfNetworkEvents net;
    private NetEvent pending;
    private boolean ended;
    /** The one stream read, or -1 for all of them. */
    private final int only;

    CtfEventCursor(CtfTrace trace, List<String> warnings, AddressTable addresses) throws IOException {
        this(trace, warnings, addresses, -1);
    }

    /** A pass over stream {@code only} alone (its index in the trace's stream files), or all when -1. */
    CtfEventCursor(CtfTrace trace, List<String> warnings, AddressTable addresses, int only) throws IOException {
        super(addresses);
        this.trace = trace;
        this.only = only;
        this.net = new CtfNetworkEvents(e -> pending = e);
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
                readers.add(r);
                if (r.advance()) {
                    queue.add(r);
                }
            }
        } catch (NoSuchFileException e) {
            close();
            throw new TraceFormatException(Path.of(e.getFile()), "", "stream file missing");
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    protected NetEvent next() throws IOException {
        while (!queue.isEmpty()) {
            CtfStreamReader r = queue.poll();
            net.event(r);
            if (r.advance()) {
                queue.add(r);
            }
            if (pending != null) {
                NetEvent e = pending;
                pending = null;
                return e;
            }
        }
        if (!ended) {
            ended = true;
            if (only < 0) {
                trace.passEnded(net.summary(), readers);
            }
        }
        return null;
    }

    @Override
    public List<String> warnings() {
        if (!ended) {
            return List.of();
        }
        List<String> w = new ArrayList<>(only < 0 ? trace.warnings() : List.of());
        if (tooManyAddresses() > 0) {
            w.add(trace.directory() + ": " + tooManyAddresses() + " network events not matched: the traces name more"
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
