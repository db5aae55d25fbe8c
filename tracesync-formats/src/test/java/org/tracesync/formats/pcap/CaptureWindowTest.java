package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.TraceFormatException;

/**
 * Records read in place from a {@link CaptureWindow} (mapped windows, a direct buffer) are the
 * heap reader's, record for record, whichever offset of a window a record starts or ends at; and a
 * damaged file gives the heap reader's error (file, offset, message).
 */
class CaptureWindowTest {

    @TempDir
    Path dir;

    /** A pcap of {@code n} records of 0 to 300 random bytes (a third of them Ethernet/IPv4/TCP headers), seeded. */
    private Path randomPcap(long seed, int n, boolean nanos, boolean bigEndian) throws IOException {
        Path f = dir.resolve("r" + seed + ".pcap");
        SplittableRandom rnd = new SplittableRandom(seed);
        byte[] buf = new byte[400];
        long t = 1_700_000_000_000_000_000L;
        try (PcapWriter w = new PcapWriter(f, LinkTypes.ETHERNET, nanos, bigEndian, 65535)) {
            for (int i = 0; i < n; i++) {
                int len;
                if (rnd.nextInt(3) == 0) {
                    PacketBuilder pb = new PacketBuilder().tcp(rnd.nextInt(1 << 16), rnd.nextInt(1 << 16),
                            rnd.nextInt(), rnd.nextInt(), 0x10, rnd.nextInt(200));
                    len = Math.min(pb.build(buf), rnd.nextInt(2) == 0 ? 400 : rnd.nextInt(80));
                } else {
                    len = rnd.nextInt(301);
                    for (int j = 0; j < len; j++) {
                        buf[j] = (byte) rnd.nextInt();
                    }
                }
                t += rnd.nextLong(2_000_000_000L) - 100_000_000L; // now and then backwards
                w.write(t, buf, 0, len, len + rnd.nextInt(3));
            }
        }
        return f;
    }

    /** Every record of {@code r}: offset, time, lengths and bytes. */
    private static List<String> records(CaptureReader r) throws IOException {
        List<String> out = new ArrayList<>();
        try (r) {
            while (r.next()) {
                byte[] d = Arrays.copyOfRange(r.data(), r.dataOffset(), r.dataOffset() + r.capturedLength());
                out.add(r.recordOffset() + " " + r.timestamp() + " " + r.capturedLength() + " "
                        + r.originalLength() + " " + Arrays.toString(d));
            }
        }
        return out;
    }

    /**
     * Windows of 64 to 1,100 bytes (records of up to 316 bytes, so many straddle two windows and
     * some are longer than the window): every record start falls at many offsets of a window.
     */
    @ParameterizedTest(name = "seed={0} nanos={1} bigEndian={2}")
    @CsvSource({"1,true,false", "2,false,false", "3,true,true", "4,false,true"})
    void recordsAreTheHeapReadersAtEveryWindowOffset(long seed, boolean nanos, boolean bigEndian) throws IOException {
        Path f = randomPcap(seed, 700, nanos, bigEndian);
        List<String> heap = records(CaptureReader.open(f));
        assertThat(heap).hasSize(700);
        SplittableRandom rnd = new SplittableRandom(seed);
        for (CaptureWindow.Kind kind : List.of(CaptureWindow.Kind.MAPPED, CaptureWindow.Kind.DIRECT)) {
            for (int size : new int[] {64, 65, 100, 333, 1100, 1 << 20}) {
                assertThat(records(CaptureReader.openInPlace(f, kind, size))).as(kind + " " + size).isEqualTo(heap);
            }
            for (int i = 0; i < 20; i++) {
                int size = 64 + rnd.nextInt(600);
                assertThat(records(CaptureReader.openInPlace(f, kind, size))).as(kind + " " + size).isEqualTo(heap);
            }
        }
    }

    /**
     * A pcap opened in place reads its records from a window by address, not from the heap
     * buffer; past the last record no address is left, and its bytes are not asked for.
     */
    @ParameterizedTest(name = "kind={0}")
    @CsvSource({"MAPPED", "DIRECT"})
    void inPlaceReaderReadsFromAWindow(CaptureWindow.Kind kind) throws IOException {
        Path f = randomPcap(9, 50, true, false);
        try (CaptureReader r = CaptureReader.openInPlace(f, kind, 128)) {
            assertThat(r.next()).isTrue();
            assertThat(r.readsInPlace).isTrue();
            assertThat(r.windowAddress).isNotZero();
            assertThat(r.data()).startsWith(Arrays.copyOfRange(Files.readAllBytes(f), 40, 40 + r.capturedLength()));
            while (r.next()) {
                assertThat(r.windowAddress).isNotZero();
            }
            assertThat(r.windowAddress).isZero();
            assertThatThrownBy(r::data).isInstanceOf(IllegalStateException.class);
        }
    }

    /**
     * A file cut at every length after its header gives, read in place with small windows, the
     * heap reader's records and then its error (truncated header or record, named by offset), or
     * its clean end.
     */
    @ParameterizedTest(name = "kind={0}")
    @CsvSource({"MAPPED", "DIRECT"})
    void truncatedAtEveryLengthGivesTheHeapReadersError(CaptureWindow.Kind kind) throws IOException {
        byte[] whole = Files.readAllBytes(randomPcap(5, 12, true, false));
        Path f = dir.resolve("cut.pcap");
        int errors = 0;
        for (int cut = 24; cut <= whole.length; cut++) {
            Files.write(f, Arrays.copyOf(whole, cut));
            String heap = outcome(() -> CaptureReader.open(f));
            for (int size : new int[] {64, 97, 4096}) {
                assertThat(outcome(() -> CaptureReader.openInPlace(f, kind, size))).as("cut " + cut + " window " + size)
                        .isEqualTo(heap);
            }
            errors += heap.contains("truncated") ? 1 : 0;
        }
        assertThat(errors).isGreaterThan(whole.length / 2);
    }

    /** A record header out of range gives, in place, the heap reader's error naming its offset. */
    @ParameterizedTest(name = "kind={0}")
    @CsvSource({"MAPPED", "DIRECT"})
    void badRecordHeaderGivesTheHeapReadersError(CaptureWindow.Kind kind) throws IOException {
        byte[] whole = Files.readAllBytes(randomPcap(6, 30, true, false));
        int tenth = 24;
        for (int i = 0; i < 10; i++) {
            tenth += 16 + Bytes.i32le(whole, tenth + 8);
        }
        byte[] longRecord = whole.clone();
        Bytes.put32(longRecord, tenth + 8, CaptureReader.MAX_RECORD + 1, false);
        byte[] badFraction = whole.clone();
        Bytes.put32(badFraction, tenth + 4, 1_000_000_000, false);
        byte[] beyondEnd = whole.clone();
        Bytes.put32(beyondEnd, tenth + 8, whole.length, false);
        List<byte[]> bad = List.of(longRecord, badFraction, beyondEnd);
        int[] named = {tenth, tenth + 4, tenth}; // the fraction's error names its own field
        for (int i = 0; i < bad.size(); i++) {
            Path f = dir.resolve("bad.pcap");
            Files.write(f, bad.get(i));
            String heap = outcome(() -> CaptureReader.open(f));
            assertThat(heap).startsWith("error " + f + ":offset " + named[i] + ": ");
            assertThat(outcome(() -> CaptureReader.openInPlace(f, kind, 100))).isEqualTo(heap);
        }
        Path f = dir.resolve("bad.pcap");
        assertThatThrownBy(() -> records(CaptureReader.openInPlace(f, kind, 100)))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("truncated packet record: " + whole.length + " bytes announced");
    }

    /**
     * A capture cut by another process while it is read in place: behind the reader's position
     * inside its mapped window (the pages it loads from are gone: a fault), at its position, or
     * ahead of its window. The read ends in one error naming the file and an offset and saying
     * the file was truncated during the read, never in the JVM's InternalError of a faulting load
     * or a record made of bytes that are no longer the file's.
     */
    @ParameterizedTest(name = "kind={0} cutAt={1}")
    @CsvSource({"MAPPED,4096", "MAPPED,40000", "MAPPED,200000", "DIRECT,4096", "DIRECT,200000", "HEAP,4096",
            "HEAP,200000"})
    void fileTruncatedDuringTheReadGivesAClearError(CaptureWindow.Kind kind, long cutAt) throws IOException {
        Path f = randomPcap(11, 3000, true, false);
        long size = Files.size(f);
        assertThat(size).isGreaterThan(400_000);
        Throwable thrown = null;
        int read = 0;
        try (CaptureReader r = CaptureReader.openInPlace(f, kind, 1 << 16)) {
            assertThat(r.readsInPlace).isEqualTo(kind != CaptureWindow.Kind.HEAP);
            while (r.next() && r.recordOffset() < 30_000) {
                read++;
            }
            try (FileChannel w = FileChannel.open(f, StandardOpenOption.WRITE)) {
                w.truncate(cutAt);
            }
            long sum = 0;
            try {
                while (r.next()) {
                    read++;
                    sum += r.data()[r.dataOffset()]; // every byte of the record through the window
                }
                thrown = new AssertionError("no error after " + read + " records (" + sum + ")");
            } catch (InternalError e) {
                // a faulting load of data()'s copy, raised where this thread next polled (here, past
                // next's catch): the merge's fill asks the reader, as here
                thrown = r.fault(e, false);
            }
        } catch (Throwable e) {
            thrown = e;
        }
        assertThat(thrown).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":offset ")
                .hasMessageContaining("truncated during the read")
                .hasMessageContaining(size + " bytes when opened, " + cutAt + " now");
    }

    /**
     * A capture that grows while it is read (still being written), in place or through the heap
     * buffer: an error says so, at the latest where the read meets the file's end.
     */
    @ParameterizedTest(name = "kind={0}")
    @CsvSource({"MAPPED", "DIRECT", "HEAP"})
    void fileGrownDuringTheReadGivesAClearError(CaptureWindow.Kind kind) throws IOException {
        Path f = randomPcap(12, 3000, true, false);
        long size = Files.size(f);
        try (CaptureReader r = CaptureReader.openInPlace(f, kind, 1 << 16)) {
            while (r.next() && r.recordOffset() < 30_000) {
                // the first window
            }
            Files.write(f, new byte[100], StandardOpenOption.APPEND);
            assertThatThrownBy(() -> {
                while (r.next()) {
                    r.data();
                }
            }).isInstanceOf(TraceFormatException.class)
                    .hasMessageStartingWith(f + ":offset ")
                    .hasMessageContaining("changed during the read: " + size + " bytes when opened, " + (size + 100) + " now");
        }
    }

    /** A pcapng capture (read through the heap buffer) cut or grown during the read: the same errors. */
    @ParameterizedTest(name = "cutAt={0}")
    @CsvSource({"4096", "200000", "-1"})
    void pcapngChangedDuringTheReadGivesAClearError(long cutAt) throws IOException {
        Path f = dir.resolve("r.pcapng");
        SplittableRandom rnd = new SplittableRandom(13);
        byte[] buf = new byte[400];
        try (PcapngWriter w = new PcapngWriter(f, false)) {
            w.addInterface(PcapngWriter.Interface.of(LinkTypes.ETHERNET, "eth0"));
            for (int i = 0; i < 3000; i++) {
                int len = rnd.nextInt(301);
                rnd.nextBytes(buf);
                w.writePacket(0, 1_700_000_000_000_000_000L + i * 1000L, buf, 0, len, len);
            }
        }
        long size = Files.size(f);
        try (CaptureReader r = CaptureReader.open(f)) {
            while (r.next() && r.recordOffset() < 30_000) {
                // some records
            }
            if (cutAt < 0) {
                Files.write(f, new byte[100], StandardOpenOption.APPEND);
            } else {
                try (FileChannel w = FileChannel.open(f, StandardOpenOption.WRITE)) {
                    w.truncate(cutAt);
                }
            }
            assertThatThrownBy(() -> {
                while (r.next()) {
                    r.data();
                }
            }).isInstanceOf(TraceFormatException.class)
                    .hasMessageStartingWith(f + ":offset ")
                    .hasMessageContaining(cutAt < 0
                            ? "changed during the read: " + size + " bytes when opened, " + (size + 100) + " now"
                            : "truncated during the read: " + size + " bytes when opened, " + cutAt + " now");
        }
    }

    private interface Opener {
        CaptureReader open() throws IOException;
    }

    /** The records' count and last offset, then "end" or the error's message. */
    private static String outcome(Opener o) throws IOException {
        int n = 0;
        long last = -1;
        try (CaptureReader r = o.open()) {
            while (r.next()) {
                n++;
                last = r.recordOffset();
            }
            return n + " records to " + last + ", end";
        } catch (TraceFormatException e) {
            return "error " + e.getMessage() + " after " + n + " records";
        }
    }
}
