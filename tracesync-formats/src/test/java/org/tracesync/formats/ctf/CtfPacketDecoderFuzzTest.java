package org.tracesync.formats.ctf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.tracesync.formats.TraceFormatException;

/**
 * Fuzz target for the stream/packet decoder: the input is a stream file of a trace whose metadata
 * is {@link CtfTraceWriter}'s (variants, sub-byte big-endian fields, arrays, strings, compact and
 * extended headers). Reading it either succeeds (possibly with warnings) or fails with a
 * {@link TraceFormatException}; no other exception, no hang, bounded memory. Seeds live in
 * src/test/resources/.../CtfPacketDecoderFuzzTestInputs; fuzz with {@code JAZZER_FUZZ=1}.
 */
class CtfPacketDecoderFuzzTest {

    private static Path dir;
    private static CtfMetadata metadata;

    private static synchronized Path traceDir() {
        if (dir == null) {
            try {
                Path d = Files.createTempDirectory("ctf-fuzz");
                // deleteOnExit cannot remove a directory that still holds the writer's files: the
                // whole directory goes at exit (it was left behind by every test run)
                Runtime.getRuntime().addShutdownHook(new Thread(() -> deleteTree(d)));
                try (CtfTraceWriter w = new CtfTraceWriter(d, "fuzz", 0)) {
                    w.networkInterface(0, 1, "eth0", new byte[] {10, 0, 0, 1});
                }
                metadata = CtfMetadataFile.read(d.resolve("metadata"));
                dir = d;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    private static void deleteTree(Path d) {
        try (java.util.stream.Stream<Path> paths = Files.walk(d)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort at exit: a temporary directory left behind is not a test failure
        }
    }

    @FuzzTest(maxDuration = "60s")
    void decodeStream(byte[] data) throws IOException {
        Path d = traceDir();
        Path stream = d.resolve("channel0_0");
        Files.write(stream, data);
        try {
            CtfTrace t = CtfTrace.of(d, metadata, java.util.List.of(stream));
            CtfNetworkEvents net = new CtfNetworkEvents(e -> { });
            t.read(e -> {
                net.event(e);
                for (CtfFieldRef f : e.eventClass().payloadFields()) {
                    if (f.type() instanceof CtfType.StringType) {
                        e.stringValue(f);
                    }
                }
            });
        } catch (TraceFormatException expected) {
            // a clear error is the right answer to a corrupt stream
        }
    }
}
