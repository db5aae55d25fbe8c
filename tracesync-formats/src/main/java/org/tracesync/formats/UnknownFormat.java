package org.tracesync.formats;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.tracesync.formats.lttv.LttvTextInput;

/**
 * The true reason a path is no trace tracesync reads, when one can be told from a glance: an
 * empty file, a zstd or gzip file, a capture-named file with a wrong magic number, a directory that holds CTF traces
 * deeper down (an LTTng session directory), a text file that is LTTV text but for its trace count.
 * Null otherwise (the caller then says "unknown trace format"). Cost: a few bytes or one directory
 * walk (at most 6 levels: LTTng puts ust/uid/0/64-bit/metadata 5 deep), only on the error path.
 */
public final class UnknownFormat {

    private UnknownFormat() {
    }

    /** The reason, or null when none can be told at a glance. */
    public static TraceFormatException reason(Path p) {
        try {
            if (Files.isRegularFile(p)) {
                long size = Files.size(p);
                if (size == 0) {
                    return new TraceFormatException(p, "", "empty file (0 bytes): not a trace");
                }
                TraceFormatException compressed = compressed(p);
                if (compressed != null) {
                    return compressed;
                }
                String name = p.getFileName().toString().toLowerCase(Locale.ROOT);
                if (name.endsWith(".pcap") || name.endsWith(".pcapng") || name.endsWith(".cap")) {
                    return notACapture(p, size);
                }
                return LttvTextInput.lttvLikeError(p);
            }
            if (Files.isDirectory(p)) {
                List<Path> inner;
                try (Stream<Path> s = Files.walk(p, 6)) {
                    inner = s.filter(f -> f.getFileName().toString().equals("metadata") && Files.isRegularFile(f))
                            .map(Path::getParent).sorted().limit(4).toList();
                }
                if (inner.isEmpty()) {
                    return new TraceFormatException(p, "", "a directory without a CTF 'metadata' file: not a CTF trace");
                }
                return new TraceFormatException(p, "", "a directory without a CTF 'metadata' file; the traces inside it are "
                        + String.join(", ", inner.stream().map(Path::toString).toList()) + ": give them instead");
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * A zstd or gzip file (the collector's file exporter compresses with zstd): decompress it first.
     * Or the exporter's {@code compression: zstd} without its native-compression feature gate: every
     * message compressed on its own behind its 4-byte length, which no command-line tool undoes.
     */
    private static TraceFormatException compressed(Path p) throws IOException {
        byte[] b = new byte[8];
        int n;
        try (InputStream in = Files.newInputStream(p)) {
            n = in.readNBytes(b, 0, 8);
        }
        long length = ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL);
        if (n == 8 && length + 4 <= Files.size(p) && (b[4] & 0xFF) == 0x28 && (b[5] & 0xFF) == 0xB5 && (b[6] & 0xFF) == 0x2F
                && (b[7] & 0xFF) == 0xFD) {
            return new TraceFormatException(p, "", "OpenTelemetry Collector file exporter output with every message"
                    + " compressed (compression: zstd): not read; export without compression");
        }
        if (n >= 4 && (b[0] & 0xFF) == 0x28 && (b[1] & 0xFF) == 0xB5 && (b[2] & 0xFF) == 0x2F && (b[3] & 0xFF) == 0xFD) {
            return new TraceFormatException(p, "", "a zstd-compressed file: decompress it first (zstd -d)");
        }
        if (n >= 2 && (b[0] & 0xFF) == 0x1F && (b[1] & 0xFF) == 0x8B) {
            return new TraceFormatException(p, "", "a gzip-compressed file: decompress it first (gunzip)");
        }
        return null;
    }

    private static TraceFormatException notACapture(Path p, long size) throws IOException {
        if (size < 4) {
            return new TraceFormatException(p, "", "too short for a capture header (" + size + " bytes)");
        }
        byte[] b = new byte[4];
        try (InputStream in = Files.newInputStream(p)) {
            in.readNBytes(b, 0, 4);
        }
        return new TraceFormatException(p, "", String.format(Locale.ROOT, "not a pcap or pcapng capture (its first 4"
                + " bytes, %02x %02x %02x %02x, are neither magic number)", b[0], b[1], b[2], b[3]));
    }
}
