package org.tracesync.core.model;

import java.io.IOException;
import java.util.List;

/**
 * One trace read as network events (DESIGN §1, stage 1): CTF directory, pcap/pcapng file,
 * JSON-lines log. Streams its events in the trace's own timestamp order and says who it is.
 */
public interface NetEventSource {

    /** Node name, source path, own addresses. */
    NodeInfo node();

    /** Streams every network event of the trace into {@code sink}; may be called again. */
    void stream(NetEventSink sink) throws IOException;

    /** What reading found worth telling the user (timestamps going backwards, skipped data...). */
    default List<String> warnings() {
        return List.of();
    }
}
