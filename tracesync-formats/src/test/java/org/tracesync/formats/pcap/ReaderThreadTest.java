package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.formats.TraceFormatException;

/**
 * Reading the captures on a second thread ({@link InputOptions#readerThread()}) changes nothing
 * but the speed: the same sink calls in the same order, the same counts, warnings and round trips
 * as the single-threaded pass, and errors surface the same way.
 */
class ReaderThreadTest {

    @TempDir
    Path dir;

    /** Everything a pass produces, in order: each sink call, then stats, warnings, round trips. */
    private static List<String> pass(List<Path> files, boolean readerThread) throws IOException {
        InputOptions opts = InputOptions.defaults().withReaderThread(readerThread);
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, opts);
        Thread caller = Thread.currentThread();
        List<String> out = new ArrayList<>();
        in.read((s, r, ts, tr) -> {
            assertThat(Thread.currentThread()).isSameAs(caller);
            out.add("message " + s + " " + r + " " + ts + " " + tr);
        }, (s, st, rs, rts) -> {
            assertThat(Thread.currentThread()).isSameAs(caller);
            out.add("broadcast " + s + " " + st + " " + Arrays.toString(rs) + " " + Arrays.toString(rts));
        });
        out.add("stats " + in.stats());
        out.add("warnings " + in.warnings());
        RoundTripMinima rt = in.roundTrips();
        for (int a = 0; a < files.size(); a++) {
            for (int b = a + 1; b < files.size(); b++) {
                out.add("round trip " + a + " " + b + " " + rt.exchanges(a, b) + " " + rt.minimum(a, b));
            }
        }
        return out;
    }

    @Test
    void sameResultsOnTheThreeHostsCaptures() throws IOException {
        Path d = SharedCaptures.threeHosts();
        List<Path> files = List.of(d.resolve("h1.pcap"), d.resolve("h2.pcap"), d.resolve("h3.pcap"));
        List<String> one = pass(files, false);
        List<String> two = pass(files, true);
        assertThat(two).isEqualTo(one);
        assertThat(one.stream().filter(l -> l.startsWith("message ")).count()).isEqualTo(19_401);
    }

    @Test
    void sameResultsOnASimulatedSetWithRetransmissionsAndBroadcasts() throws IOException {
        List<Path> files = simulatedSet(dir, 30_000, 11);
        List<String> one = pass(files, false);
        List<String> two = pass(files, true);
        assertThat(two).isEqualTo(one);
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, InputOptions.defaults().withReaderThread(true));
        in.read((s, r, ts, tr) -> { }, null);
        MergedTraceInput.ReadStats st = in.stats();
        // the set exercises what could differ: many blocks, every matcher rule, both sinks
        assertThat(st.events()).isGreaterThan(10L * EventBlock.DEFAULT_CAPACITY);
        assertThat(st.messages()).isGreaterThan(20_000);
        assertThat(st.ambiguous()).isGreaterThan(100);
        assertThat(st.duplicateEvents()).isGreaterThan(100);
        assertThat(st.evictedUnmatched() + st.unmatchedAtEnd()).isGreaterThan(100);
        assertThat(st.exchanges()).isGreaterThan(1_000);
        assertThat(st.broadcastGroups()).isGreaterThan(100);
    }

    @Test
    void aTruncatedCaptureFailsTheSameWayOnBothPaths() throws IOException {
        List<Path> files = simulatedSet(dir, 30_000, 12);
        byte[] bytes = Files.readAllBytes(files.get(1));
        Files.write(files.get(1), Arrays.copyOf(bytes, bytes.length * 2 / 3 + 5));
        // addresses given: the address inference would read into the damage before the pass does;
        // a 50 ms window (the set spans 0.6 s) decides keys, hence emits messages, before the end
        InputOptions opts = InputOptions.defaults().withCoarseOffsets(false).withWindow(50_000_000L).withNodeAddresses(Map.of(
                "n1", List.of("10.9.0.1"), "n2", List.of("10.9.0.2"), "n3", List.of("10.9.0.3")));
        List<String> outcomes = new ArrayList<>();
        for (boolean thread : new boolean[] {false, true}) {
            MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, opts.withReaderThread(thread));
            long[] seen = new long[1];
            assertThatThrownBy(() -> in.read((s, r, ts, tr) -> seen[0]++, null))
                    .isInstanceOf(TraceFormatException.class)
                    .hasMessageContaining(files.get(1).toString())
                    .hasMessageContaining("truncated")
                    .satisfies(e -> outcomes.add(e.getMessage() + " after " + seen[0] + " messages"));
        }
        assertThat(outcomes.get(1)).isEqualTo(outcomes.get(0));
        assertThat(outcomes.get(0)).doesNotContain("after 0 messages"); // blocks before the damage were matched
        assertThat(readerThreads()).isZero();
    }

    @Test
    void aFailingSinkStopsTheReadingThread() throws IOException {
        List<Path> files = simulatedSet(dir, 30_000, 13);
        MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, InputOptions.defaults().withReaderThread(true));
        long[] seen = new long[1];
        assertThatThrownBy(() -> in.read((s, r, ts, tr) -> {
            if (++seen[0] == 1_000) {
                throw new IllegalStateException("sink full");
            }
        }, null)).isInstanceOf(IllegalStateException.class).hasMessage("sink full");
        assertThat(readerThreads()).isZero();
    }

    private static long readerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("tracesync-trace-reader") && t.isAlive()).count();
    }

    private record Pending(long time, int from, int to, long seq, long ack, int flags, int len) {
    }

    /**
     * Three hosts (10.9.0.1..3), one TCP connection per pair carrying data and acknowledgements
     * both ways (so exchanges exist), 2% of segments lost, 2% retransmitted (whole or half of the
     * previous segment: keys seen twice, and new keys inside old sequence space), 1% captured twice
     * by the receiver, and a broadcast to 10.9.0.255 every 50 segments, seen by every host. Clock
     * offsets of a few ms and drifts of tens of ppm.
     */
    static List<Path> simulatedSet(Path dir, int segments, long seed) throws IOException {
        int hosts = 3;
        long t0 = 1_700_000_000_000_000_000L;
        long[] offset = {0, 3_456_789L, -2_654_321L};
        double[] drift = {0, 37e-6, -21e-6};
        byte[][] addr = {{10, 9, 0, 1}, {10, 9, 0, 2}, {10, 9, 0, 3}};
        byte[] broadcast = {10, 9, 0, (byte) 255};
        SplittableRandom r = new SplittableRandom(seed);
        List<Path> files = new ArrayList<>();
        PcapWriter[] w = new PcapWriter[hosts];
        @SuppressWarnings("unchecked")
        PriorityQueue<Pending>[] pending = new PriorityQueue[hosts];
        for (int h = 0; h < hosts; h++) {
            files.add(dir.resolve("n" + (h + 1) + ".pcap"));
            w[h] = new PcapWriter(files.get(h), LinkTypes.ETHERNET, true, false, 128);
            pending[h] = new PriorityQueue<>((x, y) -> Long.compare(x.time(), y.time()));
        }
        long[][] next = new long[hosts][hosts];
        long[][] lastSeq = new long[hosts][hosts];
        int[][] lastLen = new int[hosts][hosts];
        for (int a = 0; a < hosts; a++) {
            for (int b = 0; b < hosts; b++) {
                next[a][b] = r.nextLong() & 0xffffffffL;
            }
        }
        PacketBuilder pb = new PacketBuilder().link(LinkTypes.ETHERNET, 0).snapLength(128);
        byte[] buf = new byte[2048];
        long t = t0;
        for (int i = 0; i < segments; i++) {
            t += 1 + (long) (-Math.log(1 - r.nextDouble()) * 20_000);
            int a = r.nextInt(hosts);
            int b = (a + 1 + r.nextInt(hosts - 1)) % hosts;
            if (i % 50 == 0) {
                pb.addresses(addr[a], broadcast).udp(9999, 9999, 32, (byte) i).ipId(i & 0xffff);
                int cap = pb.build(buf);
                w[a].write(local(t, t0, offset[a], drift[a]), buf, 0, cap, pb.length());
                for (int h = 0; h < hosts; h++) {
                    if (h != a) {
                        long at = local(t + 30_000 + r.nextInt(20_000), t0, offset[h], drift[h]);
                        pending[h].add(new Pending(at, -1 - a, i, 0, 0, 0, 0)); // a broadcast: from = -1 - sender
                    }
                }
            }
            int len = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(1400);
            long s = next[a][b];
            int roll = r.nextInt(100);
            if (roll < 2 && lastLen[a][b] > 1) {
                s = lastSeq[a][b]; // retransmission of the previous segment, whole or its second half
                len = lastLen[a][b];
                if (roll == 1) {
                    s = (s + len / 2) & 0xffffffffL;
                    len -= len / 2;
                }
            } else {
                next[a][b] = (s + len) & 0xffffffffL;
                if (len > 0) {
                    lastSeq[a][b] = s;
                    lastLen[a][b] = len;
                }
            }
            long ack = next[b][a];
            int flags = len > 0 ? 0x18 : 0x10;
            tcp(w[a], pb, buf, addr, local(t, t0, offset[a], drift[a]), a, b, s, ack, flags, len);
            int fate = r.nextInt(100);
            if (fate >= 2) {
                long at = local(t + 40_000 + (long) (-Math.log(1 - r.nextDouble()) * 30_000), t0, offset[b], drift[b]);
                pending[b].add(new Pending(at, a, b, s, ack, flags, len));
                if (fate == 2) {
                    pending[b].add(new Pending(at + 1_000, a, b, s, ack, flags, len));
                }
            }
            for (int h = 0; h < hosts; h++) {
                flush(w[h], pending[h], pb, buf, addr, broadcast, local(t, t0, offset[h], drift[h]) - 5_000_000);
            }
        }
        for (int h = 0; h < hosts; h++) {
            flush(w[h], pending[h], pb, buf, addr, broadcast, Long.MAX_VALUE);
            w[h].close();
        }
        return files;
    }

    private static void flush(PcapWriter w, PriorityQueue<Pending> q, PacketBuilder pb, byte[] buf, byte[][] addr,
                              byte[] broadcast, long upTo) throws IOException {
        while (!q.isEmpty() && q.peek().time() <= upTo) {
            Pending p = q.poll();
            if (p.from() < 0) {
                int i = p.to(); // a broadcast: "to" holds its number
                pb.addresses(addr[-1 - p.from()], broadcast).udp(9999, 9999, 32, (byte) i).ipId(i & 0xffff);
                int cap = pb.build(buf);
                w.write(p.time(), buf, 0, cap, pb.length());
            } else {
                tcp(w, pb, buf, addr, p.time(), p.from(), p.to(), p.seq(), p.ack(), p.flags(), p.len());
            }
        }
    }

    private static void tcp(PcapWriter w, PacketBuilder pb, byte[] buf, byte[][] addr, long time, int a, int b,
                            long s, long ack, int flags, int len) throws IOException {
        // one connection per pair: the lower host's port 40000 + peer, the higher one's 5000 + peer
        int pa = a < b ? 40_000 + b : 5_000 + b;
        int pbPort = b < a ? 40_000 + a : 5_000 + a;
        pb.addresses(addr[a], addr[b]).tcp(pa, pbPort, s, ack, flags, len).ipId(0);
        int cap = pb.build(buf);
        w.write(time, buf, 0, cap, pb.length());
    }

    private static long local(long t, long t0, long offset, double drift) {
        return t + offset + Math.round(drift * (double) (t - t0));
    }
}
