package org.tracesync.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rewriter reads lines as bytes and copies the common shape as bytes: on seeded files with
 * every kind of line (plain, escaped, non-ASCII, nested, blank, a byte order mark, every
 * terminator, bad lines, events that already hold the annotation's field, times mapped below
 * zero) it writes the same bytes as the rewriter before it ({@link CharRewriterOracle}), or fails
 * with the same message, for a rewrite with and without an annotation and for a merge.
 */
class JsonLinesRewriterBytesTest {

    @TempDir
    Path dir;

    private static final String[] LINES = {
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"send\",\"msg\":\"m%d\",\"to\":\"b\"}",
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"recv\",\"msg\":%d,\"from\":\"b\"}",
        " {\"t\" : %d , \"msg\":\"é%d\", \"dir\":\"recv\", \"node\":\"a\" }  ",
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"send\",\"msg\":\"q\\\"%d\",\"x\":{\"t\":[1,null]}}",
        "{\"node\":\"\\u0061\",\"t\":%d,\"dir\":\"send\",\"msg\":\"a-very-long-message-id-%d\"}",
        "{\"node\":\"a\",\"t\":%d,\"dir\":\"recv\",\"msg\":\"m%d\",\"level\":\"info\",\"n\":-1,\"ok\":true}",
    };
    private static final String[] BLANKS = {"", " ", "\t \t", "\u2003"};
    private static final String[] ENDS = {"\n", "\r\n", "\r"};
    private static final String[] RARE = {"{\"node\":\"a\",\"t\":5,\"dir\":\"send\",\"msg\":\"x\",\"tag\":{}}",
        "{\"node\":\"b\",\"t\":1,\"dir\":\"send\",\"msg\":\"x\"}", "{\"node\":\"a\"", "nope",
        "{\"node\":\"a\",\"t\":7,\"dir\":\"recv\",\"msg\":\"y\",\"tag\":1}"};

    private String file(Random r, int seed, boolean rare) {
        StringBuilder text = new StringBuilder();
        if (r.nextInt(3) == 0) {
            text.append('\uFEFF');
        }
        int lines = 10 + r.nextInt(40);
        for (int i = 0; i < lines; i++) {
            String line;
            if (rare && i > 0 && r.nextInt(30) == 0) {
                line = RARE[r.nextInt(RARE.length)];
            } else if (i > 0 && r.nextInt(8) == 0) {
                line = BLANKS[r.nextInt(BLANKS.length)];
            } else {
                line = String.format(LINES[r.nextInt(LINES.length)], 1_000_000L * seed + r.nextInt(1_000_000), i);
            }
            text.append(line);
            if (i < lines - 1 || r.nextBoolean()) {
                text.append(ENDS[r.nextInt(ENDS.length)]);
            }
        }
        return text.toString();
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
    void writesWhatTheTextRewriterWrote(int seed) throws IOException {
        Random r = new Random(seed);
        List<Path> inputs = new ArrayList<>();
        List<LongUnaryOperator> times = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            Path f = dir.resolve("in" + k + ".jsonl");
            Files.writeString(f, file(r, seed, seed % 2 == 0), StandardCharsets.UTF_8);
            inputs.add(f);
            long shift = r.nextInt(5) == 0 ? -(1_000_000L * seed + 500_000) : r.nextInt(1_000_000_000);
            times.add(t -> t + shift);
        }
        JsonLinesRewriter.Annotation members = (b, input, local, synced) ->
                b.append("\"input\":").append(input).append(",\"local_t\":").append(local);
        String field = r.nextBoolean() ? "tag" : "tracé";
        for (boolean annotate : new boolean[] {false, true}) {
            JsonLinesRewriter bytes = annotate ? new JsonLinesRewriter(field, members) : new JsonLinesRewriter();
            CharRewriterOracle text = annotate ? new CharRewriterOracle(field, members) : new CharRewriterOracle();
            for (int k = 0; k < inputs.size(); k++) {
                int input = k;
                String now = outcome(() -> bytes.rewrite(inputs.get(input), dir.resolve("now.jsonl"), times.get(input)),
                        dir.resolve("now.jsonl"));
                String before = outcome(() -> text.rewrite(inputs.get(input), dir.resolve("before.jsonl"), times.get(input)),
                        dir.resolve("before.jsonl"));
                assertThat(now).as("seed %d, input %d, annotate %s", seed, k, annotate).isEqualTo(before);
            }
            String now = outcome(() -> bytes.merge(inputs, times, dir.resolve("now.jsonl")), dir.resolve("now.jsonl"));
            String before = outcome(() -> text.merge(inputs, times, dir.resolve("before.jsonl")), dir.resolve("before.jsonl"));
            assertThat(now).as("seed %d, merge, annotate %s", seed, annotate).isEqualTo(before);
        }
    }

    private interface Run {
        Object run() throws IOException;
    }

    /** What a run returned and wrote, or the error it failed with. */
    private static String outcome(Run run, Path out) throws IOException {
        Files.deleteIfExists(out);
        try {
            Object result = run.run();
            return result + "\n" + java.util.HexFormat.of().formatHex(Files.readAllBytes(out));
        } catch (org.tracesync.formats.TraceFormatException e) {
            return "error: " + e.getMessage();
        }
    }
}
