package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tempo's variant of OTLP JSON: {@code batches} and {@code instrumentationLibrarySpans}, base64 ids,
 * kinds as {@code SPAN_KIND_*} names, and integer times; and the node key chain in Kubernetes.
 */
class TempoVariantTest {

    @TempDir
    Path dir;

    private static String b64(String hex) {
        byte[] b = new byte[hex.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return Base64.getEncoder().encodeToString(b);
    }

    private static String line(String node, String pod, String spanId, String parent, String kind, long start, long end) {
        return "{\"batches\":[{\"resource\":{\"attributes\":[{\"key\":\"host.name\",\"value\":{\"stringValue\":\"" + pod + "\"}},"
                + "{\"key\":\"k8s.node.name\",\"value\":{\"stringValue\":\"" + node + "\"}}]},"
                + "\"instrumentationLibrarySpans\":[{\"spans\":[{\"traceId\":\"" + b64("00112233445566778899aabbccddeeff")
                + "\",\"spanId\":\"" + b64(spanId) + "\",\"parentSpanId\":\"" + (parent == null ? "" : b64(parent))
                + "\",\"kind\":\"" + kind + "\",\"startTimeUnixNano\":" + start + ",\"endTimeUnixNano\":" + end + "}]}]}]}";
    }

    @Test
    void batchesBase64IdsAndNodeNames() throws Exception {
        Path f = dir.resolve("tempo.json");
        Files.writeString(f, line("node-b", "pod-b-1", "0000000000000002", "0000000000000001", "SPAN_KIND_SERVER",
                1_700_000_000_000_100_000L, 1_700_000_000_000_900_000L) + "\n"
                + line("node-a", "pod-a-7", "0000000000000001", null, "SPAN_KIND_CLIENT",
                1_700_000_000_000_000_123L, 1_700_000_000_001_000_456L) + "\n");
        assertThat(SpanFormat.detect(f)).isEqualTo(SpanFormat.OTLP_JSON);
        SpanMessageInput in = new SpanMessageInput(SpanFiles.open(List.of(f), SpanOptions.defaults()));
        assertThat(in.nodes().stream().map(n -> n.name()).toList()).containsExactly("node-b", "node-a");
        assertThat(in.hosts().hosts().get(0).namedBy()).isEqualTo("k8s.node.name");
        assertThat(in.hosts().observedResolution(0)).isEqualTo(100_000); // both of node-b's times end in 00000
        assertThat(in.hosts().observedResolution(1)).isEqualTo(1);
        List<long[]> m = new ArrayList<>();
        in.readMessages((s, r, ts, tr) -> m.add(new long[] {s, r, ts, tr}));
        // client start -> server start, widened by the coarser resolution (100 us); server end -> client end
        assertThat(m).containsExactly(
                new long[] {1, 0, 1_700_000_000_000_000_123L - 100_000, 1_700_000_000_000_100_000L},
                new long[] {0, 1, 1_700_000_000_000_900_000L - 100_000, 1_700_000_000_001_000_456L});
        SpanMessageInput byPod = new SpanMessageInput(SpanFiles.open(List.of(f), SpanOptions.defaults().withNodeKey("host.name")));
        assertThat(byPod.nodes().stream().map(n -> n.name()).toList()).containsExactly("pod-b-1", "pod-a-7");
    }
}
