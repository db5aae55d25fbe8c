package org.tracesync.formats.pcap;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a pcapng file in either byte order: section header, interface descriptions (link type,
 * snap length, {@code if_name}, {@code if_tsresol}, {@code if_tsoffset}, {@code if_IPv4addr},
 * {@code if_IPv6addr}), enhanced packet blocks, simple packet blocks. Timestamps are int64 ns,
 * converted exactly to each interface's unit (floor for units coarser than 1 ns).
 */
public final class PcapngWriter implements Closeable {

    /** An interface to declare. {@code addresses}: "10.0.0.1/24", "fe80::1/64" or bare literals. */
    public record Interface(int linkType, int snapLength, String name, TimestampResolution resolution,
                            long offsetSeconds, List<String> addresses) {
        public Interface {
            addresses = List.copyOf(addresses);
        }

        public static Interface of(int linkType, String name) {
            return new Interface(linkType, 0, name, TimestampResolution.NANOSECONDS, 0, List.of());
        }
    }

    private final OutputStream out;
    private final boolean bigEndian;
    private final List<Interface> interfaces = new ArrayList<>();
    private byte[] scratch = new byte[1 << 16];

    public PcapngWriter(Path file, boolean bigEndian) throws IOException {
        this(Files.newOutputStream(file), bigEndian);
    }

    public PcapngWriter(OutputStream stream, boolean bigEndian) throws IOException {
        this.out = new BufferedOutputStream(stream, 1 << 16);
        this.bigEndian = bigEndian;
        writeSectionHeader();
    }

    /** Starts a new section (interfaces must be declared again). */
    public void writeSectionHeader() throws IOException {
        byte[] b = new byte[28];
        Bytes.put32(b, 0, PcapngReader.BLOCK_SHB, bigEndian);
        Bytes.put32(b, 4, 28, bigEndian);
        Bytes.put32(b, 8, PcapngReader.BOM, bigEndian);
        Bytes.put16(b, 12, 1, bigEndian);
        Bytes.put16(b, 14, 0, bigEndian);
        Bytes.put32(b, 16, -1, bigEndian);
        Bytes.put32(b, 20, -1, bigEndian);
        Bytes.put32(b, 24, 28, bigEndian);
        out.write(b);
        interfaces.clear();
    }

    /** Declares an interface; returns its id within the current section. */
    public int addInterface(Interface i) throws IOException {
        ByteArrayOutputStream opts = new ByteArrayOutputStream();
        if (!i.name().isEmpty()) {
            option(opts, 2, i.name().getBytes(StandardCharsets.UTF_8));
        }
        for (String a : i.addresses()) {
            String[] parts = a.split("/");
            long[] v = DecodedPacket.parseAddress(parts[0]);
            if (v == null) {
                throw new IllegalArgumentException("not an address: " + a);
            }
            byte[] addr = DecodedPacket.addressBytes(v[0], v[1]);
            if (addr.length == 4) {
                int prefix = parts.length > 1 ? Integer.parseInt(parts[1]) : 32;
                int mask = prefix == 0 ? 0 : -1 << (32 - prefix);
                byte[] val = new byte[8];
                System.arraycopy(addr, 0, val, 0, 4);
                Bytes.put32(val, 4, mask, true);
                option(opts, 4, val);
            } else {
                byte[] val = new byte[17];
                System.arraycopy(addr, 0, val, 0, 16);
                val[16] = (byte) (parts.length > 1 ? Integer.parseInt(parts[1]) : 128);
                option(opts, 5, val);
            }
        }
        if (!i.resolution().equals(TimestampResolution.MICROSECONDS)) {
            option(opts, 9, new byte[] {(byte) i.resolution().optionValue()});
        }
        if (i.offsetSeconds() != 0) {
            byte[] val = new byte[8];
            long v = i.offsetSeconds();
            Bytes.put32(val, bigEndian ? 0 : 4, (int) (v >>> 32), bigEndian);
            Bytes.put32(val, bigEndian ? 4 : 0, (int) v, bigEndian);
            option(opts, 14, val);
        }
        if (opts.size() > 0) {
            option(opts, 0, new byte[0]);
        }
        byte[] o = opts.toByteArray();
        int len = 20 + o.length;
        byte[] b = new byte[len];
        Bytes.put32(b, 0, PcapngReader.BLOCK_IDB, bigEndian);
        Bytes.put32(b, 4, len, bigEndian);
        Bytes.put16(b, 8, i.linkType(), bigEndian);
        Bytes.put32(b, 12, i.snapLength(), bigEndian);
        System.arraycopy(o, 0, b, 16, o.length);
        Bytes.put32(b, len - 4, len, bigEndian);
        out.write(b);
        interfaces.add(i);
        return interfaces.size() - 1;
    }

    private void option(ByteArrayOutputStream opts, int code, byte[] value) {
        byte[] h = new byte[4];
        Bytes.put16(h, 0, code, bigEndian);
        Bytes.put16(h, 2, value.length, bigEndian);
        opts.write(h, 0, 4);
        opts.write(value, 0, value.length);
        opts.write(new byte[(4 - value.length % 4) % 4], 0, (4 - value.length % 4) % 4);
    }

    /** Writes an enhanced packet block on interface {@code id}. */
    public void writePacket(int id, long timestampNs, byte[] data, int off, int len, long originalLength)
            throws IOException {
        Interface i = interfaces.get(id);
        long ticks = i.resolution().fromNanos(Math.subtractExact(timestampNs,
                Math.multiplyExact(i.offsetSeconds(), 1_000_000_000L)));
        int padded = (len + 3) & ~3;
        int total = 32 + padded;
        byte[] b = scratch(total);
        Bytes.put32(b, 0, PcapngReader.BLOCK_EPB, bigEndian);
        Bytes.put32(b, 4, total, bigEndian);
        Bytes.put32(b, 8, id, bigEndian);
        Bytes.put32(b, 12, (int) (ticks >>> 32), bigEndian);
        Bytes.put32(b, 16, (int) ticks, bigEndian);
        Bytes.put32(b, 20, len, bigEndian);
        Bytes.put32(b, 24, (int) originalLength, bigEndian);
        System.arraycopy(data, off, b, 28, len);
        for (int k = 28 + len; k < 28 + padded; k++) {
            b[k] = 0;
        }
        Bytes.put32(b, total - 4, total, bigEndian);
        out.write(b, 0, total);
    }

    /** Writes a simple packet block (no timestamp, interface 0). */
    public void writeSimplePacket(byte[] data, int off, int len, long originalLength) throws IOException {
        int padded = (len + 3) & ~3;
        int total = 16 + padded;
        byte[] b = scratch(total);
        Bytes.put32(b, 0, PcapngReader.BLOCK_SPB, bigEndian);
        Bytes.put32(b, 4, total, bigEndian);
        Bytes.put32(b, 8, (int) originalLength, bigEndian);
        System.arraycopy(data, off, b, 12, len);
        for (int k = 12 + len; k < 12 + padded; k++) {
            b[k] = 0;
        }
        Bytes.put32(b, total - 4, total, bigEndian);
        out.write(b, 0, total);
    }

    /** Writes raw bytes (tests build corrupt files with it). */
    public void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
    }

    private byte[] scratch(int n) {
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, scratch.length * 2)];
        }
        return scratch;
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
