package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.formats.TraceFormatException;

/** Malformed span files: one clear error naming the file, the line and column, and what was expected. */
class SpanReaderErrorsTest {

    @TempDir
    Path dir;

    private static final String OTLP_SPAN = "{\"traceId\":\"%s\",\"spanId\":\"%s\",\"parentSpanId\":\"\",\"kind\":2,"
            + "\"startTimeUnixNano\":\"1700000000000000000\",\"endTimeUnixNano\":\"1700000000000001000\"}";

    private static String otlpLine(String span) {
        return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"host.name\",\"value\":{\"stringValue\":\"h1\"}}]},"
                + "\"scopeSpans\":[{\"spans\":[" + span + "]}]}]}";
    }

    private Path write(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private static String error(Path f) {
        try {
            new SpanMessageInput(SpanFiles.open(List.of(f), SpanOptions.defaults())).hosts();
        } catch (TraceFormatException e) {
            assertThat(e.file()).isEqualTo(f);
            return e.getMessage();
        } catch (IOException e) {
            throw new AssertionError("not a TraceFormatException: " + e, e);
        }
        throw new AssertionError("no error for " + f);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // trace id of the wrong length
        "0123456789abcdef0123|0123456789abcdef|line 2, column |trace id '0123456789abcdef0123' has 20 characters (expected 32 hex digits or 16)",
        // span id of the wrong length
        "0123456789abcdef0123456789abcdef|0123456789abcdef01|line 2, column |span id '0123456789abcdef01' has 18 characters (expected 16 hex digits)",
        // not hexadecimal
        "0123456789abcdef0123456789abcdeg|0123456789abcdef|line 2, column |'0123456789abcdef0123456789abcdeg' is not hexadecimal"})
    void otlpBadIds(String traceId, String spanId, String where, String message) throws IOException {
        String good = otlpLine(String.format(OTLP_SPAN, "0123456789abcdef0123456789abcdef", "0123456789abcdef"));
        String bad = otlpLine(String.format(OTLP_SPAN, traceId, spanId));
        Path f = write("bad.jsonl", good + "\n" + bad + "\n");
        assertThat(error(f)).startsWith(f + ":" + where).endsWith(": " + message);
    }

    @Test
    void otlpTruncatedLine() throws IOException {
        String good = otlpLine(String.format(OTLP_SPAN, "0123456789abcdef0123456789abcdef", "0123456789abcdef"));
        Path f = write("cut.jsonl", good + "\n" + good.substring(0, 150));
        assertThat(error(f)).startsWith(f + ":line 2, column 151: ").contains("unexpected end of file (truncated?)");
    }

    @Test
    void otlpMissingStartTime() throws IOException {
        String span = "{\"traceId\":\"0123456789abcdef0123456789abcdef\",\"spanId\":\"0123456789abcdef\",\"kind\":3}";
        Path f = write("nostart.jsonl", otlpLine(span) + "\n");
        assertThat(error(f)).startsWith(f + ":line 1, column ").endsWith(": span without startTimeUnixNano");
    }

    @Test
    void otlpFractionalTime() throws IOException {
        String span = "{\"traceId\":\"0123456789abcdef0123456789abcdef\",\"spanId\":\"0123456789abcdef\",\"startTimeUnixNano\":1.5e18}";
        Path f = write("frac.jsonl", otlpLine(span) + "\n");
        assertThat(error(f)).startsWith(f + ":line 1, column ").endsWith(": startTimeUnixNano: expected an integer, found a number");
    }

    /** A 10 MB line of valid spans, then a line with a bad id: the error names line 2; then the same line cut short. */
    @Test
    void tenMegabyteLine() throws IOException {
        Path f = dir.resolve("big.jsonl");
        StringBuilder spans = new StringBuilder();
        int n = 0;
        while (spans.length() < 10_000_000) {
            if (n > 0) {
                spans.append(',');
            }
            spans.append(String.format(OTLP_SPAN, "0123456789abcdef0123456789abcdef", String.format("%016x", ++n)));
        }
        String big = otlpLine(spans.toString());
        assertThat(big.length()).isGreaterThan(10_000_000);
        try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
            w.write(big);
            w.write("\n");
            w.write(otlpLine(String.format(OTLP_SPAN, "0123456789abcdef0123456789abcdef", "12")));
            w.write("\n");
        }
        assertThat(error(f)).startsWith(f + ":line 2, column ").endsWith("span id '12' has 2 characters (expected 16 hex digits)");
        SpanHosts hosts = new SpanHosts();
        long[] count = {0};
        Path ok = write("big-ok.jsonl", big + "\n");
        SpanFiles.open(List.of(ok), SpanOptions.defaults()).read(hosts, s -> count[0]++);
        assertThat(count[0]).isEqualTo(n);
        Path cut = write("big-cut.jsonl", big.substring(0, big.length() - 10));
        assertThat(error(cut)).startsWith(cut + ":line 1, column " + (big.length() - 9) + ": ")
                .contains("unexpected end of file (truncated?)");
    }

    @Test
    void zipkinTruncatedAndMissingId() throws IOException {
        String span = "{\"traceId\":\"0123456789abcdef\",\"id\":\"0123456789abcdef\",\"kind\":\"CLIENT\",\"timestamp\":1700000000000000,"
                + "\"duration\":10,\"localEndpoint\":{\"ipv4\":\"10.0.0.1\"}}";
        Path cut = write("cut.json", "[\n" + span + ",\n" + span.substring(0, 60));
        assertThat(error(cut)).startsWith(cut + ":line 3, column 61: ").contains("unexpected end of file (truncated?)");
        Path noId = write("noid.json", "[\n" + span.replace("\"id\":\"0123456789abcdef\",", "") + "\n]");
        assertThat(error(noId)).startsWith(noId + ":line 2, column ").endsWith(": span without id");
        Path badJson = write("bad.json", "[\n" + span + "\n" + span + "\n]");
        assertThat(error(badJson)).startsWith(badJson + ":line 3, column 1: ").contains("not valid JSON");
    }

    @Test
    void jaegerUnknownProcessAndBadTime() throws IOException {
        String span = "{\"traceID\":\"abc\",\"spanID\":\"def\",\"startTime\":%s,\"duration\":5,\"processID\":\"%s\"}";
        String doc = "{\"data\":[{\"traceID\":\"abc\",\"spans\":[\n" + String.format(span, "1700000000000000", "p9")
                + "\n],\"processes\":{\"p1\":{\"serviceName\":\"a\",\"tags\":[]}}}]}";
        Path f = write("jaeger.json", doc);
        assertThat(error(f)).contains("span at line 2: processID 'p9' is not among the trace's processes");
        Path g = write("jaeger2.json", doc.replace("1700000000000000", "\"soon\"").replace("p9", "p1"));
        assertThat(error(g)).startsWith(g + ":line 2, column ").endsWith(": startTime 'soon' is not an integer");
    }

    @Test
    void notASpanFile() throws IOException {
        Path f = write("events.jsonl", "{\"node\":\"a\",\"t\":1,\"dir\":\"send\",\"msg\":\"x\"}\n");
        assertThat(SpanFormat.detect(f)).isNull();
    }
}
