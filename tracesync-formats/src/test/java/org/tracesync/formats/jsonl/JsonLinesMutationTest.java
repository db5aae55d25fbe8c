package org.tracesync.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.formats.TraceFormatException;

/**
 * Seeded mutations of a valid log (deleted, inserted, swapped bytes, truncation): reading either
 * succeeds or fails with a {@link TraceFormatException} naming the file and a line — never another
 * exception, never a silent wrong timestamp.
 */
class JsonLinesMutationTest {

    private static final String VALID = """
            {"node":"a","t":1700000000123456789,"dir":"send","msg":"req-42","to":"b"}
            {"node":"a","t":1700000000123456999,"dir":"recv","msg":"resp-42","from":"b","x":[1,{"y":null}]}
            {"node":"a","t":1700000000123457000,"dir":"send","msg":7}
            """;
    private static final String ALPHABET = "{}[]\":,0123456789-+.eE aNnodetmsgrcvfuxl\\\n\t\u00e9\u0000";

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void mutatedLogsFailCleanly(long seed) throws IOException {
        Random r = new Random(seed);
        Path f = dir.resolve("m.jsonl");
        int failures = 0;
        for (int i = 0; i < 200; i++) {
            StringBuilder b = new StringBuilder(VALID);
            int edits = 1 + r.nextInt(3);
            for (int e = 0; e < edits && b.length() > 0; e++) {
                int at = r.nextInt(b.length());
                switch (r.nextInt(4)) {
                    case 0 -> b.deleteCharAt(at);
                    case 1 -> b.insert(at, ALPHABET.charAt(r.nextInt(ALPHABET.length())));
                    case 2 -> b.setCharAt(at, ALPHABET.charAt(r.nextInt(ALPHABET.length())));
                    default -> b.setLength(at);
                }
            }
            Files.writeString(f, b.toString());
            try {
                JsonLinesReader reader = new JsonLinesReader(f);
                reader.stream(event -> {
                    // any timestamp that comes out must be one a line really holds
                    assertThat(b.toString()).contains(Long.toString(event.timestamp()));
                });
            } catch (TraceFormatException e) {
                failures++;
                assertThat(e.getMessage()).startsWith(f + ":line ");
            }
        }
        assertThat(failures).isGreaterThan(60);
    }
}
