package org.tracesync.formats.truth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.formats.TraceFormatException;

class TruthFileTest {

    @TempDir
    Path dir;

    static Path sharedData() {
        String p = System.getProperty("tracesync.shared.data", "../../shared/data");
        Path data = Path.of(p);
        boolean required = "1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"));
        if (!required) {
            Assumptions.assumeTrue(Files.isDirectory(data), "shared data absent at " + data + ": skipped");
        }
        return data;
    }

    @Test
    void readsAndRewritesTheSharedTruthByteForByte() throws IOException {
        Path truth = sharedData().resolve("pcap/three-hosts/truth.json");
        TruthFile t = TruthFile.read(truth);
        assertThat(t.t0()).isEqualTo(1_795_276_271_412_493_002L);
        assertThat(t.messages()).isEqualTo(8501);
        assertThat(t.clocks()).extracting(ClockModel::name).containsExactly("h1", "h2", "h3");
        assertThat(t.clock("h2").alpha()).isEqualTo(675_342_405L);
        assertThat(t.clock("h2").beta()).isEqualTo(-2.9346598021578506e-05);
        StringWriter w = new StringWriter();
        t.write(w);
        assertThat(w.toString()).isEqualTo(Files.readString(truth));
    }

    @Test
    void roundTripsQuadraticClocks() throws IOException {
        long t0 = 1_700_000_000_000_000_000L;
        TruthFile t = new TruthFile(t0, List.of(ClockModel.perfect("a", t0),
                new ClockModel("b", t0, -123_456_789L, 4.2e-5, -3.0e-17),
                new ClockModel("c", t0, 5L, 0.1234, 1e-16)), 12);
        Path f = dir.resolve("truth.json");
        t.write(f);
        assertThat(TruthFile.read(f)).isEqualTo(t);
        assertThat(Files.readString(f)).contains("\"beta\": 4.2e-05", "\"delta\": -3e-17", "\"beta\": 0.1234");
    }

    @Test
    void roundTripsWanderingClocksAndLeavesPlainOnesAsBefore() throws IOException {
        long t0 = 1_700_000_000_000_000_000L;
        ClockModel wandering = new ClockModel("b", t0, -123_456_789L, 4.2e-5, 0.0, List.of(
                org.tracesync.core.simulate.ClockEvent.rateChange(t0 + 1_024_000_000_000L, 1.5e-7),
                org.tracesync.core.simulate.ClockEvent.step(t0 + 3_600_000_000_000L, -3_000_000L)));
        TruthFile t = new TruthFile(t0, List.of(ClockModel.perfect("a", t0), wandering), 12);
        Path f = dir.resolve("truth.json");
        t.write(f);
        assertThat(TruthFile.read(f)).isEqualTo(t);
        String text = Files.readString(f);
        assertThat(text).contains("\"events\": [\n    {\"at\": 1700001024000000000, \"rate\": 1.5e-07},\n"
                + "    {\"at\": 1700003600000000000, \"step\": -3000000}\n   ]");
        // the plain clock has no events array
        assertThat(text.indexOf("\"events\"")).isEqualTo(text.lastIndexOf("\"events\""));
        Files.writeString(f, text.replace("\"step\": -3000000", "\"stop\": -3000000"));
        assertThatThrownBy(() -> TruthFile.read(f)).isInstanceOf(TraceFormatException.class)
                .hasMessage(f + ":nodes[1].events[1]: expected {\"at\": t, \"rate\": r} or {\"at\": t, \"step\": ns}");
    }

    @Test
    void pythonReprForms() {
        assertThat(TruthFile.pythonRepr(0.0)).isEqualTo("0.0");
        assertThat(TruthFile.pythonRepr(1.0)).isEqualTo("1.0");
        assertThat(TruthFile.pythonRepr(1e-4)).isEqualTo("0.0001");
        assertThat(TruthFile.pythonRepr(1e-5)).isEqualTo("1e-05");
        assertThat(TruthFile.pythonRepr(1.5e16)).isEqualTo("1.5e+16");
        assertThat(TruthFile.pythonRepr(123456.5)).isEqualTo("123456.5");
    }

    @Test
    void badTruthNamesTheField() throws IOException {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, "{\"T0\": 1.5, \"nodes\": []}");
        assertThatThrownBy(() -> TruthFile.read(f)).isInstanceOf(TraceFormatException.class)
                .hasMessage(f + ":T0: expected an int64 integer");
        Files.writeString(f, "{\"T0\": 1, \"nodes\": [{\"name\": \"a\", \"alpha\": 0}]}");
        assertThatThrownBy(() -> TruthFile.read(f)).hasMessage(f + ":beta: expected a number");
        Files.writeString(f, "{\"T0\": 1, ");
        assertThatThrownBy(() -> TruthFile.read(f)).isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":line 1: not valid JSON");
    }
}
