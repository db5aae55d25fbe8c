package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.TraceFormatException;

/** Every kind of damaged capture gives a TraceFormatException naming the file and the byte offset. */
class CorruptCaptureTest {

    @TempDir
    Path dir;

    /** A pcapng file: SHB (28 bytes) + IDB (20 + options) + 3 EPBs; returns its bytes. */
    private byte[] pcapng(boolean bigEndian, int linkType) throws IOException {
        Path f = dir.resolve("ok.pcapng");
        byte[] buf = new byte[256];
        try (PcapngWriter w = new PcapngWriter(f, bigEndian)) {
            w.addInterface(PcapngWriter.Interface.of(linkType, ""));
            PacketBuilder pb = new PacketBuilder().tcp(1, 2, 3, 4, 0x10, 10);
            for (int i = 0; i < 3; i++) {
                int cap = pb.build(buf);
                w.writePacket(0, 1_700_000_000_000_000_000L + i, buf, 0, cap, pb.length());
            }
        }
        return Files.readAllBytes(f);
    }

    private Path write(String name, byte[] bytes) throws IOException {
        Path f = dir.resolve(name);
        Files.write(f, bytes);
        return f;
    }

    private static void readAll(Path f) throws IOException {
        try (CaptureReader r = CaptureReader.open(f)) {
            while (r.next()) {
                // consume
            }
        }
    }

    /** Offset of the n-th block (0 = SHB). */
    private static int blockOffset(byte[] b, int n, boolean bigEndian) {
        int off = 0;
        for (int i = 0; i < n; i++) {
            off += Bytes.i32(b, off + 4, bigEndian);
        }
        return off;
    }

    @Test
    void intactFileReadsThreePackets() throws IOException {
        Path f = write("ok2.pcapng", pcapng(false, LinkTypes.ETHERNET));
        int n = 0;
        try (CaptureReader r = CaptureReader.open(f)) {
            while (r.next()) {
                n++;
            }
        }
        assertThat(n).isEqualTo(3);
    }

    @Test
    void truncatedBlockNamesItsOffset() throws IOException {
        byte[] b = pcapng(false, LinkTypes.ETHERNET);
        int third = blockOffset(b, 4, false);
        Path f = write("trunc.pcapng", Arrays.copyOf(b, third + 20));
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset " + third + ": truncated block");
    }

    @Test
    void wrongTrailingBlockLength() throws IOException {
        byte[] b = pcapng(true, LinkTypes.ETHERNET);
        int second = blockOffset(b, 3, true);
        int len = Bytes.i32(b, second + 4, true);
        Bytes.put32(b, second + len - 4, len + 4, true);
        Path f = write("len.pcapng", b);
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset " + (second + len - 4) + ": wrong block length");
    }

    @Test
    void blockLengthNotAMultipleOfFour() throws IOException {
        byte[] b = pcapng(false, LinkTypes.ETHERNET);
        int first = blockOffset(b, 2, false);
        Bytes.put32(b, first + 4, 33, false);
        Path f = write("len4.pcapng", b);
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset " + (first + 4) + ": wrong block length 33");
    }

    @Test
    void unknownLinkTypeInInterfaceBlock() throws IOException {
        Path f = write("link.pcapng", pcapng(false, 147));
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset 36: unknown link type 147");
    }

    @Test
    void unknownLinkTypeInPcapHeader() throws IOException {
        Path f = dir.resolve("link.pcap");
        new PcapWriter(f, 147, true, false, 65535).close();
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset 20: unknown link type 147");
    }

    @Test
    void badMagic() throws IOException {
        Path f = write("magic.pcap", "GIF89a, not a capture at all".getBytes());
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset 0: bad magic 0x47494638");
    }

    @Test
    void badByteOrderMagicInSectionHeader() throws IOException {
        byte[] b = pcapng(false, LinkTypes.ETHERNET);
        b[8] = 0x55;
        Path f = write("bom.pcapng", b);
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset 8: bad byte-order magic");
    }

    @Test
    void truncatedPcapRecord() throws IOException {
        Path f = dir.resolve("t.pcap");
        byte[] buf = new byte[256];
        try (PcapWriter w = new PcapWriter(f, LinkTypes.ETHERNET, true, false, 65535)) {
            PacketBuilder pb = new PacketBuilder().tcp(1, 2, 3, 4, 0x10, 10);
            int cap = pb.build(buf);
            w.write(1_000, buf, 0, cap, pb.length());
            w.write(2_000, buf, 0, cap, pb.length());
        }
        byte[] b = Files.readAllBytes(f);
        int second = 24 + 16 + (b.length - 24 - 32) / 2;
        Path g = write("t2.pcap", Arrays.copyOf(b, b.length - 5));
        assertThatThrownBy(() -> readAll(g)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(g + ":offset " + second + ": truncated packet record");
        Path h = write("t3.pcap", Arrays.copyOf(b, 24 + 7));
        assertThatThrownBy(() -> readAll(h)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(h + ":offset 24: truncated record header: 7 of 16 bytes");
    }

    /**
     * A pcap record header whose captured length or timestamp fraction is out of range names the
     * record's offset (the fraction's own field for the fraction), in either byte order and
     * resolution; the fields are read from the header's two 8-byte words.
     */
    @org.junit.jupiter.params.ParameterizedTest(name = "nanos={0} bigEndian={1}")
    @org.junit.jupiter.params.provider.CsvSource({"true,false", "true,true", "false,false", "false,true"})
    void pcapRecordHeaderOutOfRange(boolean nanos, boolean bigEndian) throws IOException {
        Path f = dir.resolve("r.pcap");
        byte[] buf = new byte[256];
        try (PcapWriter w = new PcapWriter(f, LinkTypes.ETHERNET, nanos, bigEndian, 65535)) {
            PacketBuilder pb = new PacketBuilder().tcp(1, 2, 3, 4, 0x10, 10);
            int cap = pb.build(buf);
            w.write(1_000_000_000_123_456_789L, buf, 0, cap, pb.length());
            w.write(1_000_000_001_000_000_000L, buf, 0, cap, pb.length());
        }
        byte[] b = Files.readAllBytes(f);
        int second = 24 + 16 + (b.length - 24 - 32) / 2;
        try (CaptureReader r = CaptureReader.open(f)) {
            assertThat(r.next()).isTrue();
            assertThat(r.timestamp()).isEqualTo(nanos ? 1_000_000_000_123_456_789L : 1_000_000_000_123_456_000L);
            assertThat(r.capturedLength()).isEqualTo(b.length / 2 - 12 - 16);
            assertThat(r.originalLength()).isEqualTo(r.capturedLength());
            assertThat(r.next()).isTrue();
            assertThat(r.timestamp()).isEqualTo(1_000_000_001_000_000_000L);
            assertThat(r.next()).isFalse();
        }
        byte[] longRecord = b.clone();
        Bytes.put32(longRecord, second + 8, CaptureReader.MAX_RECORD + 1, bigEndian);
        Path g = write("long.pcap", longRecord);
        assertThatThrownBy(() -> readAll(g)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(g + ":offset " + second + ": implausible captured length "
                        + (CaptureReader.MAX_RECORD + 1));
        byte[] badFraction = b.clone();
        int limit = nanos ? 1_000_000_000 : 1_000_000;
        Bytes.put32(badFraction, second + 4, limit, bigEndian);
        Path h = write("fraction.pcap", badFraction);
        assertThatThrownBy(() -> readAll(h)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(h + ":offset " + (second + 4) + ": timestamp fraction " + limit
                        + " out of range");
    }

    @Test
    void packetOnUndeclaredInterface() throws IOException {
        byte[] b = pcapng(false, LinkTypes.ETHERNET);
        int first = blockOffset(b, 2, false);
        Bytes.put32(b, first + 8, 5, false);
        Path f = write("if.pcapng", b);
        assertThatThrownBy(() -> readAll(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset " + (first + 8) + ": packet refers to interface 5");
    }

    @Test
    void missingFileIsNotAFormatError() {
        assertThatThrownBy(() -> CaptureReader.open(dir.resolve("none.pcap")))
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
        assertThat(CaptureReader.isCapture(dir.resolve("none.pcap"))).isFalse();
    }
}
