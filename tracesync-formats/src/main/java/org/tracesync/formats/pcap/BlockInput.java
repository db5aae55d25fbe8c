package org.tracesync.formats.pcap;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.tracesync.formats.TraceFormatException;

/**
 * Sequential read window over a capture file: one reusable heap buffer refilled from a
 * {@link FileChannel} (or any seekable channel: a Hadoop file system stream, for the Spark
 * job), so memory stays constant whatever the file size. A record or block is
 * always made contiguous in {@link #buffer()} before it is decoded (the buffer grows only when a
 * single block is larger than it).
 */
final class BlockInput implements Closeable {

    /**
     * 128 KB: the buffers of a few captures read side by side, and the JDK's temporary direct
     * buffer that a read into a heap array goes through, stay in the L2 cache between the copy
     * and the decoding (1 MB buffers cost about 10 ns more per packet, docs/PERFORMANCE.md).
     */
    private static final int INITIAL = 1 << 17;

    private final Path file;
    private final SeekableByteChannel channel;
    private byte[] buf = new byte[INITIAL];
    private int pos;
    private int limit;
    /** File offset of buf[0]. */
    private long base;
    private boolean eof;
    /** A file's size when opened (-1 for other channels): the read is of the file as it was then. */
    private final long sizeAtOpen;

    BlockInput(Path file) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.sizeAtOpen = channel.size();
    }

    /** Reads {@code channel} from its current position; {@code name} is the file named in errors. */
    BlockInput(Path name, SeekableByteChannel channel) throws IOException {
        this.file = name;
        this.channel = channel;
        this.base = channel.position();
        this.sizeAtOpen = channel instanceof FileChannel f ? f.size() : -1;
    }

    /** Moves to file offset {@code offset}, dropping what was buffered. */
    void seek(long offset) throws IOException {
        channel.position(offset);
        base = offset;
        pos = 0;
        limit = 0;
        eof = false;
    }

    /** The channel when it is a file's (a window can map or read it), otherwise null. */
    FileChannel fileChannel() {
        return channel instanceof FileChannel f ? f : null;
    }

    /** Size of the file in bytes. */
    long size() throws IOException {
        return channel.size();
    }

    Path file() {
        return file;
    }

    byte[] buffer() {
        return buf;
    }

    /** Index in {@link #buffer()} of the next unread byte. */
    int position() {
        return pos;
    }

    /** File offset of the next unread byte. */
    long offset() {
        return base + pos;
    }

    void skip(int n) {
        pos += n;
    }

    /** Bytes available from {@link #position()} without reading more. */
    int available() {
        return limit - pos;
    }

    /**
     * Makes {@code n} bytes available from {@link #position()}; returns false when the file ends
     * first (then {@link #available()} tells how many bytes there were).
     */
    boolean ensure(int n) throws IOException {
        if (limit - pos >= n) {
            return true;
        }
        if (n > buf.length) {
            byte[] bigger = new byte[Math.max(n, buf.length * 2)];
            System.arraycopy(buf, pos, bigger, 0, limit - pos);
            buf = bigger;
        } else {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
        }
        base += pos;
        limit -= pos;
        pos = 0;
        while (limit < n && !eof) {
            int r = channel.read(ByteBuffer.wrap(buf, limit, buf.length - limit));
            if (r < 0) {
                eof = true;
                TraceFormatException changed = changed(base + limit);
                if (changed != null) {
                    throw changed;
                }
            } else {
                limit += r;
            }
        }
        return limit - pos >= n;
    }

    /**
     * Null when the file has its size at open (or is not a file); otherwise the error to raise at
     * {@code offset} instead of any other: the file was truncated or written to during the read.
     * Checked where the read meets the file's end and before every error.
     */
    TraceFormatException changed(long offset) {
        if (sizeAtOpen < 0) {
            return null;
        }
        long now;
        try {
            now = channel.size();
        } catch (IOException e) {
            return null; // the error being raised says what went wrong
        }
        return now == sizeAtOpen ? null : changedError(file, offset, sizeAtOpen, now);
    }

    /** The error of a file whose size went from {@code atOpen} to {@code now} during the read, at {@code offset}. */
    static TraceFormatException changedError(Path file, long offset, long atOpen, long now) {
        String m;
        if (now < atOpen) {
            m = "file truncated during the read: " + atOpen + " bytes when opened, " + now
                    + " now (cut by another process?)";
        } else if (now > atOpen) {
            m = "file changed during the read: " + atOpen + " bytes when opened, " + now
                    + " now (still being written?); read it once it is complete";
        } else {
            m = "a fault reading the mapped file (an I/O error, or the file changed during the read"
                    + " and back to its size, " + now + " bytes)";
        }
        return TraceFormatException.atOffset(file, offset, m);
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
