package org.tracesync.formats.spans;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.formats.TraceFormatException;

/**
 * What the three span readers share: one Jackson streaming parser over the whole file (bounded
 * memory: at most one OTLP line or one Jaeger trace is buffered, as reused {@link SpanRecord}s),
 * exact integer timestamps (never through a double), and errors that name the file, the line and
 * the column. Every {@code read} streams each span once into the sink, in file order.
 */
abstract class JsonSpanReader implements SpanReader {

    static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(64 << 20).maxNestingDepth(200).build())
            .build();

    final Path file;
    final SpanOptions options;
    final SpanHosts hosts;
    JsonParser p;
    private volatile long bytesRead;
    private final List<SpanRecord> pool = new ArrayList<>();
    int buffered;

    JsonSpanReader(Path file, SpanOptions options, SpanHosts hosts) {
        this.file = file;
        this.options = options;
        this.hosts = hosts;
    }

    /** Streams every span of the file into {@code sink}. */
    @Override
    public final void read(SpanSink sink) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             InputStream in = new java.io.BufferedInputStream(new CountingStream(raw), 1 << 16);
             JsonParser parser = FACTORY.createParser(in)) {
            this.p = parser;
            readAll(sink);
        } catch (StreamConstraintsException e) {
            throw error(e.getLocation(), "value too large: " + e.getOriginalMessage());
        } catch (com.fasterxml.jackson.core.io.JsonEOFException e) {
            throw error(e.getLocation(), "unexpected end of file (truncated?): " + e.getOriginalMessage());
        } catch (JsonProcessingException e) {
            throw error(e.getLocation(), "not valid JSON: " + e.getOriginalMessage());
        } catch (IllegalArgumentException | ArithmeticException e) {
            throw error(p == null ? null : p.currentLocation(), e.getMessage());
        } finally {
            p = null;
        }
    }

    abstract void readAll(SpanSink sink) throws IOException;

    @Override
    public long bytesRead() {
        return bytesRead;
    }

    /** A fresh (cleared) buffered record. */
    SpanRecord next() {
        if (buffered == pool.size()) {
            pool.add(new SpanRecord());
        }
        SpanRecord r = pool.get(buffered++);
        r.clear();
        r.line = p.currentLocation().getLineNr();
        return r;
    }

    SpanRecord buffered(int i) {
        return pool.get(i);
    }

    /** Emits the buffered spans with host {@code host} where none was set, then empties the buffer. */
    void flush(SpanSink sink) {
        for (int i = 0; i < buffered; i++) {
            SpanRecord r = pool.get(i);
            hosts.countSpan(r.host, r.start, r.end);
            sink.span(r);
        }
        buffered = 0;
    }

    TraceFormatException error(JsonLocation at, String message) {
        if (at == null) {
            return new TraceFormatException(file, "", message);
        }
        long line = at.getLineNr();
        long col = at.getColumnNr();
        String where = line > 0 ? "line " + line + (col > 0 ? ", column " + col : "") : "offset " + at.getByteOffset();
        return new TraceFormatException(file, where, message);
    }

    TraceFormatException error(String message) {
        return error(p.currentLocation(), message);
    }

    /** Expects {@code token} at the current position. */
    void expect(JsonToken actual, JsonToken token, String what) throws TraceFormatException {
        if (actual != token) {
            throw error(actual == null ? "unexpected end of file (truncated?) where " + what + " was expected"
                    : "expected " + what + ", found " + describe(actual));
        }
    }

    static String describe(JsonToken t) {
        return switch (t) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            case END_OBJECT -> "the end of an object";
            case END_ARRAY -> "the end of an array";
            default -> t.toString();
        };
    }

    /** Next token, failing clearly at the end of the input. */
    JsonToken nextToken(String what) throws IOException {
        JsonToken t = p.nextToken();
        if (t == null) {
            throw error("unexpected end of file (truncated?) in " + what);
        }
        return t;
    }

    /** The current value as an exact long: an integer, or a string holding one (OTLP's int64 as string). */
    long exactLong(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw error(field + " " + p.getText() + " does not fit in 64 bits");
            }
            return p.getLongValue();
        }
        if (t == JsonToken.VALUE_STRING) {
            String s = p.getText();
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw error(field + " '" + s + "' is not an integer");
            }
        }
        throw error(field + ": expected an integer, found " + describe(t));
    }

    /** The current value as a string (scalars as their text; objects and arrays skipped, giving null). */
    String scalarText() throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            p.skipChildren();
            return null;
        }
        return t == JsonToken.VALUE_NULL ? null : p.getText();
    }

    /** A string field's value (null allowed as missing). */
    private final long[] traceIdWords = new long[2];

    /** The current value, field {@code field}, as the span's trace id (hex; base64 when allowed). */
    final void traceIdInto(SpanRecord r, String field, boolean base64) throws IOException {
        SpanIds.traceId(string(field), false, base64, traceIdWords);
        r.traceHi = traceIdWords[0];
        r.traceLo = traceIdWords[1];
    }

    /** The current value, field {@code field}, as the span's parent id; empty means no parent. */
    final void parentIdInto(SpanRecord r, String field, boolean base64) throws IOException {
        String s = string(field);
        if (s != null && !s.isEmpty()) {
            r.parentId = SpanIds.spanId(s, false, base64);
            r.hasParent = true;
        }
    }

    String string(String field) throws IOException {
        JsonToken t = p.currentToken();
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        if (t != JsonToken.VALUE_STRING) {
            throw error(field + ": expected a string, found " + describe(t));
        }
        return p.getText();
    }

    static long micros(long us, String field) {
        try {
            return Math.multiplyExact(us, 1000L);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(field + " " + us + " µs is out of the int64 ns range");
        }
    }

    private final class CountingStream extends java.io.FilterInputStream {
        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                bytesRead++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                bytesRead += n;
            }
            return n;
        }
    }
}
