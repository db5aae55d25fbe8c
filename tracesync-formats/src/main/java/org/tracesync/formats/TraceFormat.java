package org.tracesync.formats;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * One trace format whose events go through the matching pipeline
 * ({@code org.tracesync.formats.input}): recognises a path by content and opens traces. Adding a
 * format means one class of this type, an {@link EventTrace} and an {@link EventCursor} for it,
 * and one line in the registry ({@code TraceFormats}), which {@code sync}, {@code eval},
 * {@code report} and {@code apply} share.
 */
public interface TraceFormat {

    /** A short human name ("pcap/pcapng"), used in messages. */
    String name();

    /** Whether {@code path} is a trace of this format (by content, not by name). */
    boolean accepts(Path path) throws IOException;

    /**
     * Opens every given trace of this format, in order (all at once: a capture's node identity
     * may depend on the other captures).
     */
    List<EventTrace> open(List<Path> paths, InputOptions options) throws IOException;
}
