package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.TraceFormatException;

/**
 * Corrupted copies of real traces (made in a temporary directory at test time): every defect gives
 * a clear {@link TraceFormatException} or a warning naming the file and the byte offset, never a
 * hang or an out-of-memory error.
 */
class CtfCorruptInputTest {

    @TempDir
    Path tmp;

    private Path copy(String name) throws IOException {
        Path src = SharedCtfData.trace(name);
        Path dst = tmp.resolve(name);
        Files.createDirectories(dst);
        try (Stream<Path> s = Files.list(src)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (Files.isRegularFile(p)) {
                    Files.copy(p, dst.resolve(p.getFileName()), StandardCopyOption.REPLACE_EXISTING);
                    dst.resolve(p.getFileName()).toFile().setWritable(true);
                }
            }
        }
        return dst;
    }

    private static long count(CtfTrace t) throws IOException {
        long[] n = {0};
        t.read(e -> n[0]++);
        return n[0];
    }

    @Test
    void truncatedPacketIsAWarningAndTheCompleteEventsAreRead() throws Exception {
        Path dir = copy("scp_src");
        long full = count(CtfTrace.open(dir));
        Path stream = dir.resolve("channel0_0");
        long cut = 262144 + 100_000;
        try (var ch = java.nio.channels.FileChannel.open(stream, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        CtfTrace t = CtfTrace.open(dir);
        long n = count(t);
        assertThat(n).isPositive().isLessThan(full);
        assertThat(t.warnings()).anyMatch(w -> w.contains("channel0_0:offset 262144") && w.contains("truncated packet"));
    }

    @Test
    void badPacketMagicNamesFileAndOffset() throws Exception {
        Path dir = copy("scp_src");
        Path stream = dir.resolve("channel0_0");
        byte[] b = Files.readAllBytes(stream);
        b[262144] = 0x12;
        Files.write(stream, b);
        assertThatThrownBy(() -> count(CtfTrace.open(dir)))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("channel0_0:offset 262144")
                .hasMessageContaining("bad packet magic");
    }

    @Test
    void badMetadataPacketMagicIsRejected() throws Exception {
        Path dir = copy("scp_src");
        Path meta = dir.resolve("metadata");
        byte[] b = Files.readAllBytes(meta);
        int second = (int) Integer.toUnsignedLong(ByteBuffer.wrap(b, 28, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()) / 8;
        b[second] ^= 0x55;
        Files.write(meta, b);
        assertThatThrownBy(() -> CtfTrace.open(dir))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("metadata:offset " + second)
                .hasMessageContaining("bad metadata packet magic");
    }

    @Test
    void metadataSyntaxErrorNamesTheLine() throws Exception {
        Path dir = copy("ust-tracef");
        Path meta = dir.resolve("metadata");
        String text = CtfMetadataFile.readText(meta);
        String broken = text.replaceFirst("byte_order = le;", "byte_order = le");
        Files.writeString(meta, broken);
        long line = broken.substring(0, broken.indexOf("byte_order = le")).lines().count() + 1;
        assertThatThrownBy(() -> CtfTrace.open(dir))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("metadata:line " + line)
                .hasMessageContaining("expected ';'");
    }

    @Test
    void missingStreamFileIsAnError() throws Exception {
        Path dir = copy("ust-tracef");
        CtfTrace t = CtfTrace.open(dir);
        Files.delete(dir.resolve("channel0_1"));
        assertThatThrownBy(() -> count(t))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("channel0_1")
                .hasMessageContaining("stream file missing");
        Files.delete(dir.resolve("channel0_0"));
        assertThatThrownBy(() -> CtfTrace.open(dir))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("no stream file");
    }

    @Test
    void sequenceLengthPastThePacketEndIsAnError() throws Exception {
        Path dir = copy("ust-tracef");
        Path stream = dir.resolve("channel0_0");
        byte[] b = Files.readAllBytes(stream);
        byte[] needle = "worker 0 step 0 ".getBytes(StandardCharsets.US_ASCII);
        int at = indexOf(b, needle);
        assertThat(at).isPositive();
        // the uint32 length field (__msg_length) precedes the characters
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at - 4, 0x7FFF_FFF0);
        Files.write(stream, b);
        assertThatThrownBy(() -> count(CtfTrace.open(dir)))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("channel0_0:offset ")
                .hasMessageContaining("sequence '_msg' of length 2147483632 extends past the end of the packet content");
    }

    @Test
    void garbageInsteadOfMetadataIsRejected() throws Exception {
        Path dir = copy("ust-tracef");
        byte[] junk = new byte[64];
        for (int i = 0; i < junk.length; i++) {
            junk[i] = (byte) (i * 37 + 1);
        }
        junk[10] = 0;
        Files.write(dir.resolve("metadata"), junk);
        assertThatThrownBy(() -> CtfTrace.open(dir)).isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("metadata");
    }

    private static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Issue #12 item 10: a clock whose values overflow int64 ns is an error naming the stream and offset, not a wrap. */
    @Test
    void anOverflowingClockIsAnErrorNotAWrappedTime() throws Exception {
        Path dir = tmp.resolve("overflow");
        try (CtfTraceWriter w = new CtfTraceWriter(dir, "h1", 0)) {
            w.networkInterface(0, 1_000, "eth0", new byte[] {10, 0, 0, 1});
            w.networkInterface(0, 2_000_000_000L, "eth0", new byte[] {10, 0, 0, 1});
        }
        Path meta = dir.resolve("metadata");
        String text = Files.readString(meta);
        text = text.replaceFirst("freq = 1000000000;", "freq = 1;").replaceFirst("offset_s = [0-9-]+;",
                "offset_s = 9223372036854775807;");
        Files.writeString(meta, text);
        CtfTrace t = CtfTrace.open(dir);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> count(t))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(dir.resolve("channel0_0") + ":offset ")
                .hasMessageContaining("overflows int64 ns; check the clock's freq, offset_s and offset in the metadata");
    }
}
