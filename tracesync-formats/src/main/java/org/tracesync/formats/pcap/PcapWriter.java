package org.tracesync.formats.pcap;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a classic libpcap file: nanosecond (magic a1b23c4d) or microsecond (a1b2c3d4)
 * timestamps, either byte order. Timestamps are int64 ns; a µs file floors them.
 */
public final class PcapWriter implements Closeable {

    private final OutputStream out;
    private final boolean nanos;
    private final boolean bigEndian;
    private final byte[] header = new byte[24];

    public PcapWriter(Path file, int linkType, boolean nanos, boolean bigEndian, int snapLength)
            throws IOException {
        this(Files.newOutputStream(file), linkType, nanos, bigEndian, snapLength);
    }

    public PcapWriter(OutputStream stream, int linkType, boolean nanos, boolean bigEndian, int snapLength)
            throws IOException {
        this.out = new BufferedOutputStream(stream, 1 << 16);
        this.nanos = nanos;
        this.bigEndian = bigEndian;
        Bytes.put32(header, 0, nanos ? PcapReader.MAGIC_NS : PcapReader.MAGIC_US, bigEndian);
        Bytes.put16(header, 4, 2, bigEndian);
        Bytes.put16(header, 6, 4, bigEndian);
        Bytes.put32(header, 8, 0, bigEndian);
        Bytes.put32(header, 12, 0, bigEndian);
        Bytes.put32(header, 16, snapLength, bigEndian);
        Bytes.put32(header, 20, linkType, bigEndian);
        out.write(header, 0, 24);
    }

    /** Writes one record; {@code timestampNs} must be non-negative (pcap has unsigned seconds). */
    public void write(long timestampNs, byte[] data, int off, int len, long originalLength) throws IOException {
        if (timestampNs < 0) {
            throw new IllegalArgumentException("pcap cannot store a timestamp before 1970: " + timestampNs);
        }
        long sec = timestampNs / 1_000_000_000L;
        long frac = timestampNs % 1_000_000_000L;
        if (!nanos) {
            frac /= 1000;
        }
        Bytes.put32(header, 0, (int) sec, bigEndian);
        Bytes.put32(header, 4, (int) frac, bigEndian);
        Bytes.put32(header, 8, len, bigEndian);
        Bytes.put32(header, 12, (int) originalLength, bigEndian);
        out.write(header, 0, 16);
        out.write(data, off, len);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
