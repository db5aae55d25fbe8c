package org.tracesync.formats.jsonl;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.tracesync.formats.TraceFormatException;

/**
 * Rewrites JSON-lines event logs ({@link JsonLinesReader}'s format) with every event's {@code "t"}
 * replaced by a mapped time: {@code tracesync apply} for JSON lines.
 *
 * <p>In place: only the digits of the top-level {@code "t"} value change; every other character of
 * the file is kept (field order, spacing, unknown fields, nested objects that hold their own
 * {@code "t"}, a byte order mark, blank lines, the line terminators {@code \n}, {@code \r\n} or
 * {@code \r}, a last line without one). A line is an event exactly when the reader takes it for
 * one: a blank line is copied, any other line must be an event and is checked as a pass of the
 * reader checks it (same message, naming the file and the line). With an annotation, a field
 * {@code "NAME":{...}} is added at the end of each event object, just before its closing brace;
 * an event that already has a top-level field NAME is an error (a user's field is never
 * duplicated or replaced).
 *
 * <p>The time map is called once per event, in file order (so a stateful map such as
 * {@code ReadingsInOrder} sees the events as the trace has them). A mapped time must be a
 * non-negative int64, as the reader requires; a negative one is an error naming the line.
 *
 * <p>Streaming: one buffer (and at most one line) in memory per file; O(line length) per event.
 * Event lines of the common shape are read and copied as bytes ({@link JsonLineScanner}); any
 * other line is decoded, parsed as the reader parses it, and written back as UTF-8.
 * {@link #merge} reads its inputs side by side, one line of each in memory.
 */
public final class JsonLinesRewriter {

    /**
     * The members of an event's annotation object, for the event of input {@code input} (0 for
     * {@link #rewrite}; the index in {@link #merge}'s inputs) at local time {@code local} mapped to
     * {@code synced}.
     */
    @FunctionalInterface
    public interface Annotation {
        /** Appends the members (comma-separated {@code "key":value}, no braces) to {@code members}. */
        void append(StringBuilder members, int input, long local, long synced);
    }

    /** What a rewrite read: its events and its lines (blank ones included). */
    public record Outcome(long events, long lines) {
    }

    private final String field;
    private final String quotedField;
    private final Annotation annotation;

    /** A rewriter that changes only the times. */
    public JsonLinesRewriter() {
        this(null, null);
    }

    /**
     * A rewriter that also adds {@code "field":{members}} to each event ({@code field} null: none).
     */
    public JsonLinesRewriter(String field, Annotation annotation) {
        if ((field == null) != (annotation == null) || (field != null && field.isEmpty())) {
            throw new IllegalArgumentException("an annotation needs a non-empty field name and its members");
        }
        this.field = field;
        this.quotedField = field == null ? null : ",\"" + new String(JsonStringEncoder.getInstance().quoteAsString(field))
                + "\":{";
        this.annotation = annotation;
    }

    /** Writes {@code in} with its times mapped by {@code time} to {@code out} (created or replaced). */
    public Outcome rewrite(Path in, Path out, LongUnaryOperator time) throws IOException {
        long events = 0;
        try (EventLines lines = new EventLines(in); Output w = new Output(out)) {
            StringBuilder scratch = new StringBuilder();
            LineBytes b = lines.bytes;
            while (lines.next()) {
                if (b.bom) {
                    w.write(BOM, 0, BOM.length);
                }
                if (!lines.event) {
                    w.write(b.buf, b.from, b.end - b.from);
                } else {
                    writeEvent(w, lines, 0, time.applyAsLong(lines.t), scratch);
                    events++;
                }
                w.write(b.buf, b.end, b.next - b.end);
            }
            return new Outcome(events, b.lineNumber);
        }
    }

    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    /**
     * Writes the events of all {@code inputs} into one file {@code out}, ordered by mapped time:
     * a merge of the inputs taken each in its own order (the next event written is the earliest of
     * the inputs' next events; ties go to the earlier input). Each event line is written as
     * {@link #rewrite} writes it, ended by {@code \n}; blank lines and byte order marks are not
     * copied. Returns the number of events written.
     */
    public long merge(List<Path> inputs, List<LongUnaryOperator> times, Path out) throws IOException {
        int k = inputs.size();
        List<EventLines> open = new ArrayList<>();
        try (Output w = new Output(out)) {
            for (Path p : inputs) {
                open.add(new EventLines(p));
            }
            long[] head = new long[k];
            boolean[] live = new boolean[k];
            for (int i = 0; i < k; i++) {
                live[i] = open.get(i).nextEvent();
                if (live[i]) {
                    head[i] = times.get(i).applyAsLong(open.get(i).t);
                }
            }
            StringBuilder scratch = new StringBuilder();
            long n = 0;
            while (true) {
                int best = -1;
                for (int i = 0; i < k; i++) {
                    if (live[i] && (best < 0 || head[i] < head[best])) {
                        best = i;
                    }
                }
                if (best < 0) {
                    return n;
                }
                EventLines l = open.get(best);
                writeEvent(w, l, best, head[best], scratch);
                w.write(NEWLINE, 0, 1);
                n++;
                live[best] = l.nextEvent();
                if (live[best]) {
                    head[best] = times.get(best).applyAsLong(l.t);
                }
            }
        } finally {
            for (EventLines l : open) {
                l.close();
            }
        }
    }

    private static final byte[] NEWLINE = {'\n'};

    private void writeEvent(Output w, EventLines l, int input, long synced, StringBuilder scratch) throws IOException {
        if (synced < 0) {
            throw TraceFormatException.atLine(l.file, l.bytes.lineNumber, "\"t\" = " + l.t + " maps to " + synced
                    + " ns, before the epoch of the reference clock; a JSON-lines time must not be negative");
        }
        if (field != null) {
            scratch.setLength(0);
            scratch.append(quotedField);
            annotation.append(scratch, input, l.t, synced);
            scratch.append('}');
        }
        if (l.scanned) {
            // an ASCII line: its parts straight from the buffer
            LineBytes b = l.bytes;
            w.write(b.buf, b.from, l.tFrom - b.from);
            w.writeTime(synced);
            if (field == null) {
                w.write(b.buf, l.tTo, b.end - l.tTo);
                return;
            }
            w.write(b.buf, l.tTo, l.close - l.tTo);
            w.writeText(scratch);
            w.write(b.buf, l.close, b.end - l.close);
            return;
        }
        String text = l.text;
        JsonLinesReader.PlacedEvent e = l.placed;
        w.writeText(text.subSequence(0, e.tStart()));
        w.writeTime(synced);
        if (field == null) {
            w.writeText(text.subSequence(e.tEnd(), text.length()));
            return;
        }
        w.writeText(text.subSequence(e.tEnd(), e.close()));
        w.writeText(scratch);
        w.writeText(text.subSequence(e.close(), text.length()));
    }

    /** A file written as bytes; text is written as strict UTF-8 (ASCII copied as it is). */
    private static final class Output implements AutoCloseable {
        private final OutputStream out;
        private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        private byte[] ascii = new byte[64];
        private final byte[] digits = new byte[19];

        Output(Path file) throws IOException {
            out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        }

        void write(byte[] b, int from, int n) throws IOException {
            out.write(b, from, n);
        }

        /** Writes a non-negative time's decimal digits (no String per event). */
        void writeTime(long t) throws IOException {
            int i = digits.length;
            do {
                digits[--i] = (byte) ('0' + t % 10);
                t /= 10;
            } while (t != 0);
            out.write(digits, i, digits.length - i);
        }

        void writeText(CharSequence s) throws IOException {
            int n = s.length();
            if (ascii.length < n) {
                ascii = new byte[Math.max(n, 2 * ascii.length)];
            }
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    ByteBuffer bytes = utf8.reset().encode(CharBuffer.wrap(s));
                    out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
                    return;
                }
                ascii[i] = (byte) c;
            }
            out.write(ascii, 0, n);
        }

        @Override
        public void close() throws IOException {
            out.close();
        }
    }

    /**
     * The lines of one file ({@link LineBytes}: the reader's line numbers), each read as a pass of
     * the reader reads it: a line of the common shape from its bytes ({@link JsonLineScanner}),
     * any other decoded and parsed, a blank line kept as it is.
     */
    private final class EventLines implements AutoCloseable {
        final Path file;
        final LineBytes bytes;
        private final JsonLineScanner scanner;
        private String node;

        /** True when the current line is an event (false: a blank line). */
        boolean event;
        /** The current event's time. */
        long t;
        /** True when the current event was read from its bytes: its parts are at tFrom, tTo, close. */
        boolean scanned;
        int tFrom;
        int tTo;
        int close;
        /** Else the current line's text and its event, parsed. */
        String text;
        JsonLinesReader.PlacedEvent placed;

        EventLines(Path file) throws IOException {
            this.file = file;
            if (!Files.isRegularFile(file)) {
                throw Files.exists(file)
                        ? new TraceFormatException(file, null, "not a regular file (expected a JSON-lines event log)")
                        : new java.nio.file.NoSuchFileException(file.toString());
            }
            this.bytes = new LineBytes(Files.newInputStream(file), 1 << 16);
            this.scanner = new JsonLineScanner(field == null ? null : field.getBytes(StandardCharsets.UTF_8));
        }

        /** Advances to the next event line (skipping blank ones); false at the end of the file. */
        boolean nextEvent() throws IOException {
            while (next()) {
                if (event) {
                    return true;
                }
            }
            return false;
        }

        /** Advances to the next line; false at the end of the file. */
        boolean next() throws IOException {
            if (!bytes.next()) {
                return false;
            }
            boolean hasField;
            if (scanner.scan(bytes.buf, bytes.from, bytes.end)) {
                scanned = true;
                event = true;
                t = scanner.t;
                tFrom = scanner.tFrom;
                tTo = scanner.tTo;
                close = scanner.close;
                hasField = scanner.hasField;
                if (node == null) {
                    node = new String(bytes.buf, scanner.nodeFrom, scanner.nodeTo - scanner.nodeFrom,
                            StandardCharsets.US_ASCII);
                    scanner.expect(node.getBytes(StandardCharsets.UTF_8));
                }
            } else {
                scanned = false;
                try {
                    text = bytes.decode();
                } catch (CharacterCodingException e) {
                    throw new TraceFormatException(file, "line " + bytes.lineNumber,
                            "not UTF-8 text (expected a JSON-lines event log)", e);
                }
                event = !text.isBlank();
                if (!event) {
                    return true;
                }
                placed = JsonLinesReader.parsePlaced(file, text, bytes.lineNumber, node, field);
                t = placed.t();
                hasField = placed.hasField();
                if (node == null) {
                    node = placed.node();
                    scanner.expect(node.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (field != null && hasField) {
                throw TraceFormatException.atLine(file, bytes.lineNumber, "the event already has a field \"" + field
                        + "\"; choose another annotation field (--annotate-field NAME)");
            }
            return true;
        }

        @Override
        public void close() throws IOException {
            bytes.close();
        }
    }
}
