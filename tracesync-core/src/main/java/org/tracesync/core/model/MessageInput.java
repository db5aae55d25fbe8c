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

    /**
     * Streams every matched message into {@code messages} and every exchange that matching found
     * (a data message and the acknowledgement that covers it) into {@code exchanges}. Returns
     * whether this input can find exchanges at all: false when its messages carry no
     * acknowledgements (LTTV text, application message ids, spans — the default), true when its
     * matcher looks for them (TCP segments), even if it found none.
     */
    default boolean readMessages(MessageSink messages, ExchangeSink exchanges) throws IOException {
        readMessages(messages);
        return false;
    }

    /**
     * After {@link #readMessages(MessageSink, ExchangeSink)} returned true: whether exchanges were
     * looked for between nodes a and b (an input made of several parts may look for them in some
     * parts only). Default: every pair.
     */
    default boolean exchangesLookedFor(int a, int b) {
        return true;
    }

    /** Human-readable notes about what reading found (dropped duplicates, evictions, ...). */
    default List<String> warnings() {
        return List.of();
    }
}
