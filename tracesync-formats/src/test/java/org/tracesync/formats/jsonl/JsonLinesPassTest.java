package org.tracesync.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.MessageIdKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;
import org.tracesync.formats.TraceFormatException;

/**
 * A pass reads what {@link BufferedReader#readLine} and the parser read line by line (the reader
 * before lines were split from bytes): the same events, the same line numbers in errors, with
 * {@code \n}, {@code \r\n} and {@code \r} ends, blank lines, a byte order mark, lines of the
 * common shape and lines that need the parser, and read buffers from 1 byte up so that every kind
 * of line and terminator falls across a buffer's edge.
 */
class JsonLinesPassTest {

    @TempDir
    Path dir;

    private static final String[] LINES = {
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"send\",\"msg\":\"m%d\",\"to\":\"b\"}",
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"recv\",\"msg\":%d,\"from\":\"b\"}",
        " {\"t\" : %d , \"msg\":\"é%d\", \"dir\":\"recv\", \"node\":\"a\"}",
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"send\",\"msg\":\"q\\\"%d\",\"x\":{\"y\":[1,null]}}",
        "{\"node\":\"\\u0061\",\"t\":%d,\"dir\":\"send\",\"msg\":\"a-very-long-message-id-%d\"}",
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"recv\",\"msg\":\"m%d\",\"pad\":\"" + "p".repeat(300) + "\"}",
    };
    private static final String[] BLANKS = {"", " ", "\t \t", "\u000b", "\u2003"};
    private static final String[] ENDS = {"\n", "\r\n", "\r"};
    private static final String[] BAD = {"{\"node\":\"a\",\"t\":-1,\"dir\":\"send\",\"msg\":\"x\"}",
        "{\"node\":\"b\",\"t\":1,\"dir\":\"send\",\"msg\":\"x\"}", "{\"node\":\"a\"", "nope"};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void readsWhatLineByLineParsingReads(long seed) throws IOException {
        Random r = new Random(seed);
        StringBuilder text = new StringBuilder();
        if (r.nextInt(3) == 0) {
            text.append('\uFEFF');
        }
        boolean bad = seed % 3 == 0;
        int lines = 20 + r.nextInt(60);
        int badAt = bad ? 5 + r.nextInt(lines - 5) : -1;
        for (int i = 0; i < lines; i++) {
            String line;
            if (i == badAt) {
                line = BAD[r.nextInt(BAD.length)];
            } else if (i > 0 && r.nextInt(8) == 0) {
                line = BLANKS[r.nextInt(BLANKS.length)];
            } else {
                long t = 1_700_000_000_000_000_000L + r.nextInt(1_000_000);
                line = String.format(LINES[r.nextInt(LINES.length)], t, i);
            }
            text.append(line);
            if (i < lines - 1 || r.nextBoolean()) {
                text.append(ENDS[r.nextInt(ENDS.length)]);
            }
        }
        Path f = dir.resolve("p" + seed + ".jsonl");
        Files.writeString(f, text, StandardCharsets.UTF_8);

        List<NetEvent> expected = new ArrayList<>();
        TraceFormatException expectedError = null;
        try {
            expected = lineByLine(f, text.toString());
        } catch (TraceFormatException e) {
            expectedError = e;
        }
        for (int buffer : new int[] {1, 2, 3, 7, 16, 61, 64, 255, 4096, 1 << 18}) {
            JsonLinesReader reader = new JsonLinesReader(f, buffer);
            if (expectedError != null) {
                assertThatThrownBy(() -> reader.stream(e -> { })).as("buffer " + buffer)
                        .isInstanceOf(TraceFormatException.class).hasMessage(expectedError.getMessage());
            } else {
                List<NetEvent> events = new ArrayList<>();
                reader.stream(events::add);
                assertThat(events).as("buffer " + buffer).isEqualTo(expected);
                assertThat(reader.bytesRead()).isEqualTo(Files.size(f));
            }
        }
        assertThat(bad).isEqualTo(expectedError != null);
    }

    /** The reader's old pass: readLine, the byte order mark dropped, blank lines skipped, each line parsed. */
    private static List<NetEvent> lineByLine(Path f, String text) throws IOException {
        List<NetEvent> out = new ArrayList<>();
        BufferedReader in = new BufferedReader(new StringReader(text));
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
            JsonLinesReader.LineEvent e = JsonLinesReader.parseLine(f, line, number, "a");
            out.add(new NetEvent(e.send() ? Direction.SEND : Direction.RECEIVE, e.t(), new MessageIdKey(e.msg())));
        }
        return out;
    }
}
