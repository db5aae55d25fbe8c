package org.tracesync.formats.evaluate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.TraceFormatException;

class RttFileTest {

    @TempDir
    Path dir;

    @Test
    void rttFileMapsAddressesAndNamesToNodes() throws Exception {
        Path f = dir.resolve("rtt.txt");
        Files.writeString(f, "# minimum rtts\n10.0.0.1 10.0.0.2 0.125\nb c 1\n10.9.9.9 10.0.0.1 5\n");
        List<NodeInfo> nodes = List.of(new NodeInfo("a", "a", List.of("10.0.0.1")),
                new NodeInfo("b", "b", List.of("10.0.0.2")), new NodeInfo("c", "c", List.of()));
        RoundTripMinima r = RttFile.read(f, nodes);
        assertThat(r.minimum(0, 1)).isEqualTo(125_000);
        assertThat(r.minimumLatency(1, 0)).isEqualTo(62_500);
        assertThat(r.minimum(2, 1)).isEqualTo(1_000_000);
        assertThat(r.known(0, 2)).isFalse();
    }

    @Test
    void badRttLineNamesTheLine() throws Exception {
        Path f = dir.resolve("bad.txt");
        Files.writeString(f, "a b 1\na b\n");
        assertThatThrownBy(() -> RttFile.read(f, List.of(new NodeInfo("a", "a"), new NodeInfo("b", "b"))))
                .isInstanceOf(TraceFormatException.class).hasMessageContaining(":line 2: expected 'addr addr rtt_ms'");
    }
}
