package org.tracesync.formats.latency;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.formats.TraceFormatException;

/**
 * Reads latency events in JSON lines (docs/LATENCY.md), one object per line, into
 * {@link LatencyEvents}:
 * <pre>
 * {"node":"w","t":1700000597722612135,"event":"order","seq":17,"step":2}        chained step
 * {"node":"w","t":1700000597722612135,"event":"render","seq":17,"phase":"start"}  simple start (or "stop")
 * {"node":"w","t":1700000597722612135,"dir":"send","msg":"req-42"}              application message
 * </pre>
 * {@code node} and {@code t} (int64 ns, parsed as an integer, never through a double) are always
 * required; {@code seq} is an integer, {@code step} an int; {@code msg} a string or an integer.
 * A file may hold several nodes' events (nodes are joined by name across files). Anything else —
 * not one JSON object, a missing or mistyped field, both {@code step} and {@code phase}, a
 * negative time — is a {@link TraceFormatException} naming the file and the line. Streaming:
 * one line in memory at a time.
 */
public final class LatencyJsonLinesReader {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private LatencyJsonLinesReader() {
    }

    /** Reads every line of {@code file} into {@code out}; returns the number of events. */
    public static long read(Path file, LatencyEvents out) throws IOException {
        long count = 0;
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            long number = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (number == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                if (line.isBlank()) {
                    continue;
                }
                parse(file, number, line, out);
                count++;
            }
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new TraceFormatException(file, null, "not UTF-8 text (expected JSON lines)", e);
        }
        return count;
    }

    private static void parse(Path file, long line, String text, LatencyEvents out) throws IOException {
        String node = null;
        Long t = null;
        String event = null;
        Long seq = null;
        Long step = null;
        String phase = null;
        String dir = null;
        String msg = null;
        try (JsonParser p = FACTORY.createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw TraceFormatException.atLine(file, line, "expected a JSON object like "
                        + "{\"node\":\"w\",\"t\":1700000597722612135,\"event\":\"order\",\"seq\":17,\"step\":2}");
            }
            JsonToken token;
            while ((token = p.nextToken()) == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                switch (field) {
                    case "node" -> node = string(file, line, p, value, field);
                    case "t" -> {
                        t = integer(file, line, p, value, field);
                        if (t < 0) {
                            throw TraceFormatException.atLine(file, line, "\"t\" = " + t + " is negative; expected nanoseconds");
                        }
                    }
                    case "event" -> event = string(file, line, p, value, field);
                    case "seq" -> seq = integer(file, line, p, value, field);
                    case "step" -> {
                        step = integer(file, line, p, value, field);
                        if (step < Integer.MIN_VALUE || step > Integer.MAX_VALUE) {
                            throw TraceFormatException.atLine(file, line, "\"step\" = " + step + " does not fit in 32 bits");
                        }
                    }
                    case "phase" -> phase = string(file, line, p, value, field);
                    case "dir" -> dir = string(file, line, p, value, field);
                    case "msg" -> msg = value == JsonToken.VALUE_NUMBER_INT ? p.getText() : string(file, line, p, value, field);
                    default -> p.skipChildren();
                }
            }
            if (token != JsonToken.END_OBJECT) {
                throw TraceFormatException.atLine(file, line, "expected a field name or '}'");
            }
            if (p.nextToken() != null) {
                throw TraceFormatException.atLine(file, line, "unexpected data after the JSON object (one event per line)");
            }
        } catch (JsonParseException e) {
            throw TraceFormatException.atLine(file, line, "not valid JSON (" + e.getOriginalMessage().lines().findFirst().orElse("")
                    + "); expected one JSON object per line");
        }
        if (node == null || node.isEmpty() || t == null) {
            throw TraceFormatException.atLine(file, line, "every event needs \"node\" (a non-empty string) and \"t\" (integer ns)");
        }
        int n = out.node(node, file.toString());
        if (event != null) {
            if (dir != null || msg != null) {
                throw TraceFormatException.atLine(file, line, "an event line has \"event\" or \"dir\"/\"msg\", not both");
            }
            if (event.isEmpty()) {
                throw TraceFormatException.atLine(file, line, "\"event\" is empty");
            }
            if (seq == null) {
                throw TraceFormatException.atLine(file, line, "missing \"seq\" (the instance's sequence number)");
            }
            if ((step == null) == (phase == null)) {
                throw TraceFormatException.atLine(file, line, step == null
                        ? "missing \"step\" (chained event) or \"phase\" (simple event: \"start\" or \"stop\")"
                        : "\"step\" and \"phase\" together: a line is a chained step or a simple start/stop");
            }
            int e = out.event(event);
            if (step != null) {
                out.step(n, e, seq, (int) (long) step, t);
            } else if (phase.equals("start")) {
                out.start(n, e, seq, t);
            } else if (phase.equals("stop")) {
                out.stop(n, e, seq, t);
            } else {
                throw TraceFormatException.atLine(file, line, "\"phase\" must be \"start\" or \"stop\", got \"" + shorten(phase) + "\"");
            }
        } else if (dir != null || msg != null) {
            if (dir == null || msg == null || msg.isEmpty()) {
                throw TraceFormatException.atLine(file, line, "a message event needs \"dir\" (\"send\" or \"recv\") and a non-empty \"msg\"");
            }
            if (!dir.equals("send") && !dir.equals("recv")) {
                throw TraceFormatException.atLine(file, line, "\"dir\" must be \"send\" or \"recv\", got \"" + shorten(dir) + "\"");
            }
            out.message(n, dir.equals("send"), msg, t);
        } else {
            throw TraceFormatException.atLine(file, line, "neither a latency event (\"event\", \"seq\", \"step\" or \"phase\")"
                    + " nor a message event (\"dir\", \"msg\")");
        }
    }

    private static String string(Path file, long line, JsonParser p, JsonToken value, String field) throws IOException {
        if (value != JsonToken.VALUE_STRING) {
            throw TraceFormatException.atLine(file, line, "\"" + field + "\" must be a string, got " + shorten(p.getText()));
        }
        return p.getText();
    }

    private static long integer(Path file, long line, JsonParser p, JsonToken value, String field) throws IOException {
        if (value != JsonToken.VALUE_NUMBER_INT) {
            throw TraceFormatException.atLine(file, line, "\"" + field + "\" must be an integer, got " + shorten(p.getText()));
        }
        if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            throw TraceFormatException.atLine(file, line, "\"" + field + "\" = " + shorten(p.getText()) + " does not fit in 64 bits");
        }
        return p.getLongValue();
    }

    private static String shorten(String s) {
        return s == null ? "null" : s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
