package org.tracesync.formats.ctf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.tracesync.formats.TraceFormatException;

/**
 * Reads the {@code metadata} file of a CTF 1.8 trace: plain TSDL text, or packetized
 * (a sequence of packets, each with a 37-byte header starting with magic 0x75D11D57 in the
 * trace's byte order, followed by text). Plain text may start with the {@code /* CTF 1.8} signature
 * or, as LTTng 2.14 writes it, without it.
 */
public final class CtfMetadataFile {

    /** Magic number of a packetized metadata packet header. */
    public static final int PACKET_MAGIC = 0x75D11D57;
    /** Size of a packetized metadata packet header, in bytes. */
    public static final int PACKET_HEADER_SIZE = 37;
    /** Largest metadata accepted (protects against reading a huge file by mistake). */
    static final long MAX_SIZE = 256L << 20;

    private CtfMetadataFile() {
    }

    /** Reads and parses the metadata file. */
    public static CtfMetadata read(Path metadata) throws IOException {
        return TsdlParser.parse(metadata, readText(metadata));
    }

    /** The TSDL text of the metadata file (packets concatenated). */
    public static String readText(Path metadata) throws IOException {
        byte[] bytes;
        try {
            if (Files.size(metadata) > MAX_SIZE) {
                throw new TraceFormatException(metadata, "", "metadata larger than " + (MAX_SIZE >> 20) + " MiB");
            }
            bytes = Files.readAllBytes(metadata);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(metadata, "", "no metadata file (not a CTF trace directory?)");
        }
        return text(metadata, bytes);
    }

    /** The TSDL text of metadata bytes. */
    public static String text(Path file, byte[] bytes) throws TraceFormatException {
        if (bytes.length >= 4) {
            int le = ByteBuffer.wrap(bytes, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
            int be = ByteBuffer.wrap(bytes, 0, 4).order(ByteOrder.BIG_ENDIAN).getInt();
            if (le == PACKET_MAGIC) {
                return packetized(file, bytes, ByteOrder.LITTLE_ENDIAN);
            }
            if (be == PACKET_MAGIC) {
                return packetized(file, bytes, ByteOrder.BIG_ENDIAN);
            }
        }
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                // LTTng pads the plain-text metadata of a live session with NULs at the end.
                for (int j = i; j < bytes.length; j++) {
                    if (bytes[j] != 0) {
                        throw TraceFormatException.atOffset(file, i,
                                "metadata is neither TSDL text nor packetized (bad magic "
                                        + String.format("0x%08x", bytes.length >= 4
                                        ? ByteBuffer.wrap(bytes, 0, 4).getInt() : 0) + ")");
                    }
                }
                return new String(bytes, 0, i, StandardCharsets.UTF_8);
            }
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static String packetized(Path file, byte[] bytes, ByteOrder order) throws TraceFormatException {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(order);
        ByteArrayOutputStream text = new ByteArrayOutputStream(bytes.length);
        int pos = 0;
        while (pos < bytes.length) {
            if (bytes.length - pos < PACKET_HEADER_SIZE) {
                throw TraceFormatException.atOffset(file, pos, "truncated metadata packet header");
            }
            int magic = b.getInt(pos);
            if (magic != PACKET_MAGIC) {
                throw TraceFormatException.atOffset(file, pos,
                        String.format("bad metadata packet magic 0x%08x (expected 0x%08x)", magic, PACKET_MAGIC));
            }
            long contentBits = Integer.toUnsignedLong(b.getInt(pos + 24));
            long packetBits = Integer.toUnsignedLong(b.getInt(pos + 28));
            int compression = bytes[pos + 32];
            int encryption = bytes[pos + 33];
            int major = bytes[pos + 35];
            if (compression != 0 || encryption != 0) {
                throw TraceFormatException.atOffset(file, pos, "compressed or encrypted metadata is not supported");
            }
            if (major != 1) {
                throw TraceFormatException.atOffset(file, pos, "metadata packet says CTF major version " + major);
            }
            if (contentBits % 8 != 0 || packetBits % 8 != 0 || contentBits < PACKET_HEADER_SIZE * 8L
                    || packetBits < contentBits || pos + packetBits / 8 > bytes.length) {
                throw TraceFormatException.atOffset(file, pos, "bad metadata packet sizes: content " + contentBits
                        + " bits, packet " + packetBits + " bits, " + (bytes.length - pos) + " bytes left in file");
            }
            text.write(bytes, pos + PACKET_HEADER_SIZE, (int) (contentBits / 8) - PACKET_HEADER_SIZE);
            pos += (int) (packetBits / 8);
        }
        return text.toString(StandardCharsets.UTF_8);
    }
}
