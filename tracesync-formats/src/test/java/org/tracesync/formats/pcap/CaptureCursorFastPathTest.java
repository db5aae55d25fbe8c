package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;

/**
 * The capture cursor's path that decodes untagged Ethernet → IPv4 → TCP straight into the block
 * against the same cursor decoding every packet through {@link PacketDecoder#decode}: the same
 * kind for every packet and the same rows (node, direction, time, key) in the block, on every
 * packet of the shared captures and on seeded random mutations of the header bytes, which also
 * reach every way out of the fast path (VLAN tags, options, fragments, other protocols, short
 * captures, bad lengths, addresses of no node).
 */
class CaptureCursorFastPathTest {

    @TempDir
    Path tmp;

    /** Every packet's kind, then every row of the block, as text. */
    private static List<String> emitted(EventCursor c, int node) throws IOException {
        List<String> out = new ArrayList<>();
        EventBlock block = new EventBlock(1);
        try (c) {
            while (c.advance()) {
                block.clear();
                int kind = c.emit(block, node, c.time());
                String row = "kind " + kind;
                if (block.size() == 1) {
                    row += " " + block.nodeOf(0) + " " + block.isSend(0) + " " + block.isDatagram(0) + " "
                            + block.time(0) + " " + block.keyA(0) + " " + block.keyB(0) + " " + block.keyC(0);
                }
                out.add(row);
            }
        }
        return out;
    }

    private static long count(List<String> rows, String prefix) {
        return rows.stream().filter(r -> r.startsWith(prefix)).count();
    }

    @Test
    void sharedCapturesGiveTheDecodersRows() throws IOException {
        Path dir = SharedCaptures.threeHosts();
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.toString().endsWith(".pcap")).sorted().toList();
        }
        List<EventTrace> traces = new CaptureFormat().open(files, InputOptions.defaults());
        AddressTable table = new AddressTable();
        for (int i = 0; i < traces.size(); i++) {
            for (String a : traces.get(i).node().addresses()) {
                table.add(a, i);
            }
        }
        long keys = 0;
        for (int i = 0; i < traces.size(); i++) {
            CaptureTrace t = (CaptureTrace) traces.get(i);
            List<String> fused = emitted(t.cursor(i, table), i);
            assertThat(fused).isEqualTo(emitted(t.decodingCursor(i, table), i));
            keys += count(fused, "kind " + EventCursor.KEY);
        }
        assertThat(keys).isGreaterThan(20_000);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void mutatedHeadersGiveTheDecodersRows(long seed) throws IOException {
        Random rnd = new Random(seed);
        Path file = tmp.resolve("mutated" + seed + ".pcap");
        byte[][] hosts = {{10, 0, 0, 1}, {10, 0, 0, 2}, {10, 0, 0, 3}};
        byte[] frame = new byte[256];
        try (PcapWriter w = new PcapWriter(file, LinkTypes.ETHERNET, true, rnd.nextBoolean(), 256)) {
            for (int n = 0; n < 20_000; n++) {
                int a = rnd.nextInt(3);
                int b = (a + 1 + rnd.nextInt(2)) % 3;
                PacketBuilder pb = new PacketBuilder().addresses(hosts[a], hosts[b])
                        .tcp(rnd.nextInt(65536), rnd.nextInt(65536), rnd.nextLong() & 0xffffffffL,
                                rnd.nextLong() & 0xffffffffL, rnd.nextInt(512), rnd.nextInt(80))
                        .ipId(rnd.nextInt(65536));
                if (rnd.nextInt(8) == 0) {
                    pb.udp(rnd.nextInt(65536), rnd.nextInt(65536), rnd.nextInt(80), (byte) 1);
                }
                if (rnd.nextInt(8) == 0) {
                    pb.link(LinkTypes.ETHERNET, 1);
                }
                java.util.Arrays.fill(frame, (byte) 0);
                int len = pb.build(frame);
                // a few random bytes of the headers (ethertype, IP, TCP) changed, or none
                int changes = rnd.nextInt(4);
                for (int k = 0; k < changes; k++) {
                    int at = 12 + rnd.nextInt(Math.min(len, 60) - 12);
                    frame[at] = rnd.nextInt(3) == 0 ? (byte) rnd.nextInt(256)
                            : (byte) (frame[at] ^ (1 << rnd.nextInt(8)));
                }
                int captured = rnd.nextInt(6) == 0 ? rnd.nextInt(len + 1) : len;
                w.write(1_000_000_000L * n, frame, 0, captured, len);
            }
        }
        AddressTable table = new AddressTable();
        for (int h = 0; h < 2; h++) { // the third host belongs to no node: its segments are other traffic
            table.add("10.0.0." + (h + 1), h);
        }
        CaptureTrace t = new CaptureTrace(file, new NodeInfo("n", file.toString(), List.of("10.0.0.1")),
                new ArrayList<>());
        List<String> fused = emitted(t.cursor(0, table), 0);
        assertThat(fused).isEqualTo(emitted(t.decodingCursor(0, table), 0));
        assertThat(fused).hasSize(20_000);
        // both ways out reached: keys, and other traffic
        assertThat(count(fused, "kind " + EventCursor.KEY)).isGreaterThan(2_500);
        assertThat(count(fused, "kind " + EventCursor.OTHER)).isGreaterThan(4_000);
    }
}
