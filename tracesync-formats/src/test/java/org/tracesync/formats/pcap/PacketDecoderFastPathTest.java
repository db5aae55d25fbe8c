package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * {@link PacketDecoder#decode}'s path for untagged Ethernet → IPv4 without options → TCP against
 * the general decoder ({@link PacketDecoder#decodeAny}): every field of the result equal, on every
 * packet of the shared captures and on seeded random mutations of the header bytes (which also
 * reach every way out of the fast path: VLAN tags, options, fragments, other protocols, short
 * captures, bad lengths).
 */
class PacketDecoderFastPathTest {

    /** Every field of a decoded packet, for comparison. */
    private static List<Long> fields(DecodedPacket p) {
        return List.of((long) p.kind, (long) p.ipVersion, p.srcHi, p.srcLo, p.dstHi, p.dstLo, (long) p.srcPort,
                (long) p.dstPort, p.seq, p.ack, (long) p.flags, (long) p.payloadLength, (long) p.ipId,
                (long) p.ipOffset, (long) p.payloadOffset, (long) p.payloadCaptured);
    }

    /** Decodes with both paths from the same starting state and checks that they agree. */
    private static int compare(int linkType, byte[] b, int off, int len) {
        DecodedPacket fast = new DecodedPacket();
        DecodedPacket any = new DecodedPacket();
        int kf = PacketDecoder.decode(linkType, b, off, len, fast);
        int ka = PacketDecoder.decodeAny(linkType, b, off, len, any);
        assertThat(kf).isEqualTo(ka);
        assertThat(fields(fast)).as("packet %s", Arrays.toString(Arrays.copyOfRange(b, off, off + len)))
                .isEqualTo(fields(any));
        return kf;
    }

    @Test
    void sharedCapturesDecodeAsTheGeneralDecoderDoes() throws IOException {
        Path dir = SharedCaptures.threeHosts();
        long packets = 0;
        long tcp = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".pcap")).sorted().toList()) {
                try (CaptureReader r = CaptureReader.open(f)) {
                    while (r.next()) {
                        packets++;
                        if (compare(r.linkType(), r.data(), r.dataOffset(), r.capturedLength()) == DecodedPacket.TCP) {
                            tcp++;
                        }
                    }
                }
            }
        }
        assertThat(packets).isEqualTo(46_112);
        assertThat(tcp).isGreaterThan(packets / 2);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void mutatedHeadersDecodeAsTheGeneralDecoderDoes(long seed) {
        Random rnd = new Random(seed);
        byte[] frame = new byte[256];
        int[] kinds = new int[18];
        for (int n = 0; n < 20_000; n++) {
            PacketBuilder pb = new PacketBuilder()
                    .tcp(rnd.nextInt(65536), rnd.nextInt(65536), rnd.nextLong() & 0xffffffffL,
                            rnd.nextLong() & 0xffffffffL, rnd.nextInt(512), rnd.nextInt(80))
                    .ipId(rnd.nextInt(65536));
            if (rnd.nextInt(8) == 0) {
                pb.udp(rnd.nextInt(65536), rnd.nextInt(65536), rnd.nextInt(80), (byte) 1);
            }
            if (rnd.nextInt(8) == 0) {
                pb.link(LinkTypes.ETHERNET, 1);
            }
            Arrays.fill(frame, (byte) 0);
            int len = pb.build(frame);
            // a few random bytes of the headers (ethertype, IP, TCP) changed, or none
            int changes = rnd.nextInt(4);
            for (int k = 0; k < changes; k++) {
                int at = 12 + rnd.nextInt(Math.min(len, 60) - 12);
                frame[at] = rnd.nextInt(3) == 0 ? (byte) rnd.nextInt(256) : (byte) (frame[at] ^ (1 << rnd.nextInt(8)));
            }
            // a short capture now and then
            int captured = rnd.nextInt(6) == 0 ? rnd.nextInt(len + 1) : len;
            int off = rnd.nextInt(4);
            byte[] b = new byte[off + captured + rnd.nextInt(4)];
            System.arraycopy(frame, 0, b, off, captured);
            kinds[compare(LinkTypes.ETHERNET, b, off, captured)]++;
        }
        // every outcome was reached
        assertThat(kinds[DecodedPacket.TCP]).isGreaterThan(10_000);
        assertThat(kinds[DecodedPacket.UDP]).isGreaterThan(500);
        assertThat(kinds[DecodedPacket.IP_OTHER]).isGreaterThan(100);
        assertThat(kinds[DecodedPacket.OTHER]).isGreaterThan(100);
    }
}
