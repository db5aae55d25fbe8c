package org.tracesync.formats.evaluate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.evaluate.TrueClock;
import org.tracesync.core.evaluate.TruthModel;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.TraceFormatException;

class TruthAndRttFileTest {

    @TempDir
    Path dir;

    @Test
    void readsTheSharedTruthFileExactly() throws Exception {
        Path p = Path.of(System.getProperty("tracesync.shared.data", "../../shared/data"), "pcap", "three-hosts",
                "truth.json");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(p)
                || "1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA")), "shared data absent: skipping");
        TruthModel t = TruthFile.read(p);
        assertThat(t.t0()).isEqualTo(1795276271412493002L);
        assertThat(t.clock("h2")).isEqualTo(new TrueClock("h2", 675342405, -2.9346598021578506e-05, 0.0));
        assertThat(t.clocks()).extracting(TrueClock::name).containsExactly("h1", "h2", "h3");
    }

    @Test
    void writesWhatItReads() throws Exception {
        TruthModel t = new TruthModel(1_700_000_000_123_456_789L, List.of(new TrueClock("a", 0, 0, 0),
                new TrueClock("b", -5_000_000, 1.5e-5, 3e-18)));
        Path f = dir.resolve("truth.json");
        TruthFile.write(f, t, 42);
        assertThat(TruthFile.read(f)).isEqualTo(t);
        assertThat(Files.readString(f)).contains("\"T0\" : 1700000000123456789").contains("\"alpha\" : -5000000");
    }

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
