package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;
import org.junit.jupiter.api.Test;
import org.tracesync.core.model.NodeInfo;

class ThreeHostsMatchingTest {

    private static List<Path> captures(Path dir) {
        return List.of(dir.resolve("h1.pcap"), dir.resolve("h2.pcap"), dir.resolve("h3.pcap"));
    }

    /** Inverse of truth.json's clock models (beta only: delta is 0 there), relative to T0. */
    private static double trueTime(String node, long local) {
        long t0 = 1795276271412493002L;
        double alpha = switch (node) {
            case "h2" -> 675342405;
            case "h3" -> 965446622;
            default -> 0;
        };
        double beta = switch (node) {
            case "h2" -> -2.9346598021578506e-05;
            case "h3" -> 5.309403405324603e-05;
            default -> 0;
        };
        return ((local - t0) - alpha) / (1 + beta);
    }

    @Test
    void infersEachHostsAddressFromTheTraffic() throws IOException {
        Path dir = SharedCaptures.threeHosts();
        List<NodeInfo> nodes = CaptureNodes.resolve(captures(dir), InputOptions.defaults());
        assertThat(nodes).extracting(NodeInfo::name).containsExactly("h1", "h2", "h3");
        assertThat(nodes).extracting(NodeInfo::addresses).containsExactly(
                List.of("10.200.1.1"), List.of("10.200.2.1"), List.of("10.200.3.1"));
    }

    @Test
    void findsExactlyTheSegmentsOfMessagesTxt() throws IOException {
        Path dir = SharedCaptures.threeHosts();
        Set<String> expected = new HashSet<>();
        for (String line : Files.readAllLines(dir.resolve("messages.txt"))) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 4 || line.startsWith("#")) {
                continue;
            }
            expected.add(f[0] + " " + f[1] + " " + SharedCaptures.seconds(f[2]) + " " + SharedCaptures.seconds(f[3]));
        }
        assertThat(expected).hasSize(8501);
        MergedTraceInput input = (MergedTraceInput) TraceInputs.open(captures(dir), InputOptions.defaults());
        List<String> found = new ArrayList<>();
        input.readMessages((s, r, ts, tr) -> found.add(input.nodes().get(s).name() + " "
                + input.nodes().get(r).name() + " " + ts + " " + tr));
        assertThat(found).doesNotHaveDuplicates();
        Set<String> missing = new HashSet<>(expected);
        missing.removeAll(found);
        Set<String> extra = new HashSet<>(found);
        extra.removeAll(expected);
        assertThat(missing).as("segments of messages.txt not found").isEmpty();
        // messages.txt lists no segment sent by h2 and none of h1 -> h2, although both captures
        // hold them once each with identical headers (checked with tshark). We report them too:
        // each must be a unique key whose true latency (truth.json) is positive.
        Set<String> extraPairs = new HashSet<>();
        for (String e : extra) {
            String[] f = e.split(" ");
            extraPairs.add(f[0] + "->" + f[1]);
            assertThat(trueTime(f[1], Long.parseLong(f[3])) - trueTime(f[0], Long.parseLong(f[2])))
                    .as("true latency of %s", e).isPositive();
        }
        assertThat(extraPairs).containsExactlyInAnyOrder("h1->h2", "h2->h1", "h2->h3");
        MergedTraceInput.ReadStats st = input.stats();
        assertThat(st.messages()).isEqualTo(found.size());
        assertThat(found.size() - extra.size()).isEqualTo(8501);
        assertThat(st.events()).isEqualTo(16219 + 18825 + 11068);
        assertThat(st.evictedUnmatched()).isZero();
        // every pair exchanged request/response traffic: round trips are known and positive
        for (int a = 0; a < 3; a++) {
            for (int b = a + 1; b < 3; b++) {
                assertThat(input.roundTrips().known(a, b)).isTrue();
                assertThat(input.roundTrips().minimum(a, b)).isBetween(1_000L, 10_000_000L);
            }
        }
    }
}
