package org.tracesync.formats.input;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.formats.TraceFormat;
import org.tracesync.formats.ctf.CtfFormat;
import org.tracesync.formats.jsonl.JsonLinesFormat;
import org.tracesync.formats.pcap.CaptureFormat;

/**
 * The event-trace formats, tried in order: the one registry that {@code sync}, {@code eval},
 * {@code report} and {@code apply} share. Adding a format is one line here (and its
 * {@link TraceFormat}). LTTV text is not listed: it holds already matched messages
 * ({@link TraceInputs}).
 */
public final class TraceFormats {

    private static final List<TraceFormat> FORMATS = List.of(new CtfFormat(), new JsonLinesFormat(),
            new CaptureFormat());

    private TraceFormats() {
    }

    public static List<TraceFormat> all() {
        return FORMATS;
    }

    /** The format of {@code path}, or null when none accepts it. */
    public static TraceFormat of(Path path) throws IOException {
        for (TraceFormat f : FORMATS) {
            if (f.accepts(path)) {
                return f;
            }
        }
        return null;
    }

    /** The formats' names, for messages. */
    public static List<String> names() {
        List<String> names = new ArrayList<>();
        for (TraceFormat f : FORMATS) {
            names.add(f.name());
        }
        return names;
    }
}
