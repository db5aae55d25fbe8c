package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Our reader and decoder against tshark on the shared three-host captures, packet by packet. */
class CaptureReaderTsharkTest {

    @ParameterizedTest
    @ValueSource(strings = {"h1.pcap", "h2.pcap", "h3.pcap"})
    void everyPacketAgreesWithTshark(String name) throws Exception {
        Path file = SharedCaptures.threeHosts().resolve(name);
        SharedCaptures.assumeTshark();
        List<String[]> rows = SharedCaptures.tsharkFields(file, "frame.time_epoch", "ip.src", "ip.dst",
                "tcp.srcport", "tcp.dstport", "tcp.seq_raw", "tcp.ack_raw", "tcp.flags", "tcp.len");
        assertThat(rows).isNotEmpty();
        DecodedPacket p = new DecodedPacket();
        int i = 0;
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                String[] t = rows.get(i);
                assertThat(r.timestamp()).as("packet %d time", i + 1).isEqualTo(SharedCaptures.seconds(t[0]));
                int kind = PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), p);
                assertThat(kind).as("packet %d", i + 1).isEqualTo(DecodedPacket.TCP);
                assertThat(DecodedPacket.addressText(p.srcHi, p.srcLo)).isEqualTo(t[1]);
                assertThat(DecodedPacket.addressText(p.dstHi, p.dstLo)).isEqualTo(t[2]);
                assertThat(p.srcPort).isEqualTo(Integer.parseInt(t[3]));
                assertThat(p.dstPort).isEqualTo(Integer.parseInt(t[4]));
                assertThat(p.seq).isEqualTo(Long.parseLong(t[5]));
                assertThat(p.ack).isEqualTo(Long.parseLong(t[6]));
                assertThat(p.flags).isEqualTo(Integer.decode(t[7]));
                assertThat(p.payloadLength).as("packet %d length", i + 1).isEqualTo(Integer.parseInt(t[8]));
                i++;
            }
        }
        assertThat(i).isEqualTo(rows.size());
    }
}
