package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;

/**
 * Writes LTTng-2.9-style kernel traces with {@link CtfTraceWriter} and reads them back with our
 * reader and with babeltrace2 (event for event, including the nested TCP header fields).
 */
class CtfTraceWriterTest {

    @TempDir
    Path tmp;

    static final long T0 = 1_700_000_000_000_000_000L;

    record Sent(long timestamp, boolean send, TcpSegmentKey key) {
    }

    static byte[] ipv4(byte[] src, byte[] dst, int proto, byte[] transport, int payload) {
        ByteBuffer b = ByteBuffer.allocate(20 + transport.length + payload);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (20 + transport.length + payload)).putShort((short) 0x1234)
                .putShort((short) 0x4000).put((byte) 64).put((byte) proto).putShort((short) 0xBEEF).put(src).put(dst)
                .put(transport);
        return b.array();
    }

    static byte[] ipv6(byte[] src, byte[] dst, int proto, byte[] transport, int payload) {
        ByteBuffer b = ByteBuffer.allocate(40 + transport.length + payload);
        b.putInt(0x6000_0000 | 0x12345).putShort((short) (transport.length + payload)).put((byte) proto).put((byte) 64)
                .put(src).put(dst).put(transport);
        return b.array();
    }

    static byte[] tcp(int sp, int dp, long seq, long ack, int flags) {
        return ByteBuffer.allocate(20).putShort((short) sp).putShort((short) dp).putInt((int) seq).putInt((int) ack)
                .putShort((short) ((5 << 12) | flags)).putShort((short) 512).putShort((short) 0xCAFE).putShort((short) 0)
                .array();
    }

    static byte[] udp(int sp, int dp, int payload, int check) {
        return ByteBuffer.allocate(8).putShort((short) sp).putShort((short) dp).putShort((short) (8 + payload))
                .putShort((short) check).array();
    }

    /** Writes a two-CPU trace with TCP/UDP over IPv4/IPv6, ICMP and filler; returns what it wrote. */
    static List<Sent> writeTrace(Path dir, long seed, int packets) throws Exception {
        Random rnd = new Random(seed);
        byte[] a4 = {10, 0, 0, 1};
        byte[] b4 = {10, 0, 0, 2};
        byte[] a6 = new byte[16];
        byte[] b6 = new byte[16];
        a6[0] = (byte) 0xfd;
        b6[0] = (byte) 0xfd;
        a6[15] = 1;
        b6[15] = 2;
        List<Sent> sent = new ArrayList<>();
        try (CtfTraceWriter w = new CtfTraceWriter(dir, "hostA", T0, 4096)) {
            long t = T0 + 1_000_000_000L;
            w.networkInterface(0, t, "lo", new byte[] {127, 0, 0, 1});
            w.networkInterface(0, t, "eth0", a4);
            for (int i = 0; i < packets; i++) {
                // mostly small steps, sometimes more than 2^32 ns (extended event headers)
                t += rnd.nextInt(20) == 0 ? 5_000_000_000L + rnd.nextInt(1000) : 1 + rnd.nextInt(2_000_000);
                int cpu = rnd.nextInt(2);
                boolean send = rnd.nextBoolean();
                boolean v6 = rnd.nextInt(4) == 0;
                byte[] src = send ? (v6 ? a6 : a4) : (v6 ? b6 : b4);
                byte[] dst = send ? (v6 ? b6 : b4) : (v6 ? a6 : a4);
                int kind = rnd.nextInt(10);
                int payload = rnd.nextInt(1400);
                int sp = 1024 + rnd.nextInt(60000);
                int dp = 1024 + rnd.nextInt(60000);
                byte[] ip;
                TcpSegmentKey key = null;
                if (kind < 7) {
                    long seq = rnd.nextLong() & 0xFFFFFFFFL;
                    long ack = rnd.nextLong() & 0xFFFFFFFFL;
                    int flags = rnd.nextInt(0x200);
                    byte[] th = tcp(sp, dp, seq, ack, flags);
                    ip = v6 ? ipv6(src, dst, 6, th, payload) : ipv4(src, dst, 6, th, payload);
                    key = new TcpSegmentKey(src, dst, sp, dp, seq, ack, flags, payload);
                } else if (kind < 9) {
                    int check = rnd.nextInt(0x10000);
                    byte[] th = udp(sp, dp, payload, check);
                    ip = v6 ? ipv6(src, dst, 17, th, payload) : ipv4(src, dst, 17, th, payload);
                    key = new TcpSegmentKey(src, dst, sp, dp, v6 ? -1 : 0x1234, check, -1, payload);
                } else {
                    ip = ipv4(send ? a4 : b4, send ? b4 : a4, 1, new byte[8], payload);
                }
                w.networkPacket(cpu, t, send, "eth0", 0xffff8880_0000_0000L + i, ip);
                if (key != null) {
                    sent.add(new Sent(t, send, key));
                }
                w.schedSwitch(cpu, t, "swapper/" + cpu, 0, 120, 0, "worker-" + i, 1000 + i, 120);
            }
            w.networkPacket(1, t + 1, true, "eth0", 1, new byte[0]);
        }
        return sent;
    }

    @Test
    void theStatedumpEndsAfterItsInterfacesSoTheAddressScanStopsThere() throws Exception {
        Path dir = tmp.resolve("statedump");
        writeTrace(dir, 7, 2000);
        CtfTrace t = CtfTrace.open(dir);
        List<String> names = new ArrayList<>();
        t.read(e -> names.add(e.eventClass().name()));
        // as LTTng writes it: the interface events, then one lttng_statedump_end, then the rest
        assertThat(names.subList(0, 3)).containsExactly("lttng_statedump_network_interface",
                "lttng_statedump_network_interface", "lttng_statedump_end");
        assertThat(names).filteredOn("lttng_statedump_end"::equals).hasSize(1);
        assertThat(names).hasSize(4004); // 2,000 packets, their filler events, the statedump

        // the own-address scan reads three events of 4,004, not the whole trace
        CtfNetworkEvents net = CtfNetworkEvents.untilStatedumpEnd();
        int[] seen = {0};
        assertThatThrownBy(() -> t.read(e -> {
            seen[0]++;
            net.event(e);
        })).isSameAs(CtfNetworkEvents.StatedumpEnd.INSTANCE);
        assertThat(seen[0]).isEqualTo(3);
        assertThat(net.summary().addresses()).containsExactly("127.0.0.1", "10.0.0.1");
        assertThat(CtfTrace.open(dir).node().addresses()).containsExactly("127.0.0.1", "10.0.0.1");
    }

    @Test
    void interfacesOnSeveralCpusGetNoStatedumpEnd() throws Exception {
        // the merge order of equal timestamps across CPUs is the stream order: no end event could
        // be placed after every interface for sure, so none is written (the scan reads to the end)
        Path dir = tmp.resolve("two-cpus");
        try (CtfTraceWriter w = new CtfTraceWriter(dir, "h", T0, 4096)) {
            w.networkInterface(0, T0 + 10, "eth0", new byte[] {10, 0, 0, 1});
            w.networkInterface(1, T0 + 10, "eth1", new byte[] {10, 0, 1, 1});
            w.schedSwitch(0, T0 + 20, "a", 1, 120, 0, "b", 2, 120);
        }
        List<String> names = new ArrayList<>();
        CtfTrace.open(dir).read(e -> names.add(e.eventClass().name()));
        assertThat(names).containsExactly("lttng_statedump_network_interface", "lttng_statedump_network_interface",
                "sched_switch");
        assertThat(CtfTrace.open(dir).node().addresses()).containsExactly("10.0.0.1", "10.0.1.1");
    }

    @Test
    void ourReaderGetsBackTheKeysWritten() throws Exception {
        Path dir = tmp.resolve("trace");
        List<Sent> sent = writeTrace(dir, 42, 600);
        CtfTrace trace = CtfTrace.open(dir);
        List<NetEvent> got = new ArrayList<>();
        trace.stream(got::add);
        assertThat(trace.warnings()).isEmpty();
        assertThat(trace.node().name()).isEqualTo("hostA");
        assertThat(trace.node().addresses()).containsExactly("127.0.0.1", "10.0.0.1");
        assertThat(trace.streamFiles()).hasSize(2);
        assertThat(got).hasSize(sent.size());
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        for (NetEvent e : got) {
            a.add(e.timestamp() + " " + (e.direction() == Direction.SEND) + " " + e.key() + " " + e.key().hashCode());
        }
        for (Sent s : sent) {
            b.add(s.timestamp() + " " + s.send() + " " + s.key() + " " + s.key().hashCode());
        }
        a.sort(null);
        b.sort(null);
        assertThat(a).containsExactlyElementsOf(b);
        for (int i = 1; i < got.size(); i++) {
            assertThat(got.get(i).timestamp()).isGreaterThanOrEqualTo(got.get(i - 1).timestamp());
        }
    }

    @Test
    void anLttngSessionDirectoryOpensItsKernelTrace() throws Exception {
        Path session = tmp.resolve("session-host1");
        writeTrace(session.resolve("kernel"), 9, 20);
        assertThat(CtfTrace.isCtfTrace(session)).isTrue();
        assertThat(CtfTrace.isCtfTrace(tmp)).isFalse();
        CtfTrace t = CtfTrace.open(session);
        assertThat(t.directory()).isEqualTo(session.resolve("kernel"));
        assertThat(t.node().name()).isEqualTo("hostA");
        long[] n = {0};
        t.read(e -> n[0]++);
        assertThat(n[0]).isGreaterThan(20);
    }

    @Test
    void discardedEventsInPacketContextsAreReported() throws Exception {
        Path dir = tmp.resolve("trace");
        writeTrace(dir, 5, 300);
        Path stream = dir.resolve("channel0_0");
        byte[] b = java.nio.file.Files.readAllBytes(stream);
        assertThat(b.length).isGreaterThan(2 * 4096);
        // events_discarded (uint64 at byte 64 of the packet context) is a running count
        ByteBuffer bb = ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int p = 4096; p < b.length; p += 4096) {
            bb.putLong(p + 64, 17);
        }
        java.nio.file.Files.write(stream, b);
        CtfTrace t = CtfTrace.open(dir);
        t.read(e -> { });
        assertThat(t.warnings()).containsExactly(stream + ":offset 4096: the tracer discarded 17 events before this packet"
                + " (buffers full)");
        assertThat(t.lastReadStats().get(0).discarded()).isEqualTo(17);
        assertThat(t.lastReadStats().get(1).discarded()).isZero();
    }

    private static final Pattern TCP = Pattern.compile("source_port = (\\d+), dest_port = (\\d+), seq = (\\d+), "
            + "ack_seq = (\\d+), data_offset = (\\d+), reserved = \\d+, flags = (0x[0-9A-Fa-f]+|\\d+)");

    @Test
    void babeltraceReadsTheSameEventsAndHeaders() throws Exception {
        SharedCtfData.requireBabeltrace();
        Path dir = tmp.resolve("trace");
        List<Sent> sent = writeTrace(dir, 7, 400);
        CtfBabeltraceComparisonTest.assertSameAsBabeltrace(dir, tmp);

        List<String> bt = SharedCtfData.babeltrace(tmp, List.of("babeltrace2", "--clock-seconds", "--no-delta",
                dir.toString()));
        List<String> theirs = new ArrayList<>();
        for (String line : bt) {
            Matcher m = TCP.matcher(line);
            if (m.find()) {
                BabeltraceText t = BabeltraceText.parse(line, "hostA");
                String f = m.group(6);
                long flags = f.startsWith("0x") ? Long.parseLong(f.substring(2), 16) : Long.parseLong(f);
                theirs.add(t.timestamp() + " " + t.name().equals("net_dev_queue") + " " + m.group(1) + " " + m.group(2)
                        + " " + m.group(3) + " " + m.group(4) + " " + flags);
            }
        }
        List<String> ours = new ArrayList<>();
        for (Sent s : sent) {
            if (s.key().flags() >= 0) {
                ours.add(s.timestamp() + " " + s.send() + " " + s.key().sourcePort() + " " + s.key().destinationPort()
                        + " " + s.key().seq() + " " + s.key().ack() + " " + s.key().flags());
            }
        }
        theirs.sort(null);
        ours.sort(null);
        assertThat(theirs).isNotEmpty().containsExactlyElementsOf(ours);
    }
}
