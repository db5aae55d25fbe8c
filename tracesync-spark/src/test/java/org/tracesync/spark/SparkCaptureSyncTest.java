package org.tracesync.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.benchmarks.CaptureLargeSet;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.global.GlobalReduction;

/**
 * The Spark job in local[2] mode against the one-machine synchronization (the oracle: the same
 * readers, {@code TcpMatcher}, accumulators, estimation and reduction in one process): the result
 * files must be byte for byte the same.
 */
class SparkCaptureSyncTest {

    private static JavaSparkContext sc;

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        sc = new JavaSparkContext(SparkSyncCommand.sparkConf("local[2]"));
        sc.setLogLevel("WARN");
    }

    @AfterAll
    static void stop() {
        if (sc != null) {
            sc.close();
        }
    }

    /** {@code tracesync sync}'s defaults: bisector, global program where links are redundant. */
    private static Synchronizer.Options syncOptions() {
        return new Synchronizer.Options(Synchronizer.Estimator.BISECTOR, 0.95, null,
                GlobalReduction.reducer(GlobalReduction.Mode.WHERE_REDUNDANT, 0.0));
    }

    private record OneMachine(String result, MergedTraceInput.ReadStats stats) {
    }

    private OneMachine oneMachine(List<Path> files) throws IOException {
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, InputOptions.defaults());
        Synchronizer.Synchronization s = Synchronizer.synchronize(in, syncOptions());
        Path out = tmp.resolve("one-machine.json");
        ResultFile.write(s.result(), out);
        return new OneMachine(Files.readString(out), in.stats());
    }

    private record Spark(String result, SparkCaptureSync.Outcome outcome) {
    }

    private Spark spark(List<Path> files, long splitSize) throws IOException {
        return spark(files, splitSize, InputOptions.defaults());
    }

    private Spark spark(List<Path> files, long splitSize, InputOptions capture) throws IOException {
        SparkCaptureSync.Outcome o = SparkCaptureSync.run(sc, files.stream().map(Path::toString).toList(),
                new SparkCaptureSync.Options(capture, (nodes, rtt) -> syncOptions(), splitSize, 3));
        Path out = tmp.resolve("spark.json");
        ResultFile.write(o.synchronization().result(), out);
        return new Spark(Files.readString(out), o);
    }

    @Test
    void threeHostsGiveTheOneMachineResult() throws IOException {
        List<Path> files = SharedCaptures.threeHosts();
        OneMachine one = oneMachine(files);
        Spark s = spark(files, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isEqualTo(19_401);
        assertThat(s.outcome().matching().ambiguous()).isEqualTo(one.stats().ambiguous());
        assertThat(s.outcome().matching().exchanges()).isEqualTo(one.stats().exchanges());
        assertThat(s.outcome().decodeTasks()).isEqualTo(3);
        assertThat(s.outcome().synchronization().accumulators().pair(0, 1).countAToB()).isEqualTo(2846);
    }

    @Test
    void capturesCutIntoManyPartsGiveTheSameResult() throws IOException {
        List<Path> files = SharedCaptures.threeHosts();
        OneMachine one = oneMachine(files);
        Spark s = spark(files, 64 << 10);
        assertThat(s.outcome().decodeTasks()).isGreaterThan(80);
        assertThat(s.outcome().filesReadWhole()).isZero();
        assertThat(s.result()).isEqualTo(one.result());
    }

    /** CaptureLargeSet: 1% of segments lost, 0.5% retransmitted, clocks 100 ms and tens of ppm apart. */
    @Test
    void simulatedLossesAndRetransmissionsGiveTheSameResult() throws IOException {
        Path dir = tmp.resolve("large");
        CaptureLargeSet.main(new String[] {dir.toString(), "60000"});
        List<Path> files = List.of(dir.resolve("n1.pcap"), dir.resolve("n2.pcap"), dir.resolve("n3.pcap"));
        OneMachine one = oneMachine(files);
        // receptions are written up to 5 ms late: a quarter of the timestamps go backwards, also across
        // the joins of the 256 KiB ranges, where the merge order needs the carry of the earlier ranges
        assertThat(one.stats().backwardTimestamps()).isGreaterThan(10_000);
        Spark s = spark(files, 256 << 10);
        assertThat(s.outcome().decodeTasks()).isGreaterThan(30);
        assertThat(s.outcome().filesReadWhole()).isZero();
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().warnings()).contains(one.stats().backwardTimestamps()
                + " packets whose timestamp goes backwards within their capture");
        MatchStats m = s.outcome().matching();
        assertThat(m.messages()).isEqualTo(one.stats().messages()).isBetween(50_000L, 60_000L);
        assertThat(m.ambiguous()).isEqualTo(one.stats().ambiguous()).isPositive();
        assertThat(m.unmatched()).isEqualTo(one.stats().evictedUnmatched() + one.stats().unmatchedAtEnd()).isPositive();
    }

    /** {@code --estimator regression}: the messages go to the driver too, in the one-machine order of each pair. */
    @Test
    void regressionGivesTheOneMachineResult() throws IOException {
        List<Path> files = SharedCaptures.threeHosts();
        Synchronizer.Options regression = new Synchronizer.Options(Synchronizer.Estimator.REGRESSION, 0.95, null,
                GlobalReduction.reducer(GlobalReduction.Mode.WHERE_REDUNDANT, 0.0));
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, InputOptions.defaults());
        Path oneOut = tmp.resolve("one-regression.json");
        ResultFile.write(Synchronizer.synchronize(in, regression).result(), oneOut);
        SparkCaptureSync.Outcome o = SparkCaptureSync.run(sc, files.stream().map(Path::toString).toList(),
                new SparkCaptureSync.Options(InputOptions.defaults(), (nodes, rtt) -> regression, 256 << 10, 3, true));
        Path sparkOut = tmp.resolve("spark-regression.json");
        ResultFile.write(o.synchronization().result(), sparkOut);
        String one = Files.readString(oneOut);
        assertThat(one).contains("regression on ");
        assertThat(Files.readString(sparkOut)).isEqualTo(one);
    }

    /** Microsecond captures: both widen every message by the two captures' resolution (1 µs each side). */
    @Test
    void microsecondCapturesGiveTheOneMachineResult() throws IOException {
        List<Path> files = new java.util.ArrayList<>();
        for (Path f : SharedCaptures.threeHosts()) {
            files.add(toMicroseconds(f, tmp.resolve(f.getFileName())));
        }
        OneMachine one = oneMachine(files);
        Spark s = spark(files, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isGreaterThan(19_000);
    }

    /** A copy of a little-endian nanosecond pcap with microsecond timestamps (fractions truncated). */
    private static Path toMicroseconds(Path ns, Path out) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(Files.readAllBytes(ns)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(0)).isEqualTo(0xa1b23c4d);
        b.putInt(0, 0xa1b2c3d4);
        for (int at = 24; at + 16 <= b.limit(); at += 16 + b.getInt(at + 8)) {
            b.putInt(at + 4, b.getInt(at + 4) / 1000);
        }
        Files.write(out, b.array());
        return out;
    }

    @Test
    void corruptCaptureIsReportedWithFileAndOffsetAsTheOneMachineReader() throws IOException {
        List<Path> shared = SharedCaptures.threeHosts();
        Path dir = Files.createDirectories(tmp.resolve("corrupt"));
        List<Path> files = List.of(dir.resolve("h1.pcap"), dir.resolve("h2.pcap"), dir.resolve("h3.pcap"));
        for (int i = 0; i < 3; i++) {
            Files.copy(shared.get(i), files.get(i));
        }
        long at = recordOffsetNear(files.get(1), 1_500_000);
        try (FileChannel ch = FileChannel.open(files.get(1), StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f}), at + 8);
        }
        String expected = "h2.pcap:offset " + at + ": implausible captured length 2147483647 (corrupt record header?)";
        assertThatThrownBy(() -> oneMachine(files)).isInstanceOf(TraceFormatException.class).hasMessageEndingWith(expected);
        // met while the driver infers the hosts' addresses from the first packets
        assertThatThrownBy(() -> spark(files, 64 << 10)).isInstanceOf(IOException.class).hasMessageEndingWith(expected)
                .hasMessageStartingWith(files.get(1).toString());
        // met by a decoding task (addresses given: the driver reads no packet); its part started by
        // re-synchronization, so the capture is read again whole, which reports the error
        InputOptions given = InputOptions.defaults().withNodeAddresses(java.util.Map.of(
                "h1", List.of("10.200.1.1"), "h2", List.of("10.200.2.1"), "h3", List.of("10.200.3.1")));
        assertThatThrownBy(() -> spark(files, 64 << 10, given)).isInstanceOf(IOException.class)
                .hasMessage(files.get(1) + ":offset " + at + ": implausible captured length 2147483647 (corrupt record header?)");
        // and in one part from the start
        assertThatThrownBy(() -> spark(files, 1 << 30, given)).isInstanceOf(IOException.class)
                .hasMessage(files.get(1) + ":offset " + at + ": implausible captured length 2147483647 (corrupt record header?)");
    }

    private static long recordOffsetNear(Path file, long offset) throws IOException {
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                if (r.recordOffset() >= offset) {
                    return r.recordOffset();
                }
            }
        }
        throw new IllegalStateException("file shorter than " + offset);
    }
}
