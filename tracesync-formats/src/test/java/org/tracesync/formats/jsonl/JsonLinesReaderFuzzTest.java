package org.tracesync.formats.jsonl;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tracesync.formats.TraceFormatException;

/**
 * Fuzz target for the JSON-lines reader: any bytes either read as events or fail with a
 * {@link TraceFormatException} naming the file; no other exception. Seeds live in
 * src/test/resources/.../JsonLinesReaderFuzzTestInputs (run as regression tests by surefire);
 * fuzz with {@code JAZZER_FUZZ=1}.
 */
class JsonLinesReaderFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void readLog(byte[] data) throws IOException {
        Path f = Files.createTempFile("fuzz", ".jsonl");
        try {
            Files.write(f, data);
            try {
                JsonLinesReader r = new JsonLinesReader(f);
                r.stream(e -> {
                    if (e.timestamp() < 0) {
                        throw new AssertionError("negative timestamp passed: " + e);
                    }
                });
            } catch (TraceFormatException expected) {
                if (!expected.getMessage().startsWith(f.toString())) {
                    throw new AssertionError("error does not name the file: " + expected.getMessage());
                }
            }
        } finally {
            Files.deleteIfExists(f);
        }
    }
}
