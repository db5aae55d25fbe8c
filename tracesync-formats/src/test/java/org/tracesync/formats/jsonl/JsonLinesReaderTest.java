package org.tracesync.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;
import org.tracesync.formats.TraceFormatException;

class JsonLinesReaderTest {

    @TempDir
    Path dir;

    private Path write(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    private static List<NetEvent> read(JsonLinesReader r) throws IOException {
        List<NetEvent> out = new ArrayList<>();
        r.stream(out::add);
        return out;
    }

    @Test
    void readsEventsExactlyIncludingALastLineWithoutNewline() throws IOException {
        Path f = write("a.jsonl", """
                {"node":"a","t":1700000000123456789,"dir":"send","msg":"req-42","to":"b"}

                {"t":9007199254740993,"msg":"req-43","dir":"recv","node":"a","from":"b","level":"info","extra":{"x":[1,2]}}
                {"node":"a","t":1700000000123456790,"dir":"send","msg":17}""");
        JsonLinesReader r = new JsonLinesReader(f);
        assertThat(r.node().name()).isEqualTo("a");
        assertThat(r.node().source()).isEqualTo(f.toString());
        assertThat(read(r)).containsExactly(
                new NetEvent(Direction.SEND, 1_700_000_000_123_456_789L, new MessageIdKey("req-42")),
                // 2^53 + 1: a double would read 9007199254740992
                new NetEvent(Direction.RECEIVE, 9_007_199_254_740_993L, new MessageIdKey("req-43")),
                new NetEvent(Direction.SEND, 1_700_000_000_123_456_790L, new MessageIdKey("17")));
        assertThat(r.warnings()).singleElement().asString().contains("1 of 3 events", "line 3");
        assertThat(r.bytesRead()).isEqualTo(Files.size(f));
        // a source may be streamed again
        assertThat(read(r)).hasSize(3);
    }

    @Test
    void writerOutputReadsBack() throws IOException {
        StringWriter w = new StringWriter();
        JsonLinesWriter writer = new JsonLinesWriter(w, "node \"x\"");
        writer.write(Direction.SEND, 1_795_276_271_412_493_002L, "id\\1", "b");
        writer.write(Direction.RECEIVE, 1_795_276_271_412_493_003L, "é-2", null);
        assertThat(w.toString()).startsWith("{\"node\":\"node \\\"x\\\"\",\"t\":1795276271412493002,\"dir\":\"send\","
                + "\"msg\":\"id\\\\1\",\"to\":\"b\"}\n");
        JsonLinesReader r = new JsonLinesReader(write("x.jsonl", w.toString()));
        assertThat(r.node().name()).isEqualTo("node \"x\"");
        assertThat(read(r)).containsExactly(
                new NetEvent(Direction.SEND, 1_795_276_271_412_493_002L, new MessageIdKey("id\\1")),
                new NetEvent(Direction.RECEIVE, 1_795_276_271_412_493_003L, new MessageIdKey("é-2")));
    }

    @Test
    void emptyFileIsNamedAfterItsStem() throws IOException {
        JsonLinesReader r = new JsonLinesReader(write("lonely.jsonl", "\n\n"));
        assertThat(r.node().name()).isEqualTo("lonely");
        assertThat(read(r)).isEmpty();
    }

    @Test
    void missingFileIsNoSuchFile() {
        assertThatThrownBy(() -> new JsonLinesReader(dir.resolve("nope.jsonl")))
                .isInstanceOf(NoSuchFileException.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "garbage|hello world|line 2: not valid JSON",
        "array|[1,2,3]|line 2: expected a JSON object",
        "truncated|`{\"node\":\"a\",\"t\":5`|line 2: not valid JSON",
        "two objects|`{\"node\":\"a\",\"t\":5,\"dir\":\"send\",\"msg\":\"x\"} {}`|line 2: unexpected data after",
        "missing t|`{\"node\":\"a\",\"dir\":\"send\",\"msg\":\"x\"}`|line 2: missing field \"t\"",
        "missing two|`{\"node\":\"a\",\"t\":5}`|line 2: missing field \"dir\", \"msg\"",
        "float t|`{\"node\":\"a\",\"t\":1.7e18,\"dir\":\"send\",\"msg\":\"x\"}`|line 2: \"t\" = 1.7e18 is not an integer",
        "string t|`{\"node\":\"a\",\"t\":\"5\",\"dir\":\"send\",\"msg\":\"x\"}`|line 2: \"t\" must be an integer number",
        "huge t|`{\"node\":\"a\",\"t\":99999999999999999999,\"dir\":\"send\",\"msg\":\"x\"}`|does not fit in int64",
        "negative t|`{\"node\":\"a\",\"t\":-5,\"dir\":\"send\",\"msg\":\"x\"}`|line 2: \"t\" = -5 is negative",
        "bad dir|`{\"node\":\"a\",\"t\":5,\"dir\":\"sent\",\"msg\":\"x\"}`|line 2: \"dir\" must be \"send\" or \"recv\"",
        "null msg|`{\"node\":\"a\",\"t\":5,\"dir\":\"send\",\"msg\":null}`|line 2: \"msg\" must be a string, got null",
        "empty msg|`{\"node\":\"a\",\"t\":5,\"dir\":\"send\",\"msg\":\"\"}`|line 2: \"msg\" is empty",
        "other node|`{\"node\":\"b\",\"t\":5,\"dir\":\"send\",\"msg\":\"x\"}`|line 2: node \"b\" but the file's first event is on node \"a\"",
        "duplicate field|`{\"node\":\"a\",\"t\":5,\"t\":6,\"dir\":\"send\",\"msg\":\"x\"}`|line 2: not valid JSON (Duplicate field 't')",
    })
    void badLinesAreTraceFormatErrorsNamingFileAndLine(String name, String badLine, String expected)
            throws IOException {
        Path f = write("bad.jsonl", "{\"node\":\"a\",\"t\":1,\"dir\":\"recv\",\"msg\":\"ok\"}\n" + badLine + "\n");
        JsonLinesReader r = new JsonLinesReader(f);
        assertThatThrownBy(() -> read(r))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":line 2: ")
                .hasMessageContaining(expected);
    }

    @Test
    void badFirstLineFailsAtOpen() throws IOException {
        Path f = write("first.jsonl", "\n# a comment\n");
        assertThatThrownBy(() -> new JsonLinesReader(f))
                .isInstanceOf(TraceFormatException.class)
                .hasMessage(f + ":line 2: not valid JSON (Unexpected character ('#' (code 35)): "
                        + "expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' or 'false'))"
                        + "; expected one JSON object per line");
    }

    @Test
    void binaryFileIsAFormatError() throws IOException {
        Path f = dir.resolve("bin.jsonl");
        Files.write(f, new byte[] {(byte) 0xd4, (byte) 0xc3, (byte) 0xb2, (byte) 0xa1, 2, 0, 4, 0, '\n'});
        assertThatThrownBy(() -> new JsonLinesReader(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageContaining(f.toString());
    }
}
