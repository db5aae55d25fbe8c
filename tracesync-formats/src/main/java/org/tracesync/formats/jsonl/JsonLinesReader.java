package org.tracesync.formats.jsonl;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.model.NetEventSink;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.TraceFormatException;

/**
 * Reads a JSON-lines event log (DESIGN §8): one application event per line,
 * <pre>{"node":"a","t":1700000000123456789,"dir":"send","msg":"req-42","to":"b"}</pre>
 * {@code node}, {@code t} (int64 ns), {@code dir} ({@code send} or {@code recv}) and {@code msg}
 * (the message id, a string or an integer) are required; {@code to}/{@code from} (strings) are
 * optional; other fields are ignored. Blank lines are skipped; the last line may lack its newline.
 * One file holds the events of one node. Events match across files by message id
 * ({@link MessageIdKey}).
 *
 * <p>Exactness: {@code t} is parsed by Jackson's integer path straight to a long, never through a
 * double; a fractional, exponent or out-of-range {@code t} is an error, as is any line that is not
 * one JSON object, a missing or mistyped field, a negative time, a duplicate field, or a second
 * node name. Every error is a {@link TraceFormatException} naming the file, the line and what was
 * expected.
 *
 * <p>Streaming: one buffer of the file (and at most one line) in memory; O(line length) per event.
 * Lines of the common shape (plain ASCII strings, integers) are read straight from their bytes
 * ({@link JsonLineScanner}); any other line goes through Jackson, with the same checks. Events whose timestamp goes
 * backwards are kept and reported in {@link #warnings()} (matching is windowed: a step back larger
 * than the match window can leave a counterpart unmatched).
 */
public final class JsonLinesReader implements NetEventSource, EventTrace {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();

    private final Path file;
    private final NodeInfo node;
    private final List<String> warnings = new ArrayList<>();
    private volatile long bytesRead;
    /** Bytes a pass reads at a time (its buffer grows for a longer line). */
    private final int readBuffer;

    /**
     * Opens {@code file} and reads up to its first event to learn the node name (the file stem
     * when the file holds no event).
     */
    public JsonLinesReader(Path file) throws IOException {
        this(file, 1 << 18);
    }

    /** {@link #JsonLinesReader(Path)} reading {@code readBuffer} bytes at a time (tests: buffer edges). */
    JsonLinesReader(Path file, int readBuffer) throws IOException {
        this.file = file;
        this.readBuffer = readBuffer;
        if (!Files.isRegularFile(file)) {
            throw Files.exists(file)
                    ? new TraceFormatException(file, null, "not a regular file (expected a JSON-lines event log)")
                    : new NoSuchFileException(file.toString());
        }
        String[] name = {null};
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long lineNumber = 0;
            while ((line = in.readLine()) != null) {
                lineNumber++;
                if (lineNumber == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1); // UTF-8 byte order mark
                }
                if (!line.isBlank()) {
                    name[0] = parse(line, lineNumber, null, null).node;
                    break;
                }
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new TraceFormatException(file, null, "not UTF-8 text (expected a JSON-lines event log)", e);
        }
        String stem = file.getFileName().toString().replaceFirst("\\.(jsonl|ndjson|json)$", "");
        this.node = new NodeInfo(name[0] == null ? stem : name[0], file.toString());
    }

    /** A reader that parses lines only ({@link #parseLine}); it has not read the file. */
    private JsonLinesReader(Path file, NodeInfo node) {
        this.file = file;
        this.node = node;
        this.readBuffer = 0;
    }

    /** One event line, parsed and checked as a pass over the file checks it. */
    public record LineEvent(String node, long t, boolean send, String msg) {
    }

    /**
     * Parses line {@code lineNumber} of {@code file} as a pass does (for readers of a part of the
     * file, such as a cluster job's task): the same checks and the same error messages.
     *
     * @param expectedNode the node of the file's first event, or null for the first event itself
     */
    public static LineEvent parseLine(Path file, String line, long lineNumber, String expectedNode)
            throws TraceFormatException {
        Line l = new JsonLinesReader(file, null).parse(line, lineNumber, expectedNode, null);
        return new LineEvent(l.node(), l.t(), l.send(), l.msg());
    }

    /**
     * One event line with where its parts are, for rewriting it in place ({@link JsonLinesRewriter}):
     * {@code t}'s digits are {@code line[tStart, tEnd)}, the object's closing brace is at
     * {@code close} (char offsets), and {@code hasField} says whether the object has the top-level
     * field a rewriter wants to add.
     */
    record PlacedEvent(String node, long t, int tStart, int tEnd, int close, boolean hasField) {
    }

    /** {@link #parseLine}, with the positions of the line's parts; the same checks and errors. */
    static PlacedEvent parsePlaced(Path file, String line, long lineNumber, String expectedNode, String field)
            throws TraceFormatException {
        Line l = new JsonLinesReader(file, null).parse(line, lineNumber, expectedNode, field);
        return new PlacedEvent(l.node(), l.t(), l.tStart(), l.tEnd(), l.close(), l.hasField());
    }

    /** True when the file name says JSON lines ({@code .jsonl}, {@code .ndjson}). */
    public static boolean looksLikeJsonLines(Path file) {
        String n = file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        return n.endsWith(".jsonl") || n.endsWith(".ndjson");
    }

    @Override
    public NodeInfo node() {
        return node;
    }

    /** Bytes consumed so far by the current pass (for progress display). */
    public long bytesRead() {
        return bytesRead;
    }

    public Path file() {
        return file;
    }

    @Override
    public void stream(NetEventSink sink) throws IOException {
        try (Pass pass = new Pass()) {
            while (pass.advance()) {
                sink.event(new NetEvent(pass.send ? Direction.SEND : Direction.RECEIVE, pass.t,
                        new MessageIdKey(pass.msg())));
            }
        }
    }

    @Override
    public EventCursor cursor(int index, AddressTable addresses) throws IOException {
        return new Pass();
    }

    /**
     * One pass over the file's events, line by line ({@link LineBytes}: the line numbers of
     * {@link BufferedReader#readLine}). A line of the common shape is read from its bytes
     * ({@link JsonLineScanner}); any other line is decoded (strict UTF-8) and parsed with Jackson,
     * which reads it or names what is wrong. Its warnings become the reader's at the end.
     */
    private final class Pass implements EventCursor {
        private final LineBytes lines;
        private final JsonLineScanner scanner;
        private long backwards;
        private long firstBackwardsLine;
        private long last = Long.MIN_VALUE;
        private long events;
        private boolean ended;
        // the current event; its message id is msgBytes[msgFrom, msgFrom + msgLength) (UTF-8)
        private long t;
        private boolean send;
        private byte[] msgBytes;
        private int msgFrom;
        private int msgLength;
        private String msgText;

        Pass() throws IOException {
            warnings.clear();
            bytesRead = 0;
            lines = new LineBytes(Files.newInputStream(file), readBuffer);
            scanner = new JsonLineScanner(null);
            scanner.expect(node.name().getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public boolean advance() throws IOException {
            if (ended) {
                return false;
            }
            while (lines.next()) {
                if (lines.bytesRead != bytesRead) {
                    bytesRead = lines.bytesRead;
                }
                if (scanner.scan(lines.buf, lines.from, lines.end)) {
                    t = scanner.t;
                    send = scanner.send;
                    msgBytes = lines.buf;
                    msgFrom = scanner.msgFrom;
                    msgLength = scanner.msgTo - scanner.msgFrom;
                    msgText = null;
                } else {
                    String line = decode(lines);
                    if (line.isBlank()) {
                        continue;
                    }
                    Line e = parse(line, lines.lineNumber, node.name(), null);
                    t = e.t;
                    send = e.send;
                    msgText = e.msg;
                    msgBytes = e.msg.getBytes(StandardCharsets.UTF_8);
                    msgFrom = 0;
                    msgLength = msgBytes.length;
                }
                if (t < last) {
                    if (backwards++ == 0) {
                        firstBackwardsLine = lines.lineNumber;
                    }
                }
                last = Math.max(last, t);
                events++;
                return true;
            }
            bytesRead = lines.bytesRead;
            ended = true;
            if (backwards > 0) {
                warnings.add(file + ": " + backwards + " of " + events + " events have a timestamp earlier than a "
                        + "previous line (first at line " + firstBackwardsLine + ")");
            }
            return false;
        }

        String msg() {
            if (msgText == null) {
                msgText = new String(msgBytes, msgFrom, msgLength, StandardCharsets.US_ASCII);
            }
            return msgText;
        }

        @Override
        public long time() {
            return t;
        }

        @Override
        public int emit(EventBlock block, int node, long time) {
            block.addMessageId(node, send, time, msgBytes, msgFrom, msgLength);
            return KEY;
        }

        @Override
        public List<String> warnings() {
            return ended ? List.copyOf(warnings) : List.of();
        }

        @Override
        public long bytesRead() {
            return bytesRead;
        }

        @Override
        public void close() throws IOException {
            lines.close();
        }
    }

    /** The current line of {@code lines} as strict UTF-8 text. */
    private String decode(LineBytes lines) throws TraceFormatException {
        try {
            return lines.decode();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new TraceFormatException(file, null, "not UTF-8 text (expected a JSON-lines event log)", e);
        }
    }

    @Override
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** One parsed line; {@code t}'s digits at [tStart, tEnd), the closing brace at {@code close}. */
    private record Line(String node, long t, boolean send, String msg, int tStart, int tEnd, int close,
                        boolean hasField) {
    }

    /** @param field a top-level field name whose presence is reported ({@link Line#hasField}), or null */
    private Line parse(String line, long lineNumber, String expectedNode, String field) throws TraceFormatException {
        String nodeName = null;
        long t = 0;
        int tStart = -1;
        int tEnd = -1;
        int close = -1;
        boolean hasField = false;
        boolean haveT = false;
        Boolean send = null;
        String msg = null;
        try (JsonParser p = FACTORY.createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw error(lineNumber, "expected a JSON object like {\"node\":\"a\",\"t\":1700000000123456789,"
                        + "\"dir\":\"send\",\"msg\":\"req-42\"}");
            }
            JsonToken token;
            while ((token = p.nextToken()) == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                if (name.equals(field)) {
                    hasField = true;
                }
                JsonToken value = p.nextToken();
                switch (name) {
                    case "node" -> {
                        nodeName = string(p, value, lineNumber, "node");
                        if (nodeName.isEmpty()) {
                            throw error(lineNumber, "\"node\" is empty");
                        }
                    }
                    case "t" -> {
                        t = time(p, value, lineNumber);
                        haveT = true;
                        tStart = (int) p.currentTokenLocation().getCharOffset();
                        tEnd = tStart + p.getTextLength();
                    }
                    case "dir" -> {
                        String d = string(p, value, lineNumber, "dir");
                        if (d.equals("send")) {
                            send = Boolean.TRUE;
                        } else if (d.equals("recv")) {
                            send = Boolean.FALSE;
                        } else {
                            throw error(lineNumber, "\"dir\" must be \"send\" or \"recv\", got \"" + shorten(d) + "\"");
                        }
                    }
                    case "msg" -> {
                        if (value == JsonToken.VALUE_NUMBER_INT) {
                            msg = p.getText();
                        } else {
                            msg = string(p, value, lineNumber, "msg");
                        }
                        if (msg.isEmpty()) {
                            throw error(lineNumber, "\"msg\" is empty");
                        }
                    }
                    case "to", "from" -> {
                        if (value != JsonToken.VALUE_NULL) {
                            string(p, value, lineNumber, name);
                        }
                    }
                    default -> p.skipChildren();
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw error(lineNumber, "expected a field name or '}'");
            }
            close = (int) p.currentTokenLocation().getCharOffset();
            if (p.nextToken() != null) {
                throw error(lineNumber, "unexpected data after the JSON object (one event per line)");
            }
        } catch (JsonParseException e) {
            throw error(lineNumber, "not valid JSON (" + TraceFormatException.plainJson(e.getOriginalMessage().lines().findFirst().orElse(""))
                    + "); expected one JSON object per line");
        } catch (TraceFormatException e) {
            throw e;
        } catch (com.fasterxml.jackson.core.exc.StreamConstraintsException e) {
            // Jackson's limits (value length, nesting): say what was wrong, not which limit class said so
            throw error(lineNumber, (e.getMessage().contains("length") ? "a value longer than "
                    + com.fasterxml.jackson.core.StreamReadConstraints.DEFAULT_MAX_STRING_LEN + " characters"
                    : "nested too deeply") + "; expected one JSON event per line");
        } catch (IOException e) {
            throw error(lineNumber, "cannot parse: " + e.getMessage());
        }
        if (nodeName == null || !haveT || send == null || msg == null) {
            List<String> missing = new ArrayList<>();
            if (nodeName == null) {
                missing.add("\"node\"");
            }
            if (!haveT) {
                missing.add("\"t\"");
            }
            if (send == null) {
                missing.add("\"dir\"");
            }
            if (msg == null) {
                missing.add("\"msg\"");
            }
            throw error(lineNumber, "missing field " + String.join(", ", missing)
                    + " (every event needs node, t, dir and msg)");
        }
        if (expectedNode != null && !expectedNode.equals(nodeName)) {
            throw error(lineNumber, "node \"" + shorten(nodeName) + "\" but the file's first event is on node \""
                    + expectedNode + "\" (one file holds one node's events)");
        }
        return new Line(nodeName, t, send, msg, tStart, tEnd, close, hasField);
    }

    private long time(JsonParser p, JsonToken value, long lineNumber) throws IOException {
        if (value == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw error(lineNumber, "\"t\" = " + shorten(p.getText()) + " does not fit in int64 nanoseconds");
            }
            long t = p.getLongValue();
            if (t < 0) {
                throw error(lineNumber, "\"t\" = " + t + " is negative; expected nanoseconds (e.g. since the epoch)");
            }
            return t;
        }
        if (value == JsonToken.VALUE_NUMBER_FLOAT) {
            throw error(lineNumber, "\"t\" = " + shorten(p.getText())
                    + " is not an integer; expected integer nanoseconds like 1700000000123456789");
        }
        throw error(lineNumber, "\"t\" must be an integer number of nanoseconds, got " + describe(p, value));
    }

    private String string(JsonParser p, JsonToken value, long lineNumber, String field) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            throw error(lineNumber, "\"" + field + "\" must be a string, got " + describe(p, value));
        }
        return p.getText();
    }

    private static String describe(JsonParser p, JsonToken value) throws IOException {
        return switch (value) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_NULL -> "null";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_STRING -> "the string \"" + shorten(p.getText()) + "\"";
            default -> shorten(p.getText());
        };
    }

    private static String shorten(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    private TraceFormatException error(long lineNumber, String message) {
        return TraceFormatException.atLine(file, lineNumber, message);
    }
}
