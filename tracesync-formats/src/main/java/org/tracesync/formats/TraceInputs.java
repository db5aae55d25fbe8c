package org.tracesync.formats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.formats.lttv.LttvTextInput;
import org.tracesync.formats.pcap.CaptureFormat;
import org.tracesync.formats.pcap.CaptureMessageInput;
import org.tracesync.formats.pcap.CaptureOptions;
import org.tracesync.formats.pcap.CaptureReader;

/**
 * Turns the paths a user names into one {@link MessageInput}: an LTTV text file directly (it
 * holds already matched messages of all its traces), or one event trace per path (CTF directory,
 * pcap/pcapng, JSON lines) joined by key matching. Formats are recognised by content, not by
 * name.
 */
public final class TraceInputs {

    /** One event-trace format: recognises a path and opens it. */
    public interface EventFormat {
        String name();

        boolean accepts(Path path) throws IOException;

        NetEventSource open(Path path) throws IOException;
    }

    /** Registered event-trace formats, tried in order. */
    private static final List<EventFormat> FORMATS = new ArrayList<>();

    private TraceInputs() {
    }

    /** Registers a format (readers register themselves in {@link #registerBuiltins()}). */
    public static synchronized void register(EventFormat format) {
        for (EventFormat f : FORMATS) {
            if (f.name().equals(format.name())) {
                return;
            }
        }
        FORMATS.add(format);
    }

    private static synchronized List<EventFormat> formats() {
        registerBuiltins();
        return List.copyOf(FORMATS);
    }

    /** The formats shipped with tracesync; one line each. */
    private static void registerBuiltins() {
        register(new org.tracesync.formats.ctf.CtfFormat());
        register(new org.tracesync.formats.jsonl.JsonLinesFormat());
        register(new CaptureFormat());
    }

    public static MessageInput open(List<Path> paths) throws IOException {
        return open(paths, CaptureOptions.defaults());
    }

    /**
     * As {@link #open(List)}; when every path is a pcap/pcapng capture, they are read together by
     * {@link CaptureMessageInput} (bounded-memory TCP matching, retransmission detection,
     * exchanges and broadcast groups) with {@code captureOptions} (node names, addresses, window).
     */
    public static MessageInput open(List<Path> paths, CaptureOptions captureOptions) throws IOException {
        return open(paths, captureOptions, source -> source);
    }

    /**
     * As {@link #open(List, CaptureOptions)}, passing every event source through {@code wrap} before
     * matching (progress displays count events and bytes this way; LTTV text and captures read
     * together have no separate event sources).
     */
    public static MessageInput open(List<Path> paths, CaptureOptions captureOptions,
                                    java.util.function.UnaryOperator<NetEventSource> wrap) throws IOException {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no input given");
        }
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new TraceFormatException(p, "", "no such file or directory");
            }
        }
        if (paths.size() == 1 && Files.isRegularFile(paths.get(0)) && LttvTextInput.looksLikeLttvText(paths.get(0))) {
            return LttvTextInput.open(paths.get(0));
        }
        if (paths.stream().allMatch(p -> Files.isRegularFile(p) && CaptureReader.isCapture(p))) {
            return new CaptureMessageInput(paths, captureOptions);
        }
        List<NetEventSource> sources = new ArrayList<>();
        for (Path p : paths) {
            sources.add(wrap.apply(openEventTrace(p)));
        }
        return new MatchedEventInput(sources);
    }

    public static NetEventSource openEventTrace(Path p) throws IOException {
        for (EventFormat f : formats()) {
            if (f.accepts(p)) {
                return f.open(p);
            }
        }
        if (Files.isRegularFile(p) && LttvTextInput.looksLikeLttvText(p)) {
            throw new TraceFormatException(p, "", "an LTTV text file holds all traces of a set: give it alone");
        }
        TraceFormatException why = UnknownFormat.reason(p);
        if (why != null) {
            throw why;
        }
        List<String> names = new ArrayList<>();
        names.add("LTTV text");
        for (EventFormat f : formats()) {
            names.add(f.name());
        }
        throw new TraceFormatException(p, "", "unknown trace format (tracesync reads: " + String.join(", ", names) + ")");
    }
}
