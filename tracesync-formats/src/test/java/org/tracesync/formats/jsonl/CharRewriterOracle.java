package org.tracesync.formats.jsonl;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.tracesync.formats.TraceFormatException;

/**
 * The JSON-lines rewriter as it was before lines were read as bytes (tenth session): lines split
 * from decoded text, every line parsed by Jackson, written through a UTF-8 writer. Kept as the
 * oracle of {@link JsonLinesRewriterBytesTest}: the byte path must write the same files.
 */
final class CharRewriterOracle {

    private final String field;
    private final String quotedField;
    private final JsonLinesRewriter.Annotation annotation;

    /** A rewriter that changes only the times. */
    CharRewriterOracle() {
        this(null, null);
    }

    /**
     * A rewriter that also adds {@code "field":{members}} to each event ({@code field} null: none).
     */
    CharRewriterOracle(String field, JsonLinesRewriter.Annotation annotation) {
        if ((field == null) != (annotation == null) || (field != null && field.isEmpty())) {
            throw new IllegalArgumentException("an annotation needs a non-empty field name and its members");
        }
        this.field = field;
        this.quotedField = field == null ? null : ",\"" + new String(JsonStringEncoder.getInstance().quoteAsString(field))
                + "\":{";
        this.annotation = annotation;
    }

    /** Writes {@code in} with its times mapped by {@code time} to {@code out} (created or replaced). */
    public JsonLinesRewriter.Outcome rewrite(Path in, Path out, LongUnaryOperator time) throws IOException {
        long events = 0;
        try (EventLines lines = new EventLines(in, field); Writer w = writer(out)) {
            StringBuilder scratch = new StringBuilder();
            while (lines.next()) {
                if (lines.bom) {
                    w.write('\uFEFF');
                }
                if (lines.event == null) {
                    w.write(lines.text);
                } else {
                    writeEvent(w, lines, 0, time.applyAsLong(lines.event.t()), scratch);
                    events++;
                }
                w.write(lines.terminator);
            }
            return new JsonLinesRewriter.Outcome(events, lines.lineNumber);
        }
    }

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
        try (Writer w = writer(out)) {
            for (Path p : inputs) {
                open.add(new EventLines(p, field));
            }
            long[] head = new long[k];
            boolean[] live = new boolean[k];
            for (int i = 0; i < k; i++) {
                live[i] = open.get(i).nextEvent();
                if (live[i]) {
                    head[i] = times.get(i).applyAsLong(open.get(i).event.t());
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
                w.write('\n');
                n++;
                live[best] = l.nextEvent();
                if (live[best]) {
                    head[best] = times.get(best).applyAsLong(l.event.t());
                }
            }
        } finally {
            for (EventLines l : open) {
                l.close();
            }
        }
    }

    private void writeEvent(Writer w, EventLines l, int input, long synced, StringBuilder scratch) throws IOException {
        JsonLinesReader.PlacedEvent e = l.event;
        if (synced < 0) {
            throw TraceFormatException.atLine(l.file, l.lineNumber, "\"t\" = " + e.t() + " maps to " + synced
                    + " ns, before the epoch of the reference clock; a JSON-lines time must not be negative");
        }
        String text = l.text;
        w.write(text, 0, e.tStart());
        w.write(Long.toString(synced));
        if (field == null) {
            w.write(text, e.tEnd(), text.length() - e.tEnd());
            return;
        }
        w.write(text, e.tEnd(), e.close() - e.tEnd());
        scratch.setLength(0);
        scratch.append(quotedField);
        annotation.append(scratch, input, e.t(), synced);
        scratch.append('}');
        w.append(scratch);
        w.write(text, e.close(), text.length() - e.close());
    }

    private static Writer writer(Path out) throws IOException {
        return new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(out), StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)), 1 << 16);
    }

    /**
     * The lines of one file, each with its own terminator, split as {@link java.io.BufferedReader#readLine}
     * splits them (the reader's line numbers): at {@code \n}, {@code \r\n} or {@code \r}.
     */
    private static final class EventLines implements AutoCloseable {
        private final Path file;
        private final String field;
        private final Reader in;
        private final char[] buf = new char[1 << 16];
        private int pos;
        private int lim;
        private boolean eof;
        private final StringBuilder line = new StringBuilder(256);
        private String node;

        long lineNumber;
        /** The current line, without its terminator or byte order mark. */
        String text;
        /** "\n", "\r\n", "\r", or "" for a last line without one. */
        String terminator;
        /** True when the current line (the first) began with a byte order mark. */
        boolean bom;
        /** The current line's event, or null for a blank line. */
        JsonLinesReader.PlacedEvent event;

        EventLines(Path file, String field) throws IOException {
            this.file = file;
            this.field = field;
            if (!Files.isRegularFile(file)) {
                throw Files.exists(file)
                        ? new TraceFormatException(file, null, "not a regular file (expected a JSON-lines event log)")
                        : new java.nio.file.NoSuchFileException(file.toString());
            }
            this.in = new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
        }

        /** Advances to the next event line (skipping blank ones); false at the end of the file. */
        boolean nextEvent() throws IOException {
            while (next()) {
                if (event != null) {
                    return true;
                }
            }
            return false;
        }

        /** Advances to the next line; false at the end of the file. */
        boolean next() throws IOException {
            if (!readLine()) {
                return false;
            }
            lineNumber++;
            String s = line.toString();
            bom = lineNumber == 1 && s.startsWith("\uFEFF");
            text = bom ? s.substring(1) : s;
            if (text.isBlank()) {
                event = null;
            } else {
                event = JsonLinesReader.parsePlaced(file, text, lineNumber, node, field);
                if (node == null) {
                    node = event.node();
                }
                if (field != null && event.hasField()) {
                    throw TraceFormatException.atLine(file, lineNumber, "the event already has a field \"" + field
                            + "\"; choose another annotation field (--annotate-field NAME)");
                }
            }
            return true;
        }

        private boolean readLine() throws IOException {
            line.setLength(0);
            boolean any = false;
            while (true) {
                if (pos == lim && !fill()) {
                    terminator = "";
                    return any;
                }
                any = true;
                int start = pos;
                while (pos < lim) {
                    char c = buf[pos];
                    if (c == '\n') {
                        line.append(buf, start, pos - start);
                        pos++;
                        terminator = "\n";
                        return true;
                    }
                    if (c == '\r') {
                        line.append(buf, start, pos - start);
                        pos++;
                        if (pos == lim) {
                            fill();
                        }
                        if (pos < lim && buf[pos] == '\n') {
                            pos++;
                            terminator = "\r\n";
                        } else {
                            terminator = "\r";
                        }
                        return true;
                    }
                    pos++;
                }
                line.append(buf, start, pos - start);
            }
        }

        private boolean fill() throws IOException {
            if (eof) {
                return false;
            }
            int n;
            try {
                n = in.read(buf, 0, buf.length);
            } catch (CharacterCodingException e) {
                throw new TraceFormatException(file, "line " + (lineNumber + 1),
                        "not UTF-8 text (expected a JSON-lines event log)", e);
            }
            if (n < 0) {
                eof = true;
                pos = 0;
                lim = 0;
                return false;
            }
            pos = 0;
            lim = n;
            return true;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
