package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Files written by PcapWriter/PcapngWriter, read back by our reader and by tshark: both must
 * see the same packets (time to the ns, addresses, ports, seq, ack, flags, length).
 */
class CaptureWriterRoundTripTest {

    @TempDir
    Path dir;

    record Expected(long time, String src, String dst, int sport, int dport, long seq, long ack, int flags,
                    int len) {
    }

    private static final byte[] V4A = {10, 1, 0, 1};
    private static final byte[] V4B = {10, 1, 0, 2};
    private static final byte[] V6A = ipv6(1);
    private static final byte[] V6B = ipv6(2);

    private static byte[] ipv6(int last) {
        byte[] b = new byte[16];
        b[0] = (byte) 0xfd;
        b[1] = 0x12;
        b[15] = (byte) last;
        return b;
    }

    @ParameterizedTest(name = "pcap nanos={0} bigEndian={1}")
    @CsvSource({"true,false", "true,true", "false,false", "false,true"})
    void pcapBothResolutionsAndByteOrders(boolean nanos, boolean bigEndian) throws Exception {
        Path f = dir.resolve("t.pcap");
        List<Expected> exp = new ArrayList<>();
        Random rnd = new Random(nanos ? 11 : 12);
        PacketBuilder pb = new PacketBuilder().link(LinkTypes.ETHERNET, 1).snapLength(96);
        byte[] buf = new byte[2048];
        try (PcapWriter w = new PcapWriter(f, LinkTypes.ETHERNET, nanos, bigEndian, 96)) {
            long t = 1_700_000_000_123_456_789L;
            for (int i = 0; i < 200; i++) {
                t += 1 + rnd.nextInt(5_000_000);
                long seq = rnd.nextLong() & 0xffffffffL;
                long ack = rnd.nextLong() & 0xffffffffL;
                int len = rnd.nextInt(1500);
                boolean fwd = rnd.nextBoolean();
                pb.addresses(fwd ? V4A : V4B, fwd ? V4B : V4A).tcp(fwd ? 40000 : 80, fwd ? 80 : 40000, seq, ack,
                        0x18, len);
                int cap = pb.build(buf);
                w.write(t, buf, 0, cap, pb.length());
                long stored = nanos ? t : t / 1000 * 1000;
                exp.add(new Expected(stored, fwd ? "10.1.0.1" : "10.1.0.2", fwd ? "10.1.0.2" : "10.1.0.1",
                        fwd ? 40000 : 80, fwd ? 80 : 40000, seq, ack, 0x18, len));
            }
        }
        check(f, exp);
    }

    @ParameterizedTest(name = "pcapng bigEndian={0}")
    @CsvSource({"false", "true"})
    void pcapngSeveralInterfacesResolutionsOffsetsAndLinkTypes(boolean bigEndian) throws Exception {
        Path f = dir.resolve("t.pcapng");
        List<Expected> exp = new ArrayList<>();
        Random rnd = new Random(bigEndian ? 21 : 22);
        List<PcapngWriter.Interface> ifs = List.of(
                new PcapngWriter.Interface(LinkTypes.ETHERNET, 128, "eth0", TimestampResolution.NANOSECONDS, 0,
                        List.of("10.1.0.1/24", "fd12::1/64")),
                new PcapngWriter.Interface(LinkTypes.LINUX_SLL, 0, "any", TimestampResolution.MICROSECONDS, 3600,
                        List.of()),
                new PcapngWriter.Interface(LinkTypes.LINUX_SLL2, 256, "any2", new TimestampResolution(false, 3),
                        -7200, List.of()),
                new PcapngWriter.Interface(LinkTypes.RAW, 0, "tun0", new TimestampResolution(false, 8), 0,
                        List.of()));
        byte[] buf = new byte[2048];
        try (PcapngWriter w = new PcapngWriter(f, bigEndian)) {
            for (PcapngWriter.Interface i : ifs) {
                w.addInterface(i);
            }
            long t = 1_700_000_000_000_000_000L;
            for (int i = 0; i < 300; i++) {
                int id = rnd.nextInt(ifs.size());
                PcapngWriter.Interface in = ifs.get(id);
                t += 1 + rnd.nextInt(3_000_000);
                boolean v6 = rnd.nextInt(3) == 0;
                long seq = rnd.nextLong() & 0xffffffffL;
                long ack = rnd.nextLong() & 0xffffffffL;
                int flags = rnd.nextInt(0x200);
                int len = rnd.nextInt(1400);
                PacketBuilder pb = new PacketBuilder().link(in.linkType(), id == 0 ? rnd.nextInt(3) : 0)
                        .snapLength(in.snapLength() == 0 ? 65535 : in.snapLength())
                        .addresses(v6 ? V6A : V4A, v6 ? V6B : V4B).tcp(1234, 5678, seq, ack, flags, len);
                int cap = pb.build(buf);
                w.writePacket(id, t, buf, 0, cap, pb.length());
                long unit = switch (in.resolution().exponent()) {
                    case 3 -> 1_000_000L;
                    case 6 -> 1_000L;
                    case 8 -> 10L;
                    default -> 1L;
                };
                long stored = Math.floorDiv(t - in.offsetSeconds() * 1_000_000_000L, unit) * unit
                        + in.offsetSeconds() * 1_000_000_000L;
                exp.add(new Expected(stored, v6 ? "fd12::1" : "10.1.0.1", v6 ? "fd12::2" : "10.1.0.2", 1234, 5678,
                        seq, ack, flags, len));
            }
            // a simple packet block has no timestamp: skipped by us (and counted)
            PacketBuilder pb = new PacketBuilder().addresses(V4A, V4B).tcp(1, 2, 3, 4, 0x10, 0);
            int cap = pb.build(buf);
            w.writeSimplePacket(buf, 0, cap, pb.length());
        }
        List<Expected> ours = readOurs(f);
        assertThat(ours).containsExactlyElementsOf(exp);
        try (CaptureReader r = CaptureReader.open(f)) {
            while (r.next()) {
                assertThat(r.linkType()).isEqualTo(ifs.get(r.interfaceId()).linkType());
            }
            assertThat(r.interfaces()).hasSize(4);
            assertThat(r.interfaces().get(0).addresses()).containsExactly("10.1.0.1", "fd12:0:0:0:0:0:0:1");
            assertThat(r.interfaces().get(0).ipv4Broadcasts()).containsExactly(0x0a0100ffL);
            assertThat(r.interfaces().get(1).offsetSeconds()).isEqualTo(3600);
            assertThat(r.warnings()).singleElement().asString().contains("1 simple packet blocks skipped");
        }
        SharedCaptures.assumeTshark();
        List<Expected> theirs = readTshark(f);
        // tshark also lists the simple packet block (without a time): compare the timed ones
        assertThat(theirs).hasSize(exp.size() + 1);
        assertThat(theirs.subList(0, exp.size())).containsExactlyElementsOf(exp);
    }

    @Test
    void binaryResolutionConvertsExactly() {
        TimestampResolution r = TimestampResolution.fromOption(0x80 | 20);
        assertThat(r.binary()).isTrue();
        // 2^20 ticks = 1 s; 1.5 s + one tick (= 953.67... ns, floored)
        assertThat(r.toNanos((1L << 20) + (1L << 19) + 1)).isEqualTo(1_500_000_953L);
        long epochTicks = 1_700_000_000L << 20;
        assertThat(r.toNanos(epochTicks)).isEqualTo(1_700_000_000_000_000_000L);
        assertThat(TimestampResolution.fromOption(12).toNanos(9_123_456_789_123L))
                .isEqualTo(9_123_456_789L);
    }

    private void check(Path f, List<Expected> exp) throws Exception {
        assertThat(readOurs(f)).containsExactlyElementsOf(exp);
        SharedCaptures.assumeTshark();
        assertThat(readTshark(f)).containsExactlyElementsOf(exp);
    }

    static List<Expected> readOurs(Path f) throws Exception {
        List<Expected> out = new ArrayList<>();
        DecodedPacket p = new DecodedPacket();
        try (CaptureReader r = CaptureReader.open(f)) {
            while (r.next()) {
                assertThat(PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p))
                        .isEqualTo(DecodedPacket.TCP);
                out.add(new Expected(r.timestamp(), canonical(DecodedPacket.addressText(p.srcHi, p.srcLo)),
                        canonical(DecodedPacket.addressText(p.dstHi, p.dstLo)), p.srcPort, p.dstPort, p.seq, p.ack,
                        p.flags, p.payloadLength));
            }
        }
        return out;
    }

    private static String canonical(String a) {
        return a.replace("fd12:0:0:0:0:0:0:", "fd12::");
    }

    static List<Expected> readTshark(Path f) throws Exception {
        List<Expected> out = new ArrayList<>();
        for (String[] t : SharedCaptures.tsharkFields(f, "frame.time_epoch", "ip.src", "ip.dst", "ipv6.src",
                "ipv6.dst", "tcp.srcport", "tcp.dstport", "tcp.seq_raw", "tcp.ack_raw", "tcp.flags", "tcp.len")) {
            if (t[0].isEmpty() || t[5].isEmpty()) {
                out.add(null);
                continue;
            }
            boolean v6 = t[1].isEmpty();
            out.add(new Expected(SharedCaptures.seconds(t[0]), v6 ? t[3] : t[1], v6 ? t[4] : t[2],
                    Integer.parseInt(t[5]), Integer.parseInt(t[6]), Long.parseLong(t[7]), Long.parseLong(t[8]),
                    Integer.decode(t[9]), Integer.parseInt(t[10])));
        }
        return out;
    }
}
