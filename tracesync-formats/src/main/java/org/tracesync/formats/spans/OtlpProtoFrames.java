package org.tracesync.formats.spans;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import org.tracesync.formats.TraceFormatException;

/**
 * The framing of the OpenTelemetry Collector file exporter's {@code format: proto}: every exported
 * {@code TracesData} (wire-identical to {@code ExportTraceServiceRequest}) is written as a 4-byte
 * big-endian unsigned length followed by that many bytes of protobuf; no header, no trailer.
 *
 * <p>Reading: {@link #next} returns each message's bytes with the offset of its length prefix, and
 * names the file and that offset when the file ends inside a prefix, inside a message, or when a
 * length goes beyond the file. Memory: one message at a time. Detection ({@link #looksLikeTracesData})
 * checks the first frame's structure, so that no capture, JSON or text file is taken for it.
 */
final class OtlpProtoFrames implements AutoCloseable {

    /** The largest message accepted (protobuf's own limit is 2 GiB − 1). */
    static final long MAX_MESSAGE = Integer.MAX_VALUE - 8;

    private final Path file;
    private final InputStream in;
    private final long size;
    private long offset;
    private long frameOffset = -1;
    private long frames;

    OtlpProtoFrames(Path file, InputStream in, long size) {
        this.file = file;
        this.in = in;
        this.size = size;
    }

    /** Offset (bytes from the file's start) of the current message's length prefix. */
    long frameOffset() {
        return frameOffset;
    }

    /** 1-based number of the current message. */
    long frameNumber() {
        return frames;
    }

    /** Bytes consumed so far. */
    long offset() {
        return offset;
    }

    /** The next message's bytes, or null at the end of the file (after a complete message). */
    byte[] next() throws IOException {
        byte[] prefix = new byte[4];
        int got = readFully(prefix, 0, 4);
        if (got == 0) {
            return null;
        }
        frameOffset = offset;
        if (got < 4) {
            throw new TraceFormatException(file, "offset " + offset, "truncated length prefix: " + got
                    + " of 4 bytes before the end of the file (an OTLP protobuf file is a sequence of"
                    + " 4-byte big-endian lengths, each followed by a TracesData message)");
        }
        offset += 4;
        long length = ((prefix[0] & 0xFFL) << 24) | ((prefix[1] & 0xFFL) << 16) | ((prefix[2] & 0xFFL) << 8) | (prefix[3] & 0xFFL);
        long remaining = size - offset;
        if (length > remaining) {
            throw new TraceFormatException(file, "offset " + frameOffset, "message length " + length
                    + " goes beyond the end of the file (" + remaining + " bytes remain)");
        }
        if (length > MAX_MESSAGE) {
            throw new TraceFormatException(file, "offset " + frameOffset, "message length " + length
                    + " is beyond protobuf's 2 GiB limit");
        }
        byte[] message = new byte[(int) length];
        int n = readFully(message, 0, message.length);
        if (n < message.length) {
            throw new TraceFormatException(file, "offset " + frameOffset, "truncated message: " + n + " of "
                    + length + " bytes before the end of the file");
        }
        offset += length;
        frames++;
        return message;
    }

    private int readFully(byte[] b, int off, int len) throws IOException {
        int n = 0;
        while (n < len) {
            int r = in.read(b, off + n, len - n);
            if (r < 0) {
                break;
            }
            n += r;
        }
        return n;
    }

    /** Writes one frame: the 4-byte big-endian length, then {@code message}. */
    static void write(OutputStream out, byte[] message) throws IOException {
        int n = message.length;
        out.write(new byte[] {(byte) (n >>> 24), (byte) (n >>> 16), (byte) (n >>> 8), (byte) n});
        out.write(message);
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /**
     * True when {@code head} (the first {@code n} bytes of a file of {@code size} bytes) starts with a
     * frame whose message is a {@code TracesData}: a non-zero length that fits in the file (or is below
     * 128 MiB: a truncated file, for the reader to report), then
     * top-level fields that are all {@code resource_spans} (field 1, length-delimited) ending exactly at
     * the frame's end (checked as far as the head reaches), the first one starting with a field of
     * {@code ResourceSpans} (resource, scope_spans or schema_url). O(head).
     */
    static boolean looksLikeTracesData(byte[] head, int n, long size) {
        if (n < 6) {
            return false;
        }
        long length = ((head[0] & 0xFFL) << 24) | ((head[1] & 0xFFL) << 16) | ((head[2] & 0xFFL) << 8) | (head[3] & 0xFFL);
        // a length beyond the file is a truncated file (the reader says so) when it is below 128 MiB: a
        // first byte below 8 is never text, so text files (and pcap, pcapng magics) stay out
        if (length == 0 || (length > size - 4 && (head[0] & 0xFF) >= 8)) {
            return false;
        }
        long end = 4 + length;
        int i = 4;
        boolean first = true;
        while (i < Math.min(end, n)) {
            if (head[i] != 0x0A) { // field 1 (resource_spans), wire type 2
                return false;
            }
            long[] varint = varint(head, n, i + 1);
            if (varint == null) {
                return i > 4 && n < end; // the head ends inside a tag: fine after a complete field
            }
            long fieldEnd = varint[1] + varint[0];
            if (fieldEnd > end) {
                return false;
            }
            if (first) {
                int j = (int) varint[1];
                if (varint[0] > 0 && j < n && head[j] != 0x0A && head[j] != 0x12 && head[j] != 0x1A) {
                    return false;
                }
                first = false;
            }
            i = (int) Math.min(fieldEnd, Integer.MAX_VALUE);
            if (fieldEnd >= n) {
                return true; // the field goes past the head: as far as it reaches, it is TracesData
            }
        }
        return i == end;
    }

    /** {value, index after it} of the varint at {@code head[i]}, or null when it does not end within the head. */
    private static long[] varint(byte[] head, int n, int i) {
        long v = 0;
        for (int shift = 0; shift < 35 && i < n; shift += 7) {
            byte b = head[i++];
            v |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return new long[] {v, i};
            }
        }
        return null;
    }

    /** An error about the message whose length prefix is at {@code frameOffset}. */
    static TraceFormatException invalid(Path file, long frameOffset, String what) {
        return new TraceFormatException(file, "offset " + frameOffset, what);
    }
}
