package org.tracesync.formats.lttv;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;

/** What {@link LttvTextWriter} writes, {@link LttvTextInput} reads back exactly (epoch-sized ns). */
class LttvTextRoundTripTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void simulatedMessagesRoundTripToTheNanosecond(long seed) throws IOException {
        SimulationConfig c = SimulationConfig.cluster(SimulationConfig.names(4, null), Topology.STAR, seed, 200)
                .withTraffic(1_000_000_000L, 200);
        List<Message> written = new ArrayList<>();
        Path f = dir.resolve("m.txt");
        try (BufferedWriter w = Files.newBufferedWriter(f);
             LttvTextWriter out = new LttvTextWriter(w, 4, "seed " + seed)) {
            new ClusterSimulator(c).run((s, r, ts, tr) -> {
                written.add(new Message(s, r, ts, tr));
                out.message(s, r, ts, tr);
            });
        }
        MessageInput in = LttvTextInput.open(f);
        assertThat(in.nodes()).extracting(n -> n.name()).containsExactly("0", "1", "2", "3");
        List<Message> read = new ArrayList<>();
        in.readMessages((s, r, ts, tr) -> read.add(new Message(s, r, ts, tr)));
        assertThat(read).hasSizeGreaterThan(1000).isEqualTo(written);
    }
}
