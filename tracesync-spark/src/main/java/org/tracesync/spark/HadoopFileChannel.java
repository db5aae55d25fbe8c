package org.tracesync.spark;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A file on any Hadoop file system (file:, hdfs:, s3a:, ...) as a read-only seekable channel, so
 * the capture readers of tracesync-formats read it as they read a local file.
 */
final class HadoopFileChannel implements SeekableByteChannel {

    private final FSDataInputStream in;
    private final long size;
    private boolean open = true;

    HadoopFileChannel(String uri, Configuration conf) throws IOException {
        Path p = new Path(uri);
        FileSystem fs = p.getFileSystem(conf);
        this.size = fs.getFileStatus(p).getLen();
        this.in = fs.open(p);
    }

    /** Size of {@code uri}, or -1 when it is not a file. */
    static long size(String uri, Configuration conf) throws IOException {
        Path p = new Path(uri);
        FileSystem fs = p.getFileSystem(conf);
        if (!fs.exists(p)) {
            return -1;
        }
        var st = fs.getFileStatus(p);
        return st.isFile() ? st.getLen() : -1;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.hasArray()) {
            byte[] tmp = new byte[dst.remaining()];
            int n = in.read(tmp, 0, tmp.length);
            if (n > 0) {
                dst.put(tmp, 0, n);
            }
            return n;
        }
        int n = in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    @Override
    public int write(ByteBuffer src) {
        throw new NonWritableChannelException();
    }

    @Override
    public long position() throws IOException {
        return in.getPos();
    }

    @Override
    public SeekableByteChannel position(long newPosition) throws IOException {
        if (newPosition >= size) {
            in.seek(size == 0 ? 0 : size); // reads then return -1
        } else {
            in.seek(newPosition);
        }
        return this;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public SeekableByteChannel truncate(long size) {
        throw new NonWritableChannelException();
    }

    @Override
    public boolean isOpen() {
        return open;
    }

    @Override
    public void close() throws IOException {
        open = false;
        in.close();
    }
}
