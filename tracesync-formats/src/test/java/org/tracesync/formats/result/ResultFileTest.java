package org.tracesync.formats.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.SharedData;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.lttv.LttvTextInput;

class ResultFileTest {

    @TempDir
    Path tmp;

    @Test
    void writesTheDesignContractAndReadsItBack() throws Exception {
        Path in = tmp.resolve("epoch.txt");
        Files.writeString(in, "2\n0 1 1700000000.000100000 1700000000.080200000\n0 1 1700000060.000100000 1700000060.080260000\n"
                + "1 0 1700000000.080300000 1700000000.000250000\n1 0 1700000060.080400000 1700000060.000390000\n");
        SyncResult r = Synchronizer.synchronize(LttvTextInput.open(in), Synchronizer.Options.defaults()).result();
        Path out = tmp.resolve("sub/result.json");
        ResultFile.write(r, out);
        String text = Files.readString(out);
        JsonNode root = new ObjectMapper().readTree(text);
        assertThat(root.get("format").asText()).isEqualTo("tracesync/1");
        assertThat(root.get("reference").asText()).isEqualTo("0");
        JsonNode node1 = root.get("nodes").get(1);
        assertThat(node1.get("reference").asText()).isEqualTo("0");
        assertThat(node1.get("quality").asText()).isEqualTo("accurate");
        JsonNode seg = node1.get("transform").get("segments").get(0);
        assertThat(seg.get("from").isNull()).isTrue();
        assertThat(seg.get("origin").isIntegralNumber()).as("origin stays an integer").isTrue();
        assertThat(seg.get("origin").asLong()).isGreaterThan(1_700_000_000_000_000_000L);
        assertThat(text).doesNotContainPattern("\\d\\.\\d+E18");
        JsonNode row = node1.get("bounds").get(0);
        assertThat(row.get(0).isIntegralNumber()).isTrue();
        assertThat(root.get("pairs").get(0).get("messages").get("a_to_b").asLong()).isEqualTo(2);
        assertThat(root.get("pairs").get(0).get("hull_points").get("b_to_a").asInt()).isEqualTo(2);
        // no temporary file left behind
        try (var files = Files.list(out.getParent())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("result.json");
        }
        SyncResult back = ResultFile.read(out);
        assertThat(back.reference()).isEqualTo("0");
        NodeResult n1 = back.node("1");
        assertThat(n1.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(n1.transform()).isEqualTo(r.node("1").transform());
        assertThat(n1.bounds()).isEqualTo(r.node("1").bounds());
        assertThat(back.pairs()).hasSize(1);
    }

    @Test
    void corruptResultFilesAreClearErrors() throws Exception {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"format\": \"tracesync/1\", \"reference\": \"a\", \"nodes\": [ {\"name\": 3} ]}");
        assertThatThrownBy(() -> ResultFile.read(bad)).isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("nodes[0].name").hasMessageContaining("expected a string");
        Files.writeString(bad, "{\"format\": \"other\"}");
        assertThatThrownBy(() -> ResultFile.read(bad)).hasMessageContaining("expected \"tracesync/1\"");
        Files.writeString(bad, "{\"format\": ");
        assertThatThrownBy(() -> ResultFile.read(bad)).isInstanceOf(TraceFormatException.class).hasMessageContaining("not valid JSON");
    }

    @Test
    void threeHostsMessagesSynchronizeAndTheBoundsContainTheTruth() throws Exception {
        // messages.txt holds h1<->h3 both ways and h3->h2 one way only: h2 cannot be synchronized
        // from these messages, and must be reported so rather than guessed.
        Path messages = SharedData.file("pcap/three-hosts/messages.txt");
        LttvTextInput input = LttvTextInput.open(messages);
        SyncResult r = Synchronizer.synchronize(input, Synchronizer.Options.defaults()).result();
        assertThat(r.stats().get("messages")).isEqualTo(8501L);
        assertThat(r.reference()).isEqualTo("h1");
        assertThat(r.node("h3").quality()).isEqualTo(Quality.ACCURATE);
        assertThat(r.node("h2").quality()).isEqualTo(Quality.ONE_WAY);
        assertThat(r.node("h2").reference()).isEqualTo("h2");

        JsonNode truth = new ObjectMapper().readTree(SharedData.file("pcap/three-hosts/truth.json").toFile());
        long t0 = truth.get("T0").asLong();
        JsonNode h3 = truth.get("nodes").get(2);
        assertThat(h3.get("name").asText()).isEqualTo("h3");
        assertThat(truth.get("nodes").get(0).get("alpha").asLong()).isZero(); // h1 is the true clock
        long alpha = h3.get("alpha").asLong();
        double beta = h3.get("beta").asDouble();
        NodeResult n3 = r.node("h3");
        int[] checked = {0};
        input.readMessages((s, d, ts, tr) -> {
            long t = s == 1 ? ts : d == 1 ? tr : Long.MIN_VALUE;
            if (t == Long.MIN_VALUE) {
                return;
            }
            // h3 local t = T + alpha + beta (T - T0)  =>  true correction T - t
            double tau = (double) (t - alpha - t0) / (1 + beta);
            double truthCorr = -alpha - beta * tau;
            double est = n3.transform().correction(t);
            double[] mp = n3.bounds().at(t);
            assertThat(truthCorr).isBetween(est - mp[0] - 1, est + mp[1] + 1);
            assertThat(Math.abs(truthCorr - est)).isLessThan(2_000);
            checked[0]++;
        });
        assertThat(checked[0]).isEqualTo(2976 + 2968 + 2557);
    }
}
