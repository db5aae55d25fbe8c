package org.tracesync.formats.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.MessageInput;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.SharedData;
import org.tracesync.formats.ctf.CaptureToCtf;
import org.tracesync.formats.pcap.CaptureRewriter;

/**
 * The one matching pipeline ({@link TraceInputs} → {@link MergedTraceInput}) on every format:
 * captures, CTF, JSON lines, mixed; clocks minutes or hours apart; bounded memory; refusals.
 */
class MatchingPipelineTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long HOUR = 3600 * SECOND;

    @TempDir
    Path tmp;

    /** One matched message as a string: sender, receiver, local send and receive times. */
    private static List<String> messages(MessageInput in) throws IOException {
        List<String> out = new ArrayList<>();
        in.readMessages((s, r, ts, tr) -> out.add(in.nodes().get(s).name() + " " + in.nodes().get(r).name() + " "
                + ts + " " + tr));
        out.sort(null);
        return out;
    }

    /** The same messages with each node's skew taken off its times. */
    private static List<String> unskewed(List<String> messages, Map<String, Long> skew) {
        List<String> out = new ArrayList<>();
        for (String m : messages) {
            String[] f = m.split(" ");
            out.add(f[0] + " " + f[1] + " " + (Long.parseLong(f[2]) - skew.get(f[0])) + " "
                    + (Long.parseLong(f[3]) - skew.get(f[1])));
        }
        out.sort(null);
        return out;
    }

    private static List<Path> threeHosts() {
        Path d = SharedData.file("pcap/three-hosts");
        return List.of(d.resolve("h1.pcap"), d.resolve("h2.pcap"), d.resolve("h3.pcap"));
    }

    private List<Path> skewed(Path dir, Map<String, Long> skew) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        for (Path p : threeHosts()) {
            String name = p.getFileName().toString();
            long s = skew.get(name.substring(0, 2));
            Path o = dir.resolve(name);
            CaptureRewriter.rewrite(p, o, t -> t + s);
            out.add(o);
        }
        return out;
    }

    /**
     * Clocks minutes or hours apart (far beyond the 60 s window) synchronize with no option: the
     * same segments as the unskewed captures, at their skewed times; the offsets found are the
     * skews (plus the captures' own sub-second offsets).
     */
    @ParameterizedTest
    @ValueSource(longs = {5 * 60, 3 * 3600, -7 * 3600})
    void capturesSkewedByMinutesOrHoursMatchAsUnskewed(long seconds) throws IOException {
        Map<String, Long> skew = Map.of("h1", 0L, "h2", seconds * SECOND, "h3", -seconds * SECOND / 3);
        MergedTraceInput plain = (MergedTraceInput) TraceInputs.open(threeHosts());
        List<String> expected = messages(plain);
        assertThat(expected).hasSizeGreaterThan(19_000);
        assertThat(plain.coarseOffsets()).containsOnly(0L); // nothing shifted when clocks are close

        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(skewed(tmp.resolve("skewed"), skew));
        List<String> found = messages(in);
        assertThat(unskewed(found, skew)).isEqualTo(expected);
        long[] off = in.coarseOffsets();
        assertThat(off[1] - off[0]).isCloseTo(skew.get("h2"), org.assertj.core.data.Offset.offset(2 * SECOND));
        assertThat(off[2] - off[0]).isCloseTo(skew.get("h3"), org.assertj.core.data.Offset.offset(2 * SECOND));
        assertThat(in.warnings()).anyMatch(w -> w.startsWith("clocks up to ") && w.contains("coarsely corrected"));
        assertThat(in.stats().exchanges()).isPositive();
    }

    /** Without the coarse offsets the cause is named, with the option that helps. */
    @Test
    void withoutTheCoarseOffsetsTheWarningNamesTheCauseAndTheOption() throws IOException {
        Map<String, Long> skew = Map.of("h1", 0L, "h2", 2 * HOUR, "h3", 0L);
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(skewed(tmp.resolve("s"), skew),
                InputOptions.defaults().withCoarseOffsets(false));
        List<String> found = messages(in);
        assertThat(found).noneMatch(m -> m.contains("h2"));
        assertThat(in.warnings()).anyMatch(w -> w.startsWith("h2: no message matched while ")
                && w.contains("farther apart than the window") && w.contains("--match-window"));
    }

    /** Kernel traces (CTF, lttng-modules >= 2.9 layout) hours apart, converted from the captures. */
    @Test
    void ctfTracesHoursApartMatchAsUnskewed() throws IOException {
        Map<String, Long> skew = Map.of("h1", 0L, "h2", -5 * HOUR, "h3", 2 * HOUR);
        List<Path> plainCtf = toCtf(threeHosts(), tmp.resolve("ctf-plain"));
        List<Path> skewedCtf = toCtf(skewed(tmp.resolve("pcap-skewed"), skew), tmp.resolve("ctf-skewed"));
        List<String> expected = messages(TraceInputs.open(plainCtf));
        assertThat(expected).hasSizeGreaterThan(19_000);
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(skewedCtf);
        assertThat(unskewed(messages(in), skew)).isEqualTo(expected);
        // kernel-trace segments are tracked as TCP flows: retransmissions dropped, exchanges found
        assertThat(in.stats().exchanges()).isPositive();
        assertThat(in.stats().ambiguous()).isPositive();
    }

    /**
     * Flat memory on kernel traces: with a 3 s window over the 20 s of the three-hosts traces
     * converted to CTF, the matcher holds a fraction of the keys at once and finds the same
     * messages as on the captures with that window.
     */
    @Test
    void kernelTracesAreMatchedInABoundedWindow() throws IOException {
        InputOptions opts = InputOptions.defaults().withWindow(3 * SECOND);
        List<Path> ctf = toCtf(threeHosts(), tmp.resolve("ctf"));
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(ctf, opts);
        List<String> found = messages(in);
        assertThat(found).isEqualTo(messages(TraceInputs.open(threeHosts(), opts)));
        assertThat(in.stats().peakKeys()).isPositive().isLessThan((int) (in.stats().keyEvents() / 4));
    }

    /** A capture, a kernel trace and another capture in one set: keys match across formats. */
    @Test
    void mixedFormatsMatchAcrossEachOther() throws IOException {
        List<Path> caps = threeHosts();
        List<Path> ctf = toCtf(caps, tmp.resolve("ctf"));
        List<String> expected = messages(TraceInputs.open(caps));
        List<String> mixed = messages(TraceInputs.open(List.of(caps.get(0), ctf.get(1), caps.get(2))));
        assertThat(mixed).isEqualTo(expected);
    }

    private static List<Path> toCtf(List<Path> captures, Path out) throws IOException {
        MessageInput in = TraceInputs.open(captures);
        List<Path> traces = new ArrayList<>();
        for (CaptureToCtf.Outcome o : CaptureToCtf.convertAll(captures, in.nodes(), out)) {
            traces.add(o.trace());
        }
        return traces;
    }

    /** The shared scp kernel traces (add-on events, no addresses) through the pipeline. */
    @Test
    void scpKernelTracesGiveFortySixMessages() throws IOException {
        Path ctf = SharedData.file("ctf");
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(List.of(ctf.resolve("scp_src"), ctf.resolve("scp_dest")));
        List<String> found = messages(in);
        assertThat(found).hasSize(46);
        assertThat(found.stream().filter(m -> m.startsWith("VM1 VM3")).count()).isEqualTo(24);
        assertThat(found.stream().filter(m -> m.startsWith("VM3 VM1")).count()).isEqualTo(22);
        assertThat(in.coarseOffsets()).containsOnly(0L);
    }

    /** Writes one JSON-lines log per node: {@code events[node]} lines of (time, send, id). */
    private List<Path> jsonLines(String prefix, Map<String, List<long[]>> events, Map<Long, String> ids)
            throws IOException {
        List<Path> files = new ArrayList<>();
        for (Map.Entry<String, List<long[]>> e : events.entrySet()) {
            Path f = tmp.resolve(prefix + "-" + e.getKey() + ".jsonl");
            try (Writer w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
                for (long[] ev : e.getValue()) {
                    w.write("{\"node\":\"" + e.getKey() + "\",\"t\":" + ev[0] + ",\"dir\":\""
                            + (ev[1] == 1 ? "send" : "recv") + "\",\"msg\":\"" + ids.get(ev[2]) + "\"}\n");
                }
            }
            files.add(f);
        }
        return files;
    }

    /**
     * Application logs of three nodes whose clocks are hours apart, ids short (exact keys) and long
     * (hashed): every message is found, at its exact local times, and the window keeps memory flat.
     */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void jsonLinesHoursApartFindEveryMessage(long seed) throws IOException {
        SplittableRandom rnd = new SplittableRandom(seed);
        String[] names = {"a", "b", "c"};
        long[] offset = {0, (long) rnd.nextInt(1, 10) * HOUR + rnd.nextLong(SECOND), -rnd.nextLong(3 * HOUR)};
        long t0 = 1_700_000_000_000_000_000L;
        Map<String, List<long[]>> events = new java.util.LinkedHashMap<>();
        for (String n : names) {
            events.put(n, new ArrayList<>());
        }
        Map<Long, String> ids = new HashMap<>();
        List<String> expected = new ArrayList<>();
        int count = 40_000;
        for (long m = 0; m < count; m++) {
            long t = t0 + m * 10_000_000L; // 100 messages a second for 400 s
            int s = rnd.nextInt(3);
            int r = (s + 1 + rnd.nextInt(2)) % 3;
            long lat = rnd.nextLong(50_000, 2_000_000);
            ids.put(m, m % 2 == 0 ? "m" + m : "request-" + m + "-0f3c9a7e-5b1d-4a44-9d7e-" + seed);
            long ts = t + offset[s];
            long tr = t + lat + offset[r];
            events.get(names[s]).add(new long[] {ts, 1, m});
            events.get(names[r]).add(new long[] {tr, 0, m});
            expected.add(names[s] + " " + names[r] + " " + ts + " " + tr);
        }
        for (List<long[]> l : events.values()) {
            l.sort((x, y) -> Long.compare(x[0], y[0]));
        }
        expected.sort(null);
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(jsonLines("s" + seed, events, ids));
        assertThat(messages(in)).isEqualTo(expected);
        // 60 s of window at 100 messages/s: a few thousand keys held, not the 40,000 of the logs
        assertThat(in.stats().peakKeys()).isLessThan(8_000);
        assertThat(in.stats().evictedUnmatched() + in.stats().unmatchedAtEnd()).isZero();
    }

    /**
     * Millions of ids that never match: the key limit bounds what is held, says what was dropped,
     * and the messages whose ends lie close together are still found.
     */
    @Test
    void unmatchedIdsAreBoundedByTheKeyLimit() throws IOException {
        long t0 = 1_700_000_000_000_000_000L;
        Map<String, List<long[]>> events = new java.util.LinkedHashMap<>();
        events.put("a", new ArrayList<>());
        events.put("b", new ArrayList<>());
        Map<Long, String> ids = new HashMap<>();
        int noise = 300_000;
        int real = 0;
        for (long i = 0; i < noise; i++) {
            long t = t0 + i * 10_000L; // 3 s of logs: all within one window
            ids.put(i, "lonely-" + i);
            events.get("a").add(new long[] {t, 1, i});
            if (i % 100 == 0) {
                long m = noise + i;
                ids.put(m, "pair-" + i);
                events.get("a").add(new long[] {t + 1, 1, m});
                events.get("b").add(new long[] {t + 5_000, 0, m});
                real++;
            }
        }
        InputOptions opts = InputOptions.defaults().withMaxKeys(10_000);
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(jsonLines("noise", events, ids), opts);
        List<String> found = messages(in);
        assertThat(found).hasSize(real);
        assertThat(in.stats().peakKeys()).isLessThanOrEqualTo(10_000);
        assertThat(in.stats().limitUnmatched()).isGreaterThanOrEqualTo(noise - 10_000L);
        assertThat(in.warnings()).anyMatch(w -> w.contains("key limit 10000 reached")
                && w.contains("dropped unmatched") && w.contains("TRACESYNC_JAVA_OPTS=-Xmx"));
    }

    @Test
    void theSameTraceTwiceIsRefused() throws IOException {
        Path f = tmp.resolve("a.jsonl");
        Files.writeString(f, "{\"node\":\"a\",\"t\":1,\"dir\":\"send\",\"msg\":\"x\"}\n");
        Path link = tmp.resolve("link.jsonl");
        Files.createSymbolicLink(link, f);
        assertThatThrownBy(() -> TraceInputs.open(List.of(f, f)))
                .isInstanceOf(org.tracesync.formats.TraceSetException.class)
                .hasMessage("trace " + f + " is given twice: give each node's trace once");
        assertThatThrownBy(() -> TraceInputs.open(List.of(f, link)))
                .isInstanceOf(org.tracesync.formats.TraceSetException.class)
                .hasMessage("traces " + f + " and " + link + " are the same file: give each node's trace once");
        Path ctf = SharedData.file("ctf/scp_src");
        assertThatThrownBy(() -> TraceInputs.open(List.of(ctf, ctf.resolve("..").resolve("scp_src"))))
                .isInstanceOf(org.tracesync.formats.TraceSetException.class).hasMessageContaining("are the same file");
    }

    @Test
    void twoTracesOfOneNodeNameAreRefused() throws IOException {
        Path a = tmp.resolve("a.jsonl");
        Path b = tmp.resolve("b.jsonl");
        Files.writeString(a, "{\"node\":\"n\",\"t\":1,\"dir\":\"send\",\"msg\":\"x\"}\n");
        Files.writeString(b, "{\"node\":\"n\",\"t\":2,\"dir\":\"recv\",\"msg\":\"x\"}\n");
        assertThatThrownBy(() -> TraceInputs.open(List.of(a, b)))
                .isInstanceOf(org.tracesync.formats.TraceSetException.class)
                .hasMessage("traces " + a + " and " + b + " both have the node name 'n': give each node's trace once"
                        + " (captures can be renamed with --name)");
        // a copy of a kernel trace has its hostname
        Path src = SharedData.file("ctf/scp_src");
        Path copy = tmp.resolve("copy");
        try (var walk = Files.walk(src)) {
            for (Path p : walk.toList()) {
                Files.copy(p, copy.resolve(src.relativize(p).toString()));
            }
        }
        assertThatThrownBy(() -> TraceInputs.open(List.of(src, copy)))
                .isInstanceOf(org.tracesync.formats.TraceSetException.class).hasMessageContaining("both have the node name 'VM1'");
    }

    /**
     * A capture cut by another process while the pass reads it in place (its copy truncated to 4 KiB
     * from the message sink, at the first, 2,000th or 9,000th message of about 19,000, behind the reader's position in its mapped window): the pass ends in
     * one input error naming that file (on the reading thread too) and an offset and saying it was truncated during the read,
     * wherever the JVM raises the fault of the load (the reader's next record, the fast path's
     * header loads in the merge), never an InternalError.
     */
    @ParameterizedTest(name = "at message {0}, reader thread {1}")
    @org.junit.jupiter.params.provider.CsvSource({"1,false", "2000,false", "9000,false", "1,true", "9000,true"})
    void captureTruncatedDuringTheReadEndsInAnInputError(int atMessage, boolean readerThread) throws IOException {
        List<Path> copies = new ArrayList<>();
        for (Path p : threeHosts()) {
            Path c = tmp.resolve(p.getFileName());
            Files.copy(p, c);
            copies.add(c);
        }
        Path cut = copies.get(1);
        long size = Files.size(cut);
        // a window of 1 s: messages are decided while the pass reads, not at its end
        MessageInput in = TraceInputs.open(copies, InputOptions.defaults().withReaderThread(readerThread)
                .withWindow(SECOND));
        long[] seen = {0};
        assertThatThrownBy(() -> in.readMessages((s, r, ts, tr) -> {
            if (++seen[0] == atMessage) {
                try (java.nio.channels.FileChannel w = java.nio.channels.FileChannel.open(cut,
                        java.nio.file.StandardOpenOption.WRITE)) {
                    w.truncate(4096);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        })).isInstanceOf(org.tracesync.formats.TraceFormatException.class)
                .hasMessageStartingWith(cut + ":offset ")
                .hasMessageContaining("file truncated during the read: " + size + " bytes when opened, 4096 now");
        assertThat(seen[0]).isGreaterThanOrEqualTo(atMessage);
    }
}
