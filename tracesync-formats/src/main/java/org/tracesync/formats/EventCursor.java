package org.tracesync.formats;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.tracesync.core.matching.EventBlock;

/**
 * One pass over one trace's events in its own timestamp order, pulled one at a time by the time
 * merge of the matching pipeline ({@code org.tracesync.formats.input}). A cursor may visit events
 * the matchers do not want (a capture's other traffic): {@link #emit} then adds nothing.
 */
public interface EventCursor extends Closeable {

    /** {@link #emit} result: the event was not for matching (counted as other traffic). */
    int OTHER = 0;
    /** {@link #emit} result: a segment or message key was added. */
    int KEY = 1;
    /** {@link #emit} result: a broadcast datagram was added. */
    int BROADCAST = 2;

    /** Moves to the next event; false at the end of the trace. */
    boolean advance() throws IOException;

    /** The current event's local timestamp (ns). */
    long time();

    /**
     * Appends the current event to {@code block} as node {@code node}'s, with time {@code time}
     * (its timestamp, or that timestamp coarsely corrected); returns {@link #OTHER}, {@link #KEY}
     * or {@link #BROADCAST}.
     */
    int emit(EventBlock block, int node, long time);

    /** What this pass found worth telling the user, once it has ended. */
    default List<String> warnings() {
        return List.of();
    }

    /**
     * When the JVM raised {@code fault} during this pass (its InternalError for a load by address
     * that faulted, as from a mapped file cut during the read, raised at some later point of the
     * reading thread), the input error to raise instead if this cursor's input may be its cause,
     * naming the file and the offset; null otherwise. {@code changedOnly}: only when the cause is
     * certain (its file changed during the read), so that a merge asks every cursor that first.
     */
    default IOException inputFault(InternalError fault, boolean changedOnly) throws IOException {
        return null;
    }

    /** Bytes of the trace consumed so far, for progress displays; -1 when unknown. */
    default long bytesRead() {
        return -1;
    }

    @Override
    default void close() throws IOException {
    }
}
