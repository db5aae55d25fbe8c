package org.tracesync.formats.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.formats.TraceFormatException;

/** The JSON-lines form of latency events, and one clear message per bad line. */
class LatencyJsonLinesReaderTest {

    @TempDir
    Path tmp;

    @Test
    void readsChainedSimpleAndMessageEventsOfSeveralNodesExactly() throws Exception {
        Path f = tmp.resolve("mixed.jsonl");
        Files.writeString(f, """
                {"node":"w","t":1700000597722612135,"event":"order","seq":17,"step":2}
                {"node":"w","t":1700000597722612136,"event":"render","seq":17,"phase":"start"}

                {"node":"v","t":9223372036854775807,"event":"render","seq":17,"phase":"stop","extra":[1,2]}
                {"node":"v","t":1700000597722612999,"dir":"send","msg":42}
                {"node":"w","t":1700000597722613000,"dir":"recv","msg":"42"}
                """);
        LatencyEvents ev = new LatencyEvents();
        assertThat(LatencyJsonLinesReader.read(f, ev)).isEqualTo(5);
        assertThat(ev.nodeNames()).containsExactly("w", "v");
        assertThat(ev.kind(0)).isEqualTo(LatencyEvents.STEP);
        assertThat(ev.time(0)).isEqualTo(1700000597722612135L);
        assertThat(ev.step(0)).isEqualTo(2);
        assertThat(ev.seq(0)).isEqualTo(17);
        assertThat(ev.kind(1)).isEqualTo(LatencyEvents.START);
        assertThat(ev.kind(2)).isEqualTo(LatencyEvents.STOP);
        assertThat(ev.time(2)).isEqualTo(Long.MAX_VALUE);
        assertThat(ev.node(2)).isEqualTo(1);
        assertThat(ev.kind(3)).isEqualTo(LatencyEvents.SEND);
        assertThat(ev.kind(4)).isEqualTo(LatencyEvents.RECEIVE);
        assertThat(ev.messageId(ev.event(3))).isEqualTo("42");
        assertThat(ev.event(3)).isEqualTo(ev.event(4));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "{\"node\":\"w\",\"t\":1.5e18,\"event\":\"o\",\"seq\":1,\"step\":1}|\"t\" must be an integer",
        "{\"node\":\"w\",\"t\":-5,\"event\":\"o\",\"seq\":1,\"step\":1}|is negative",
        "{\"node\":\"w\",\"t\":5,\"event\":\"o\",\"step\":1}|missing \"seq\"",
        "{\"node\":\"w\",\"t\":5,\"event\":\"o\",\"seq\":1}|missing \"step\" (chained event) or \"phase\"",
        "{\"node\":\"w\",\"t\":5,\"event\":\"o\",\"seq\":1,\"step\":1,\"phase\":\"start\"}|\"step\" and \"phase\" together",
        "{\"node\":\"w\",\"t\":5,\"event\":\"o\",\"seq\":1,\"phase\":\"begin\"}|\"phase\" must be \"start\" or \"stop\"",
        "{\"node\":\"w\",\"t\":5,\"event\":\"o\",\"seq\":1,\"step\":4294967296}|does not fit in 32 bits",
        "{\"node\":\"w\",\"t\":5}|neither a latency event",
        "{\"t\":5,\"event\":\"o\",\"seq\":1,\"step\":1}|needs \"node\"",
        "{\"node\":\"w\",\"t\":5,\"dir\":\"send\"}|needs \"dir\"",
        "{\"node\":\"w\",\"t\":5,\"event\":\"o\",\"seq\":1,\"step\":1,\"seq\":2}|not valid JSON",
        "[1,2]|expected a JSON object",
        "{\"node\":\"w\",\"t\":5,\"event\":\"o\",\"seq\":1,\"step\":1} {}|unexpected data after"})
    void aBadLineNamesTheFileAndTheLine(String line, String expected) throws Exception {
        Path f = tmp.resolve("bad.jsonl");
        Files.writeString(f, "{\"node\":\"w\",\"t\":1,\"event\":\"o\",\"seq\":1,\"step\":1}\n" + line + "\n");
        assertThatThrownBy(() -> LatencyJsonLinesReader.read(f, new LatencyEvents()))
                .isInstanceOf(TraceFormatException.class)
                .hasMessageStartingWith(f + ":line 2: ")
                .hasMessageContaining(expected);
    }
}
