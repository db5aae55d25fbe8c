package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.Direction;
import org.tracesync.core.model.NetEvent;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.pcap.LinkTypes;
import org.tracesync.formats.pcap.PacketBuilder;
import org.tracesync.formats.pcap.PcapWriter;

/**
 * {@code convert --to ctf} on a capture whose packets are not written in time order (tcpdump on a
 * busy host writes some receptions milliseconds late): every packet must reach the trace, once,
 * at its own timestamp, with its key and direction — not only those that happen to come in order.
 */
class CaptureToCtfTest {

    @TempDir
    Path tmp;

    static final byte[] OWN = {10, 0, 0, 1};
    static final byte[] PEER = {10, 0, 0, 2};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void packetsWrittenOutOfTimeOrderAreAllConverted(long seed) throws Exception {
        Path capture = tmp.resolve("late.pcap");
        long t0 = 1_700_000_000_000_000_000L;
        SplittableRandom r = new SplittableRandom(seed);
        List<String> written = new ArrayList<>();
        byte[] frame = new byte[2048];
        try (PcapWriter w = new PcapWriter(capture, LinkTypes.ETHERNET, true, false, 65535)) {
            for (int i = 0; i < 400; i++) {
                boolean send = i % 2 == 0;
                // a third of the receptions is written up to 5 µs late (5 packets' worth)
                long ts = t0 + i * 1000L - (!send && r.nextInt(3) == 0 ? r.nextLong(5000) : 0);
                int n = new PacketBuilder().link(LinkTypes.ETHERNET, 0).addresses(send ? OWN : PEER, send ? PEER : OWN)
                        .tcp(40000, 22, 1000 + i, 77, 0x18, 100).build(frame);
                w.write(ts, frame, 0, n, n);
                written.add(ts + " " + (send ? Direction.SEND : Direction.RECEIVE) + " " + (1000 + i));
            }
        }
        CaptureToCtf.Outcome o = CaptureToCtf.convert(capture, new NodeInfo("a", capture.toString(), List.of("10.0.0.1")),
                tmp.resolve("ctf"));
        assertThat(o.skipped()).isZero();
        assertThat(o.packets()).isEqualTo(400);

        List<NetEvent> events = new ArrayList<>();
        CtfTrace trace = CtfTrace.open(tmp.resolve("ctf"));
        trace.stream(events::add);
        List<String> read = new ArrayList<>();
        for (NetEvent e : events) {
            TcpSegmentKey k = (TcpSegmentKey) e.key();
            assertThat(k.payloadLength()).isEqualTo(100);
            read.add(e.timestamp() + " " + e.direction() + " " + k.seq());
        }
        assertThat(read).containsExactlyInAnyOrderElementsOf(written);
        // the reader merges the trace's streams by time: nothing goes backwards
        assertThat(events).isSortedAccordingTo((a, b) -> Long.compare(a.timestamp(), b.timestamp()));
        assertThat(trace.warnings()).isEmpty();
        assertThat(trace.node().addresses()).containsExactly("10.0.0.1");
    }
}
