package org.tracesync.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.cli.TracesyncCommand;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfTraceWriter;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.pcap.DecodedPacket;
import org.tracesync.formats.pcap.PacketDecoder;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.global.GlobalReduction;

/**
 * The Spark job on inputs that are not only captures — CTF traces, JSON-lines logs, broadcast
 * datagrams — against the one-machine synchronization: the result files must be byte for byte the
 * same, and the counts of messages and broadcast groups equal.
 */
class SparkTraceSyncTest {

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
        SparkCaptureSync.Outcome o = SparkCaptureSync.run(sc, files.stream().map(Path::toString).toList(),
                new SparkCaptureSync.Options(InputOptions.defaults(), (nodes, rtt) -> syncOptions(), splitSize, 3));
        Path out = tmp.resolve("spark.json");
        ResultFile.write(o.synchronization().result(), out);
        return new Spark(Files.readString(out), o);
    }

    /** {@code tracesync simulate} into {@code dir} (a 3-node mesh, 4 s). */
    private static Path simulate(Path dir, String... options) {
        List<String> args = new ArrayList<>(List.of("simulate", "-o", dir.toString(), "--nodes", "3", "--duration", "4s",
                "--seed", "11"));
        args.addAll(List.of(options));
        StringWriter err = new StringWriter();
        int exit = TracesyncCommand.newCommandLine().setErr(new PrintWriter(err)).setOut(new PrintWriter(new StringWriter()))
                .execute(args.toArray(String[]::new));
        assertThat(exit).as(err.toString()).isZero();
        return dir;
    }

    private static List<Path> filesEnding(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(dir, 2)) {
            return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
        }
    }

    @Test
    void jsonLinesGiveTheOneMachineResult() throws IOException {
        Path dir = simulate(tmp.resolve("sim"), "--format", "jsonl", "--acks");
        List<Path> files = filesEnding(dir, ".jsonl");
        assertThat(files).hasSize(3);
        OneMachine one = oneMachine(files);
        Spark s = spark(files, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isGreaterThan(1000);
        assertThat(s.outcome().matching().ambiguous()).isEqualTo(one.stats().ambiguous());
        assertThat(s.outcome().decodeTasks()).isEqualTo(3);
        // cut by lines into parts of 16 KiB: a line pass numbers the lines, then each part is decoded alone
        Spark cut = spark(files, 16 << 10);
        assertThat(cut.outcome().decodeTasks()).isGreaterThan(3 * 4);
        assertThat(cut.result()).isEqualTo(one.result());
        assertThat(cut.outcome().matching().messages()).isEqualTo(one.stats().messages());
        // as Hadoop file system URIs (file:), cut likewise: read through Hadoop, same result but the sources
        SparkCaptureSync.Outcome uris = SparkCaptureSync.run(sc, files.stream().map(f -> f.toUri().toString()).toList(),
                new SparkCaptureSync.Options(InputOptions.defaults(), (nodes, rtt) -> syncOptions(), 16 << 10, 3));
        Path out = tmp.resolve("uris.json");
        ResultFile.write(uris.synchronization().result(), out);
        String viaUris = Files.readString(out);
        for (Path f : files) {
            viaUris = viaUris.replace(f.toUri().toString().replaceFirst("^file:///", "file:/"), f.toString());
        }
        assertThat(viaUris).isEqualTo(one.result());
    }

    @Test
    void sharedCtfTracesGiveTheOneMachineResult() throws IOException {
        List<Path> traces = SharedCaptures.scpTraces();
        OneMachine one = oneMachine(traces);
        Spark s = spark(traces, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isEqualTo(46);
    }

    /** A stream file cut short: the stream reader's warning reaches the summary, as in sync's. */
    @Test
    void aTruncatedStreamFileIsReportedAsByTheOneMachineReader() throws IOException {
        List<Path> traces = new ArrayList<>();
        for (Path t : SharedCaptures.scpTraces()) {
            Path copy = Files.createDirectories(tmp.resolve(t.getFileName()));
            try (Stream<Path> files = Files.list(t)) {
                for (Path f : files.toList()) {
                    Files.copy(f, copy.resolve(f.getFileName()));
                }
            }
            traces.add(copy);
        }
        Path stream = traces.get(1).resolve("channel0_0");
        byte[] bytes = Files.readAllBytes(stream);
        Files.write(stream, java.util.Arrays.copyOf(bytes, bytes.length - 1000));
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(traces, InputOptions.defaults());
        in.readMessages((a, b, c, d) -> { });
        List<String> truncated = in.warnings().stream().filter(w -> w.contains("truncated packet")).toList();
        assertThat(truncated).isNotEmpty();
        Spark s = spark(traces, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.outcome().warnings()).containsAll(truncated);
        assertThat(s.result()).isEqualTo(oneMachine(traces).result());
    }

    @Test
    void simulatedCtfTracesWithAddressesGiveTheOneMachineResult() throws IOException {
        Path dir = simulate(tmp.resolve("sim"), "--format", "ctf");
        List<Path> traces;
        try (Stream<Path> s = Files.list(dir)) {
            traces = s.filter(Files::isDirectory).sorted().toList();
        }
        assertThat(traces).hasSize(3);
        OneMachine one = oneMachine(traces);
        Spark s = spark(traces, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isGreaterThan(1000);
    }

    /**
     * The three-hosts captures' first 4 s written as CTF traces of three per-CPU streams each (packets dealt
     * round-robin): one task per stream file, and the shuffle's sort must recreate the one-machine
     * merge of the streams by time.
     */
    @Test
    void ctfTracesOfSeveralStreamsGiveTheOneMachineResult() throws IOException {
        List<Path> captures = SharedCaptures.threeHosts();
        List<Path> traces = new ArrayList<>();
        for (int i = 0; i < captures.size(); i++) {
            traces.add(ctfOf(captures.get(i), tmp.resolve("ctf").resolve("h" + (i + 1)), i));
        }
        OneMachine one = oneMachine(traces);
        Spark s = spark(traces, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.outcome().decodeTasks()).isEqualTo(9);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isGreaterThan(2_000);
    }

    /**
     * CTF traces with a 1 MHz clock: the job widens their messages by the clock period as sync does
     * (EventTrace.timestampResolution), so the result is the same.
     */
    @Test
    void microsecondCtfTracesAreWidenedAsByTheOneMachineReader() throws IOException {
        List<Path> captures = SharedCaptures.threeHosts();
        List<Path> traces = new ArrayList<>();
        for (int i = 0; i < captures.size(); i++) {
            traces.add(ctfOf(captures.get(i), tmp.resolve("us").resolve("h" + (i + 1)), i, 1_000_000L));
        }
        OneMachine one = oneMachine(traces);
        Spark s = spark(traces, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isGreaterThan(2_000);
    }

    /** Two captures and a CTF trace in one set: one address table, so both views of a segment give one key. */
    @Test
    void capturesAndACtfTraceMixAsInTracesyncSync() throws IOException {
        List<Path> captures = SharedCaptures.threeHosts();
        List<Path> mixed = List.of(captures.get(0), captures.get(1), ctfOf(captures.get(2), tmp.resolve("h3"), 2));
        OneMachine one = oneMachine(mixed);
        Spark s = spark(mixed, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().messages()).isEqualTo(one.stats().messages()).isGreaterThan(2_000);
    }

    /**
     * The first 4 s of three-hosts capture {@code i} as an LTTng-style CTF trace of three per-CPU
     * streams (packets dealt round-robin; a packet that would step a stream back is left out).
     */
    private static Path ctfOf(Path capture, Path dir, int i) throws IOException {
        return ctfOf(capture, dir, i, 1_000_000_000L);
    }

    /** The same, with a clock of {@code freq} Hz (a divisor of 1 GHz: timestamps truncated to its period). */
    private static Path ctfOf(Path capture, Path dir, int i, long freq) throws IOException {
        try (CaptureReader r = CaptureReader.open(capture)) {
            r.next();
            long t0 = r.timestamp();
            long[] last = {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};
            DecodedPacket d = new DecodedPacket();
            long period = 1_000_000_000L / freq;
            try (CtfTraceWriter w = new CtfTraceWriter(dir, "h" + (i + 1),
                    Math.floorDiv(t0 - 1_000_000_000L, period) * period, CtfTraceWriter.DEFAULT_PACKET_SIZE, freq)) {
                w.networkInterface(0, t0, "eth0", new byte[] {10, (byte) 200, (byte) (i + 1), 1});
                long k = 0;
                do {
                    if (PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), d)
                            == DecodedPacket.OTHER) {
                        continue;
                    }
                    int cpu = (int) (k++ % 3);
                    if (r.timestamp() < last[cpu]) {
                        continue;
                    }
                    last[cpu] = r.timestamp();
                    boolean send = d.srcHi == 0 && d.srcLo == (0xffff_0000_0000L | 0x0ac80001L | (i + 1L) << 8);
                    w.networkPacket(cpu, r.timestamp(), send, "eth0", 0xffff8880_0000_0000L + k,
                            java.util.Arrays.copyOfRange(r.data(), d.ipOffset, r.dataOffset() + r.capturedLength()));
                } while (r.next() && r.timestamp() < t0 + 4_000_000_000L);
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.filter(f -> f.getFileName().toString().startsWith("channel0_"))).hasSize(3);
        }
        return dir;
    }

    @Test
    void broadcastDatagramsAreGroupedAsTheOneMachineMatcherGroupsThem() throws IOException {
        Path dir = simulate(tmp.resolve("sim"), "--format", "pcap", "--broadcast", "20");
        List<Path> files = filesEnding(dir, ".pcapng");
        OneMachine one = oneMachine(files);
        assertThat(one.stats().broadcastGroups()).isGreaterThan(50);
        Spark s = spark(files, 64 << 10);
        assertThat(s.result()).isEqualTo(one.result());
        assertThat(s.outcome().matching().broadcastGroups()).isEqualTo(one.stats().broadcastGroups());
        assertThat(s.outcome().warnings()).contains("broadcast: " + one.stats().broadcastDatagrams() + " datagrams, "
                + one.stats().broadcastGroups() + " groups seen by several hosts, "
                + s.outcome().matching().broadcastAmbiguous() + " ambiguous");
    }

    /** Clocks hours apart: both find the same coarse offsets from the first events and match in corrected time. */
    @Test
    void clocksHoursApartAreMatchedInCoarselyCorrectedTimeAsByTheOneMachineReader() throws IOException {
        Path dir = simulate(tmp.resolve("sim"), "--format", "jsonl,pcap", "--max-offset", "3h", "--broadcast", "5");
        for (String kind : List.of(".jsonl", ".pcapng")) {
            List<Path> files = filesEnding(dir, kind);
            MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, InputOptions.defaults());
            OneMachine one = oneMachine(files);
            in.readMessages((a, b, c, d) -> { });
            String note = in.warnings().stream().filter(w -> w.startsWith("clocks up to")).findFirst().orElseThrow();
            Spark s = spark(files, 64 << 10);
            assertThat(s.outcome().warnings()).as(kind).contains(note);
            assertThat(s.result()).as(kind).isEqualTo(one.result());
            assertThat(s.outcome().matching().messages()).as(kind).isEqualTo(one.stats().messages()).isGreaterThan(1000);
            assertThat(s.outcome().matching().broadcastGroups()).as(kind).isEqualTo(one.stats().broadcastGroups());
        }
    }

    /**
     * Wandering clocks: the pair accumulators the tasks merge carry their time buckets, so the
     * driver's estimation goes piecewise exactly as sync's does (same pieces, knots and bounds).
     */
    @Test
    void wanderingClocksGiveTheOneMachinePiecewiseResult() throws IOException {
        Path dir = tmp.resolve("wander");
        StringWriter err = new StringWriter();
        int exit = TracesyncCommand.newCommandLine().setErr(new PrintWriter(err)).setOut(new PrintWriter(new StringWriter()))
                .execute("simulate", "-o", dir.toString(), "--nodes", "3", "--duration", "40m", "--rate", "5",
                        "--walk", "0.05", "--ntp", "1", "--seed", "3", "--format", "jsonl");
        assertThat(exit).as(err.toString()).isZero();
        List<Path> files = filesEnding(dir, ".jsonl");
        OneMachine one = oneMachine(files);
        assertThat(one.result()).contains("\"piecewise\"");
        Spark s = spark(files, 64 << 10);
        assertThat(s.result()).isEqualTo(one.result());
    }

    @Test
    void aBadJsonLineIsReportedWithFileAndLineAsTheOneMachineReader() throws IOException {
        Path dir = simulate(tmp.resolve("sim"), "--format", "jsonl");
        List<Path> files = filesEnding(dir, ".jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(files.get(1)));
        lines.set(200, lines.get(200).replace("\"t\":", "\"t\":-"));
        Files.write(files.get(1), lines);
        String expected = files.get(1) + ":line 201: \"t\" = -";
        assertThatThrownBy(() -> oneMachine(files)).isInstanceOf(TraceFormatException.class).hasMessageStartingWith(expected);
        String message = catchMessage(() -> oneMachine(files));
        // met by the decoding task of a whole log, and by the line pass of a log cut into parts
        assertThatThrownBy(() -> spark(files, SparkCaptureSync.Options.DEFAULT_SPLIT_SIZE)).isInstanceOf(IOException.class)
                .hasMessage(message);
        assertThatThrownBy(() -> spark(files, 4096)).isInstanceOf(IOException.class).hasMessage(message);
    }

    private static String catchMessage(org.assertj.core.api.ThrowableAssert.ThrowingCallable c) {
        try {
            c.call();
        } catch (Throwable t) {
            return t.getMessage();
        }
        throw new AssertionError("no error");
    }
}
