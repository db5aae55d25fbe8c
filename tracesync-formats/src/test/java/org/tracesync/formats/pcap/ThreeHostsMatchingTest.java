package org.tracesync.formats.pcap;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;
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

    /** messages.txt as "sender receiver sendNs recvNs" strings (decimal seconds parsed exactly). */
    private static Set<String> listedSegments(Path dir) throws IOException {
        Set<String> expected = new HashSet<>();
        for (String line : Files.readAllLines(dir.resolve("messages.txt"))) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 4 || line.startsWith("#")) {
                continue;
            }
            expected.add(f[0] + " " + f[1] + " " + SharedCaptures.seconds(f[2]) + " " + SharedCaptures.seconds(f[3]));
        }
        return expected;
    }

    private static List<String> matchedSegments(MergedTraceInput input) throws IOException {
        List<String> found = new ArrayList<>();
        input.readMessages((s, r, ts, tr) -> found.add(input.nodes().get(s).name() + " "
                + input.nodes().get(r).name() + " " + ts + " " + tr));
        return found;
    }

    private static Map<String, Long> countByDirection(Set<String> segments) {
        Map<String, Long> counts = new TreeMap<>();
        for (String e : segments) {
            String[] f = e.split(" ");
            counts.merge(f[0] + "->" + f[1], 1L, Long::sum);
        }
        return counts;
    }

    /**
     * messages.txt lists every segment whose key occurs exactly once as a send and once as a
     * receive (shared/data/README.md). The matcher reports a subset of it, never anything else; a
     * listed segment is left out only for the documented rule of docs/captures.md ("What is
     * matched"): its sender's capture saw data beyond its sequence number earlier on the same
     * connection (a retransmission under a new key, e.g. another ack value).
     */
    @Test
    void findsExactlyTheSegmentsOfMessagesTxtExceptSenderSideRetransmissions() throws IOException {
        Path dir = SharedCaptures.threeHosts();
        Set<String> expected = listedSegments(dir);
        assertThat(expected).hasSize(19442);
        assertThat(countByDirection(expected)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "h1->h2", 2887L, "h1->h3", 2976L, "h2->h1", 5487L, "h2->h3", 2567L, "h3->h1", 2968L, "h3->h2", 2557L));
        MergedTraceInput input = (MergedTraceInput) TraceInputs.open(captures(dir), InputOptions.defaults());
        List<String> found = matchedSegments(input);
        assertThat(found).doesNotHaveDuplicates();
        Set<String> extra = new HashSet<>(found);
        extra.removeAll(expected);
        assertThat(extra).as("reported segments that messages.txt does not list").isEmpty();
        Set<String> missing = new HashSet<>(expected);
        missing.removeAll(found);
        // the one reason, counted exactly: the bulk transfer h1 -> h2 retransmitted 41 segments
        assertThat(countByDirection(missing)).containsExactlyEntriesOf(Map.of("h1->h2", 41L));
        assertThat(found).hasSize(19442 - 41);
        MergedTraceInput.ReadStats st = input.stats();
        assertThat(st.messages()).isEqualTo(found.size());
        assertThat(st.events()).isEqualTo(16219 + 18825 + 11068);
        assertThat(st.evictedUnmatched()).isZero();
        // every pair exchanged request/response traffic: round trips are known and positive
        for (int a = 0; a < 3; a++) {
            for (int b = a + 1; b < 3; b++) {
                assertThat(input.roundTrips().known(a, b)).isTrue();
                assertThat(input.roundTrips().minimum(a, b)).isBetween(1_000L, 10_000_000L);
            }
        }
        // the true latency (truth.json) of every reported segment is positive
        for (String e : found) {
            String[] f = e.split(" ");
            assertThat(trueTime(f[1], Long.parseLong(f[3])) - trueTime(f[0], Long.parseLong(f[2])))
                    .as("true latency of %s", e).isPositive();
        }
    }

    /**
     * The reason for each left-out segment, checked against an independent decoder: tshark's TCP
     * analysis flags every one of them as a retransmission in the sender's capture.
     */
    @Test
    void everyLeftOutSegmentIsARetransmissionForTshark() throws Exception {
        Path dir = SharedCaptures.threeHosts();
        SharedCaptures.assumeTshark();
        Set<String> missing = new HashSet<>(listedSegments(dir));
        MergedTraceInput input = (MergedTraceInput) TraceInputs.open(captures(dir), InputOptions.defaults());
        matchedSegments(input).forEach(missing::remove);
        assertThat(missing).hasSize(41);
        Map<Long, String> flagged = new HashMap<>();
        for (String[] row : SharedCaptures.tsharkFields(dir.resolve("h1.pcap"), "frame.time_epoch",
                "tcp.analysis.retransmission", "tcp.analysis.fast_retransmission")) {
            flagged.merge(SharedCaptures.seconds(row[0]), row.length > 1 ? String.join("", List.of(row).subList(1, row.length)) : "",
                    String::concat);
        }
        for (String m : missing) {
            long sendTime = Long.parseLong(m.split(" ")[2]);
            assertThat(flagged).as("tshark sees the packet sent at %d", sendTime).containsKey(sendTime);
            assertThat(flagged.get(sendTime)).as("tshark's retransmission flag on %s", m).isNotBlank();
        }
    }
}
