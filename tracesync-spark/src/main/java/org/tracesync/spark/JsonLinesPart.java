package org.tracesync.spark;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.tracesync.formats.TraceFormatException;

/**
 * The lines of a JSON-lines log whose first byte lies in [start, end), on any Hadoop file system,
 * cut exactly as the one-machine reader ({@code BufferedReader.readLine}) cuts the whole file: a
 * line ends at "\n", "\r" or "\r\n"; a part that starts inside the file begins at the first line
 * start at or after {@code start} (it reads the byte before to know). Every line belongs to exactly
 * one part, whatever the cut points, so the parts of a file read every line once. UTF-8 is checked
 * per line (a multi-byte sequence never holds a '\n' or '\r' byte, so that is the whole file's check).
 *
 * <p>Cost: one sequential read of the part plus the rest of its last line; one line in memory.
 */
final class JsonLinesPart implements Closeable {

    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int bufferPos;
    private int bufferLen;
    private final Path name;
    private final long end;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
    private byte[] line = new byte[256];
    private int length;
    /** File offset of the next byte {@link #in} gives. */
    private long position;
    private long lineStart;
    private boolean eof;

    JsonLinesPart(String uri, Path name, long start, long end, Configuration conf) throws IOException {
        this.name = name;
        this.end = end;
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(uri);
        FileSystem fs = p.getFileSystem(conf);
        FSDataInputStream raw = fs.open(p);
        long from = Math.max(0, start - 1);
        raw.seek(from);
        this.in = raw;
        this.position = from;
        if (start > 0) {
            skipToLineStart();
        }
    }

    /** The next byte (0–255), or -1 at the end of the file. */
    private int read() throws IOException {
        if (bufferPos == bufferLen) {
            bufferLen = in.read(buffer, 0, buffer.length);
            bufferPos = 0;
            if (bufferLen <= 0) {
                bufferLen = 0;
                return -1;
            }
        }
        position++;
        return buffer[bufferPos++] & 0xff;
    }

    /** Gives back the byte {@link #read} returned last (always within the buffer). */
    private void unread(int b) {
        bufferPos--;
        position--;
    }

    /** From the byte before {@code start}: past the first line terminator found. */
    private void skipToLineStart() throws IOException {
        while (true) {
            int b = read();
            if (b < 0) {
                eof = true;
                return;
            }
            if (b == '\n') {
                return;
            }
            if (b == '\r') {
                int c = read();
                if (c != '\n' && c >= 0) {
                    unread(c);
                }
                return;
            }
        }
    }

    /**
     * The next line of this part (without its terminator), or null when the next line starts at or
     * after {@code end} or the file has ended.
     */
    String next() throws IOException {
        if (eof || position >= end) {
            return null;
        }
        lineStart = position;
        length = 0;
        int b = read();
        if (b < 0) {
            eof = true;
            return null;
        }
        while (b >= 0 && b != '\n' && b != '\r') {
            if (length == line.length) {
                line = java.util.Arrays.copyOf(line, length * 2);
            }
            line[length++] = (byte) b;
            b = read();
        }
        if (b < 0) {
            eof = true;
        } else if (b == '\r') {
            int c = read();
            if (c != '\n' && c >= 0) {
                unread(c);
            }
        }
        try {
            CharBuffer chars = utf8.reset().decode(ByteBuffer.wrap(line, 0, length));
            return chars.toString();
        } catch (CharacterCodingException e) {
            throw new TraceFormatException(name, null, "not UTF-8 text (expected a JSON-lines event log)", e);
        }
    }

    /** File offset of the line {@link #next} returned last. */
    long lineStart() {
        return lineStart;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
