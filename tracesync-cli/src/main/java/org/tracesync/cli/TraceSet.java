package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;
import org.tracesync.core.model.MessageInput;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;

/**
 * The traces a user named, opened as one {@link MessageInput} (through {@link TraceInputs}) plus
 * what a progress display needs: their total size and, while the pipeline reads them, how many
 * bytes and events have been read.
 */
record TraceSet(MessageInput input, long totalBytes, LongSupplier bytesRead, LongSupplier eventsRead) {

    /** Opens {@code paths} through {@link TraceInputs} (the one format dispatch). */
    static TraceSet open(List<Path> paths) throws IOException {
        return open(paths, InputOptions.defaults());
    }

    /** As {@link #open(List)}, with input options (captures' names and addresses, window). */
    static TraceSet open(List<Path> paths, InputOptions options) throws IOException {
        return open(paths, options, org.tracesync.formats.spans.SpanOptions.defaults());
    }

    /** As {@link #open(List, InputOptions)}, with options for span files. */
    static TraceSet open(List<Path> paths, InputOptions options, org.tracesync.formats.spans.SpanOptions spanOptions)
            throws IOException {
        long total = 0;
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                total += Files.size(p);
            }
        }
        MessageInput input = TraceInputs.open(paths, options, spanOptions);
        if (input instanceof org.tracesync.formats.spans.SpanMessageInput spans) {
            return new TraceSet(input, 2 * total, spans::bytesRead, null); // two passes; spans, not events
        }
        if (!(input instanceof MergedTraceInput merged)) {
            return new TraceSet(input, total, null, null); // LTTV text: matched messages, no events
        }
        // CTF directories have no single size: progress then counts events only
        boolean files = paths.stream().allMatch(Files::isRegularFile);
        LongSupplier bytes = files ? () -> Math.max(0, merged.bytesRead()) : null;
        return new TraceSet(input, total, bytes, merged::eventsRead);
    }
}
