package org.tracesync.core.model;

import java.io.IOException;
import java.util.List;

/**
 * A set of traces read as matched messages: the boundary between the input side (sources and
 * matching) and pair accumulation. May be read several times (synchronization, then evaluation).
 */
public interface MessageInput {
    /** The nodes, in input order; message node indices refer to this list. */
    List<NodeInfo> nodes();

    /** Streams every matched message into {@code sink}. */
    void readMessages(MessageSink sink) throws IOException;

    /** Human-readable notes about what reading found (dropped duplicates, evictions, ...). */
    default List<String> warnings() {
        return List.of();
    }
}
