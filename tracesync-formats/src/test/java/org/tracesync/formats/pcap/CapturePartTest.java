package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Byte ranges of real captures, cut at every kind of offset (inside the file header, inside a
 * record header, inside packet bytes, on a record boundary, one byte either side, at the end of
 * the file): each range must start on the first true record at or after its start, read exactly
 * the true records up to its end, and stop on the first true record at or after its end.
 */
class CapturePartTest {

    @TempDir
    Path tmp;

    /** Offset and timestamp of every record, read by the plain reader (the oracle). */
    private static List<long[]> records(Path file) throws IOException {
        List<long[]> out = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                out.add(new long[] {r.recordOffset(), r.timestamp()});
            }
        }
        return out;
    }

    /**
     * Where the walk may stop or a range begin: pcap record offsets; pcapng block offsets (every
     * block type), found by following the block lengths from the section header.
     */
    private static TreeSet<Long> boundaries(Path file, List<long[]> records) throws IOException {
        TreeSet<Long> out = new TreeSet<>();
        byte[] b = Files.readAllBytes(file);
        if (Bytes.i32be(b, 0) != PcapngReader.BLOCK_SHB) {
            records.forEach(x -> out.add(x[0]));
            return out;
        }
        boolean be = Bytes.i32be(b, 8) == PcapngReader.BOM;
        for (int o = 0; o < b.length; o += (int) Bytes.u32(b, o + 4, be)) {
            out.add((long) o);
        }
        return out;
    }

    private static CapturePart open(Path file, long start, long end) throws IOException {
        return CapturePart.open(file, Files.newByteChannel(file, StandardOpenOption.READ), start, end);
    }

    /** Reads [start, end) and checks it against the oracle; returns {first, stop}. */
    private static long[] checkRange(Path file, List<long[]> all, TreeSet<Long> starts, long size, long headerEnd,
                                     long start, long end) throws IOException {
        try (CapturePart part = open(file, start, end)) {
            List<long[]> got = new ArrayList<>();
            CaptureReader r = part.reader();
            while (r.next()) {
                got.add(new long[] {r.recordOffset(), r.timestamp()});
            }
            Long first = starts.ceiling(Math.max(start, headerEnd));
            long expectedFirst = first == null ? size : first;
            Long stop = starts.ceiling(end);
            long expectedStop = stop == null ? size : stop;
            assertThat(part.firstRecord()).as("first record of [%d, %d)", start, end).isEqualTo(expectedFirst);
            List<long[]> expected = all.stream()
                    .filter(x -> x[0] >= expectedFirst && x[0] < Math.max(expectedFirst, end)).toList();
            assertThat(got).as("records of [%d, %d)", start, end).usingRecursiveFieldByFieldElementComparator()
                    .containsExactlyElementsOf(expected);
            assertThat(part.stopOffset()).as("stop of [%d, %d)", start, end)
                    .isEqualTo(Math.max(expectedFirst, expectedStop));
            return new long[] {part.firstRecord(), part.stopOffset()};
        }
    }

    /** Every byte offset around the first, middle and last records, the end, and seeded random ones. */
    private static TreeSet<Long> cuts(List<long[]> all, long size, long seed) {
        TreeSet<Long> cuts = new TreeSet<>();
        int n = all.size();
        for (int i : new int[] {0, n / 2, n - 3}) {
            long from = i == 0 ? 0 : all.get(i)[0] - 2;
            long to = all.get(Math.min(n - 1, i + 3))[0] + 2;
            for (long c = from; c <= to && c <= size; c++) {
                cuts.add(c);
            }
        }
        for (long c = size - 40; c <= size + 1; c++) {
            cuts.add(c);
        }
        SplittableRandom r = new SplittableRandom(seed);
        for (int k = 0; k < 300; k++) {
            cuts.add(r.nextLong(size));
        }
        return cuts;
    }

    private void everyCut(Path file) throws IOException {
        List<long[]> all = records(file);
        assertThat(all).hasSizeGreaterThan(1000);
        TreeSet<Long> starts = boundaries(file, all);
        long size = Files.size(file);
        long headerEnd = all.get(0)[0];
        int checked = 0;
        for (long c : cuts(all, size, 7)) {
            checkRange(file, all, starts, size, headerEnd, c, c + 3000);
            checkRange(file, all, starts, size, headerEnd, Math.max(0, c - 700), c);
            checked++;
        }
        assertThat(checked).isGreaterThan(1000);
    }

    @Test
    void pcapCutAtEveryKindOfOffset() throws IOException {
        everyCut(SharedCaptures.threeHosts().resolve("h2.pcap"));
    }

    /** h1.pcap rewritten as pcapng, with simple packet blocks and a custom block among the packets. */
    private Path pcapngCopy(boolean bigEndian) throws IOException {
        Path src = SharedCaptures.threeHosts().resolve("h1.pcap");
        Path dst = tmp.resolve("h1-" + bigEndian + ".pcapng");
        try (CaptureReader r = CaptureReader.open(src);
             PcapngWriter w = new PcapngWriter(dst, bigEndian)) {
            w.addInterface(new PcapngWriter.Interface(LinkTypes.ETHERNET, 128, "eth0",
                    TimestampResolution.NANOSECONDS, 0, List.of("10.200.1.1/24")));
            int k = 0;
            while (r.next()) {
                w.writePacket(0, r.timestamp(), r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                if (++k % 997 == 0) {
                    w.writeSimplePacket(r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                }
            }
        }
        return dst;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void pcapngCutAtEveryKindOfOffset(boolean bigEndian) throws IOException {
        everyCut(pcapngCopy(bigEndian));
    }

    /** Seeded random partitions into 2..12 ranges: every record read once, each range starting where the last stopped. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void partitionsReadEveryRecordOnce(long seed) throws IOException {
        Path file = seed % 2 == 0 ? pcapngCopy(false) : SharedCaptures.threeHosts().resolve("h3.pcap");
        List<long[]> all = records(file);
        long size = Files.size(file);
        SplittableRandom r = new SplittableRandom(seed);
        TreeSet<Long> bounds = new TreeSet<>();
        int parts = 2 + r.nextInt(11);
        while (bounds.size() < parts - 1) {
            bounds.add(1 + r.nextLong(size - 1));
        }
        List<Long> cut = new ArrayList<>(bounds);
        cut.add(0, 0L);
        cut.add(Long.MAX_VALUE);
        List<long[]> got = new ArrayList<>();
        long previousStop = -1;
        for (int i = 0; i + 1 < cut.size(); i++) {
            try (CapturePart part = open(file, cut.get(i), cut.get(i + 1))) {
                if (i > 0) {
                    assertThat(part.firstRecord()).isEqualTo(previousStop);
                }
                while (part.reader().next()) {
                    got.add(new long[] {part.reader().recordOffset(), part.reader().timestamp()});
                }
                previousStop = part.stopOffset();
                assertThat(part.lateHeaderBlocks()).isZero();
            }
        }
        assertThat(previousStop).isEqualTo(size);
        assertThat(got).usingRecursiveFieldByFieldElementComparator().containsExactlyElementsOf(all);
    }

    /**
     * Packet bytes that look like a chain of record headers fool the re-synchronization; the
     * check of the joins (first record = the previous range's stop) is what catches it.
     */
    @Test
    void falseBoundaryIsCaughtByTheJoinCheck() throws IOException {
        Path file = tmp.resolve("fake.pcap");
        long t = 1_700_000_000_000_000_000L;
        byte[] packet = new byte[600];
        long fakeAt;
        try (PcapWriter w = new PcapWriter(file, LinkTypes.RAW, true, false, 65535)) {
            for (int i = 0; i < 20; i++) {
                w.write(t + i * 1000, packet, 0, 60, 60);
            }
            // a payload holding 10 fake records of 20 bytes: 16-byte header (ns pcap, little endian) + 4 bytes
            byte[] payload = new byte[400];
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(payload).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int k = 0; k < 10; k++) {
                b.putInt((int) (t / 1_000_000_000L)).putInt(k).putInt(4).putInt(4).putInt(0);
            }
            w.write(t + 20_000, payload, 0, payload.length, payload.length);
            fakeAt = 24 + 20 * (16 + 60) + 16;
            for (int i = 0; i < 20; i++) {
                w.write(t + 30_000 + i * 1000, packet, 0, 60, 60);
            }
        }
        long stop;
        try (CapturePart first = open(file, 0, fakeAt)) {
            while (first.reader().next()) {
                // walk to the end
            }
            stop = first.stopOffset();
        }
        try (CapturePart second = open(file, fakeAt, Long.MAX_VALUE)) {
            assertThat(second.firstRecord()).isEqualTo(fakeAt); // fooled
            assertThat(stop).isEqualTo(fakeAt - 16 + 16 + 400).isNotEqualTo(second.firstRecord()); // caught
        }
    }

    @Test
    void rangeInsideTheLeadingBlocksStartsAfterThem() throws IOException {
        Path file = pcapngCopy(false);
        List<long[]> all = records(file);
        for (long start = 0; start < all.get(0)[0]; start++) {
            try (CapturePart part = open(file, start, Long.MAX_VALUE)) {
                assertThat(part.firstRecord()).isEqualTo(all.get(0)[0]);
                assertThat(part.resynchronized()).isFalse();
            }
        }
    }
}
