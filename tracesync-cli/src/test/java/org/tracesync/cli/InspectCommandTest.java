package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.formats.ctf.CtfTrace;
import picocli.CommandLine;

class InspectCommandTest {

    @TempDir
    Path tmp;

    static Path sharedTrace(String name) {
        Path p = Path.of(System.getProperty("tracesync.shared.data", "../shared/data"), "ctf", name);
        if (!Files.isDirectory(p)) {
            if ("1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
                fail("shared test data missing: " + p);
            }
            assumeTrue(false, "shared test data absent (" + p + "): test skipped");
        }
        return p;
    }

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        CommandLine cl = TracesyncCommand.newCommandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void jsonReportCountsEveryEventAndTheBackwardSteps() throws Exception {
        Path dir = sharedTrace("scp_src");
        Run r = run("inspect", dir.toString(), "--json");
        assertThat(r.code()).as(r.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(r.out());

        Map<String, Long> expected = new HashMap<>();
        CtfTrace t = CtfTrace.open(dir);
        t.read(e -> expected.merge(e.eventClass().name(), 1L, Long::sum));
        long total = expected.values().stream().mapToLong(Long::longValue).sum();

        assertThat(j.get("format").asText()).isEqualTo("ctf-1.8");
        assertThat(j.get("node").asText()).isEqualTo("VM1");
        assertThat(j.get("events").asLong()).isEqualTo(total);
        Map<String, Long> byName = new HashMap<>();
        j.get("by_name").fields().forEachRemaining(e -> byName.put(e.getKey(), e.getValue().asLong()));
        assertThat(byName).isEqualTo(expected);
        assertThat(j.get("network").get("layout").asText()).isEqualTo("addon");
        assertThat(j.get("network").get("sends").asLong()).isPositive();
        assertThat(j.get("addresses").toString()).contains("10.0.10.20");
        assertThat(j.get("streams").get(0).get("backward_steps").asLong()).isPositive();
        assertThat(j.get("warnings").get(0).asText()).contains("timestamp goes backwards");
        assertThat(j.get("last").asLong()).isGreaterThan(j.get("first").asLong());
    }

    @Test
    void textReportNamesNodeClockAndLayout() {
        Run r = run("inspect", sharedTrace("bug446190").toString());
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("node:       lager (from env hostname)")
                .contains("clock:      monotonic, 1000000000 Hz")
                .contains("in 4 stream(s)")
                .contains("layout: none")
                .contains("net_dev_queue/netif_receive_skb events carry no IP headers (lttng-modules before 2.9)");
    }

    @Test
    void notATraceIsAnInputErrorOnOneLine() throws Exception {
        Run r = run("inspect", tmp.toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err().strip()).isEqualTo("tracesync: " + tmp + ": a directory without a CTF 'metadata' file: not a CTF trace").doesNotContain("\n").doesNotContain("Exception");
    }

    @Test
    void corruptMetadataIsAnInputErrorNamingTheLine() throws Exception {
        Files.writeString(tmp.resolve("metadata"), "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = le }\n");
        Files.write(tmp.resolve("channel0_0"), new byte[0]);
        Run r = run("inspect", tmp.toString());
        assertThat(r.code()).isEqualTo(3);
        assertThat(r.err()).contains("metadata:line 2").contains("expected ';'");
    }
}
