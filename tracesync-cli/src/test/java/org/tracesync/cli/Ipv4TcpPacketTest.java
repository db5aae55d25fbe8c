package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.TcpSegmentKey;

class Ipv4TcpPacketTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 64, 1400, 65_495})
    void headersCarryTheKeyAndValidChecksums(int payload) {
        TcpSegmentKey k = new TcpSegmentKey(new byte[] {10, 0, 0, 1}, new byte[] {10, 0, 1, 44}, 40001, 5000,
                4_000_000_000L, 123_456L, 0x18, payload);
        byte[] b = Ipv4TcpPacket.encode(k, 0x1234);
        assertThat(b).hasSize(40);
        assertThat(((b[2] & 0xff) << 8) | (b[3] & 0xff)).isEqualTo(40 + payload);
        assertThat(((b[20] & 0xff) << 8) | (b[21] & 0xff)).isEqualTo(40001);
        assertThat(((b[22] & 0xff) << 8) | (b[23] & 0xff)).isEqualTo(5000);
        long seq = ((b[24] & 0xffL) << 24) | ((b[25] & 0xff) << 16) | ((b[26] & 0xff) << 8) | (b[27] & 0xff);
        assertThat(seq).isEqualTo(4_000_000_000L);
        assertThat(b[33]).isEqualTo((byte) 0x18);
        // a header with its checksum sums to 0xffff (one's complement)
        assertThat(Ipv4TcpPacket.sum(b, 0, 20, 0)).isEqualTo(0xffff);
        long pseudo = Ipv4TcpPacket.sum(b, 12, 8, 0) + 6 + 20 + payload;
        assertThat(Ipv4TcpPacket.fold(Ipv4TcpPacket.sum(b, 20, 20, pseudo))).isEqualTo(0xffff);
    }
}
