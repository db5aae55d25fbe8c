package org.tracesync.formats.jsonl;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.StandardCharsets;

/**
 * The lines of a JSON-lines file as byte ranges of a buffer, split where
 * {@link java.io.BufferedReader#readLine} splits them ({@code \n}, {@code \r\n}, {@code \r}; a
 * last line without one), so that line numbers are the reader's: the current line's content is
 * {@code buf[from, end)} (a UTF-8 byte order mark at the start of the first line left out and
 * reported in {@link #bom}), its terminator {@code buf[end, next)}. The buffer grows for a line
 * longer than it; a range is valid until the next {@link #next}.
 */
final class LineBytes implements Closeable {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final InputStream in;
    private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder();
    byte[] buf;
    private int pos;
    private int lim;
    private boolean eof;
    /** The current line: content {@code buf[from, end)}, terminator {@code buf[end, next)}. */
    int from;
    int end;
    int next;
    /** The current line's number (1-based). */
    long lineNumber;
    /** True when the current line (the first) began with a UTF-8 byte order mark. */
    boolean bom;
    /** Bytes read from the file so far. */
    long bytesRead;

    LineBytes(InputStream in, int bufferSize) {
        this.in = in;
        this.buf = new byte[bufferSize];
    }

    /** Moves to the next line; false at the end of the file. */
    boolean next() throws IOException {
        pos = next;
        int e = lineEnd();
        if (e < 0) {
            return false;
        }
        int n = e;
        if (e < lim) {
            n = e + 1;
            if (buf[e] == '\r' && n < lim && buf[n] == '\n') {
                n++;
            }
        }
        from = pos;
        end = e;
        next = n;
        lineNumber++;
        bom = lineNumber == 1 && e - from >= 3 && buf[from] == (byte) 0xEF && buf[from + 1] == (byte) 0xBB
                && buf[from + 2] == (byte) 0xBF;
        if (bom) {
            from += 3;
        }
        return true;
    }

    /** The current line's content decoded as strict UTF-8. */
    String decode() throws CharacterCodingException {
        return utf8.reset().decode(ByteBuffer.wrap(buf, from, end - from)).toString();
    }

    /**
     * The index of the terminator of the line at {@link #pos}, reading more of the file until the
     * whole line (and the byte after a {@code \r}) is in the buffer; {@link #lim} for a last line
     * without one; -1 at the end of the file. Moving the buffer's content keeps {@link #pos}'s
     * line; earlier lines' ranges end.
     */
    private int lineEnd() throws IOException {
        int i = pos;
        while (true) {
            while (i < lim) {
                if (i + 8 <= lim) {
                    // eight bytes at a time: the lowest byte flagged by zeroByte is a true zero
                    long w = (long) LONGS.get(buf, i);
                    long m = zeroByte(w ^ 0x0A0A0A0A0A0A0A0AL) | zeroByte(w ^ 0x0D0D0D0D0D0D0D0DL);
                    if (m == 0) {
                        i += 8;
                        continue;
                    }
                    i += Long.numberOfTrailingZeros(m) >>> 3;
                }
                byte c = buf[i];
                if (c == '\n') {
                    return i;
                }
                if (c == '\r') {
                    if (i + 1 < lim || eof) {
                        return i;
                    }
                    break; // is it \r\n? read on from here
                }
                i++;
            }
            if (eof) {
                return pos < lim ? lim : -1;
            }
            int scanned = i - pos;
            if (pos > 0) {
                System.arraycopy(buf, pos, buf, 0, lim - pos);
                lim -= pos;
                pos = 0;
            } else if (lim == buf.length) {
                buf = java.util.Arrays.copyOf(buf, 2 * buf.length);
            }
            int n = in.read(buf, lim, buf.length - lim);
            if (n < 0) {
                eof = true;
            } else {
                lim += n;
                bytesRead += n;
            }
            i = pos + scanned;
        }
    }

    /** The high bit of each zero byte of {@code v} set, and possibly of bytes above the lowest zero byte. */
    private static long zeroByte(long v) {
        return (v - 0x0101010101010101L) & ~v & 0x8080808080808080L;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
