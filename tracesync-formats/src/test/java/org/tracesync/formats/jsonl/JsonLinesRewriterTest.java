package org.tracesync.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.TraceFormatException;

class JsonLinesRewriterTest {

    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    private String rewrite(Path in, LongUnaryOperator time) throws IOException {
        Path out = dir.resolve("out-" + in.getFileName());
        new JsonLinesRewriter().rewrite(in, out, time);
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    @Test
    void onlyTheTopLevelTimeChangesEveryOtherCharacterIsKept() throws IOException {
        String in = "\uFEFF{ \"msg\" : \"a\",\"t\" :  1000 , \"node\":\"h1\",\"dir\":\"send\", \"x\":{\"t\":5},\"é\":[1,2] }\r\n"
                + "\r\n"
                + "   \n"
                + "{\"node\":\"h1\",\"dir\":\"recv\",\"msg\":7,\"t\":999999999999,\"from\":null}\r"
                + "{\"t\":0,\"node\":\"h1\",\"dir\":\"send\",\"msg\":\"c\"}";
        String out = rewrite(file("a.jsonl", in), t -> t * 3 + 1);
        assertThat(out).isEqualTo(
                "\uFEFF{ \"msg\" : \"a\",\"t\" :  3001 , \"node\":\"h1\",\"dir\":\"send\", \"x\":{\"t\":5},\"é\":[1,2] }\r\n"
                + "\r\n"
                + "   \n"
                + "{\"node\":\"h1\",\"dir\":\"recv\",\"msg\":7,\"t\":2999999999998,\"from\":null}\r"
                + "{\"t\":1,\"node\":\"h1\",\"dir\":\"send\",\"msg\":\"c\"}");
        // the reader reads the copy: same events, mapped times
        List<Long> times = new ArrayList<>();
        new JsonLinesReader(dir.resolve("out-a.jsonl")).stream(e -> times.add(e.timestamp()));
        assertThat(times).containsExactly(3001L, 2999999999998L, 1L);
    }

    @Test
    void theTimeMapSeesTheEventsInFileOrderOncePerEvent() throws IOException {
        Path in = file("b.jsonl", "{\"node\":\"h\",\"t\":30,\"dir\":\"send\",\"msg\":\"a\"}\n\n"
                + "{\"node\":\"h\",\"t\":10,\"dir\":\"send\",\"msg\":\"b\"}\n{\"node\":\"h\",\"t\":20,\"dir\":\"send\",\"msg\":\"c\"}\n");
        List<Long> seen = new ArrayList<>();
        JsonLinesRewriter.Outcome o = new JsonLinesRewriter().rewrite(in, dir.resolve("b.out"), t -> {
            seen.add(t);
            return t;
        });
        assertThat(seen).containsExactly(30L, 10L, 20L);
        assertThat(o.events()).isEqualTo(3);
        assertThat(o.lines()).isEqualTo(4);
        assertThat(Files.readString(dir.resolve("b.out"))).isEqualTo(Files.readString(in));
    }

    @Test
    void aBadLineIsTheReadersErrorNamingFileAndLine() throws IOException {
        Path in = file("bad.jsonl", "{\"node\":\"h\",\"t\":1,\"dir\":\"send\",\"msg\":\"a\"}\n\n{\"node\":\"h\",\"t\":1.5,\"dir\":\"send\","
                + "\"msg\":\"b\"}\n");
        assertThatThrownBy(() -> rewrite(in, t -> t))
                .isInstanceOf(TraceFormatException.class)
                .hasMessage(in + ":line 3: \"t\" = 1.5 is not an integer; expected integer nanoseconds like 1700000000123456789");
        Path other = file("other.jsonl", "{\"node\":\"h\",\"t\":1,\"dir\":\"send\",\"msg\":\"a\"}\n"
                + "{\"node\":\"g\",\"t\":2,\"dir\":\"send\",\"msg\":\"b\"}\n");
        assertThatThrownBy(() -> rewrite(other, t -> t)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(other + ":line 2: node \"g\" but the file's first event is on node \"h\"");
        Path text = file("text.jsonl", "# a comment\n");
        assertThatThrownBy(() -> rewrite(text, t -> t)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(text + ":line 1: not valid JSON");
    }

    @Test
    void invalidUtf8IsAnErrorNamingTheFile() throws IOException {
        Path in = dir.resolve("latin1.jsonl");
        Files.write(in, new byte[] {'{', '"', (byte) 0xE9, '"', ':', '1', '}', '\n'});
        assertThatThrownBy(() -> rewrite(in, t -> t)).isInstanceOf(TraceFormatException.class)
                .hasMessageContaining(in.toString()).hasMessageContaining("not UTF-8 text");
    }

    @Test
    void aNegativeMappedTimeIsAnErrorNamingTheLine() throws IOException {
        Path in = file("n.jsonl", "{\"node\":\"h\",\"t\":5,\"dir\":\"send\",\"msg\":\"a\"}\n{\"node\":\"h\",\"t\":1,\"dir\":\"send\","
                + "\"msg\":\"b\"}\n");
        assertThatThrownBy(() -> rewrite(in, t -> t - 3)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(in + ":line 2: \"t\" = 1 maps to -2 ns");
    }

    @Test
    void anAnnotationGoesJustBeforeTheClosingBraceAndNeverDuplicatesAUsersField() throws IOException {
        Path in = file("ann.jsonl", "{\"node\":\"h\",\"t\":5,\"dir\":\"send\",\"msg\":\"a\" }\n"
                + "{\"node\":\"h\",\"t\":6,\"dir\":\"send\",\"msg\":\"b\",\"tracesync\":1}\n");
        JsonLinesRewriter.Annotation a = (m, input, local, synced) -> m.append("\"local_t\":").append(local)
                .append(",\"input\":").append(input);
        Path out = dir.resolve("ann.out");
        new JsonLinesRewriter("ts", a).rewrite(in, out, t -> t + 10);
        assertThat(Files.readString(out)).isEqualTo(
                "{\"node\":\"h\",\"t\":15,\"dir\":\"send\",\"msg\":\"a\" ,\"ts\":{\"local_t\":5,\"input\":0}}\n"
                + "{\"node\":\"h\",\"t\":16,\"dir\":\"send\",\"msg\":\"b\",\"tracesync\":1,\"ts\":{\"local_t\":6,\"input\":0}}\n");
        // the annotated copy is still a trace the reader takes
        assertThat(new JsonLinesReader(out).node().name()).isEqualTo("h");
        assertThatThrownBy(() -> new JsonLinesRewriter("tracesync", a).rewrite(in, dir.resolve("x"), t -> t))
                .isInstanceOf(TraceFormatException.class)
                .hasMessage(in + ":line 2: the event already has a field \"tracesync\"; choose another annotation"
                        + " field (--annotate-field NAME)");
    }

    @Test
    void mergeOrdersByMappedTimeEachInputInItsOwnOrderTiesToTheEarlierInput() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":10,\"dir\":\"send\",\"msg\":\"1\"}\r\n\n"
                + "{\"node\":\"a\",\"t\":30,\"dir\":\"send\",\"msg\":\"2\"}");
        Path b = file("b.jsonl", "\uFEFF{\"node\":\"b\",\"t\":5,\"dir\":\"recv\",\"msg\":\"1\"}\n"
                + "{\"node\":\"b\",\"t\":15,\"dir\":\"recv\",\"msg\":\"2\"}\n");
        Path out = dir.resolve("merged.jsonl");
        long n = new JsonLinesRewriter().merge(List.of(a, b), List.of(t -> t, t -> t + 5), out);
        assertThat(n).isEqualTo(4);
        assertThat(Files.readString(out)).isEqualTo(
                "{\"node\":\"a\",\"t\":10,\"dir\":\"send\",\"msg\":\"1\"}\n"
                + "{\"node\":\"b\",\"t\":10,\"dir\":\"recv\",\"msg\":\"1\"}\n"
                + "{\"node\":\"b\",\"t\":20,\"dir\":\"recv\",\"msg\":\"2\"}\n"
                + "{\"node\":\"a\",\"t\":30,\"dir\":\"send\",\"msg\":\"2\"}\n");
    }

    @Test
    void mergeAnnotatesEachEventWithItsOwnInput() throws IOException {
        Path a = file("a.jsonl", "{\"node\":\"a\",\"t\":10,\"dir\":\"send\",\"msg\":\"1\"}\n");
        Path b = file("b.jsonl", "{\"node\":\"b\",\"t\":5,\"dir\":\"recv\",\"msg\":\"1\"}\n");
        Path out = dir.resolve("m.jsonl");
        new JsonLinesRewriter("ts", (m, input, local, synced) -> m.append("\"in\":").append(input))
                .merge(List.of(a, b), List.of(t -> t, t -> t), out);
        assertThat(Files.readString(out)).isEqualTo(
                "{\"node\":\"b\",\"t\":5,\"dir\":\"recv\",\"msg\":\"1\",\"ts\":{\"in\":1}}\n"
                + "{\"node\":\"a\",\"t\":10,\"dir\":\"send\",\"msg\":\"1\",\"ts\":{\"in\":0}}\n");
    }
}
