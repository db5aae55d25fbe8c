package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tracesync inspect CAPTURE}: checked against tshark on a real capture. */
class InspectCaptureTest {

    @TempDir
    Path tmp;

    /** tshark's output lines for one field, with an optional display filter. */
    private static List<String> tshark(Path f, String filter, String field) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", f.toString()));
        if (filter != null) {
            cmd.addAll(List.of("-Y", filter));
        }
        cmd.addAll(List.of("-T", "fields", "-e", field));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            if ("1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
                throw e;
            }
            assumeTrue(false, "tshark not installed: skipping");
            return List.of();
        }
        List<String> lines = new String(p.getInputStream().readAllBytes()).lines().toList();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return lines;
    }

    private static long ns(String epochSeconds) {
        return new BigDecimal(epochSeconds).movePointRight(9).longValueExact();
    }

    @Test
    void aRealCaptureAgreesWithTshark() throws Exception {
        Path h2 = CaptureEndToEndTest.threeHosts().resolve("h2.pcap");
        CommandRun run = CommandRun.of("inspect", h2.toString(), "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(run.out());
        List<String> times = tshark(h2, null, "frame.time_epoch");
        assertThat(j.get("format").asText()).isEqualTo("pcap");
        assertThat(j.get("node").asText()).isEqualTo("h2");
        assertThat(j.get("addresses").get(0).asText()).isEqualTo("10.200.2.1");
        assertThat(j.get("address_source").asText()).startsWith("inferred from the traffic");
        assertThat(j.get("interfaces").get(0).get("link_type_name").asText()).isEqualTo("Ethernet");
        assertThat(j.get("packets").asLong()).isEqualTo(times.size());
        assertThat(j.get("first").asLong()).isEqualTo(ns(times.get(0)));
        assertThat(j.get("last").asLong()).isEqualTo(ns(times.get(times.size() - 1)));
        assertThat(j.get("tcp").asLong()).isEqualTo(tshark(h2, "tcp", "frame.number").size());
        assertThat(j.get("tcp_with_payload").asLong()).isEqualTo(tshark(h2, "tcp.len > 0", "frame.number").size());
        assertThat(j.get("udp").asLong()).isEqualTo(tshark(h2, "udp", "frame.number").size());
        assertThat(j.get("backward_steps").asLong()).isZero();

        CommandRun text = CommandRun.of("inspect", h2.toString());
        assertThat(text.exitCode()).isZero();
        assertThat(text.out()).contains("node:       h2", "10.200.2.1 (inferred", "link type 1 (Ethernet)",
                "packets:    " + times.size() + ": TCP");
    }

    @Test
    void aPcapngNamesItsInterfaceAddresses() throws Exception {
        Path sim = tmp.resolve("sim");
        CommandRun run = CommandRun.of("simulate", "--nodes", "3", "--duration", "1s", "--rate", "20", "--broadcast", "5",
                "--format", "pcap", "-o", sim.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        run = CommandRun.of("inspect", sim.resolve("h2.pcapng").toString(), "--json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(run.out());
        assertThat(j.get("format").asText()).isEqualTo("pcapng");
        assertThat(j.get("address_source").asText()).startsWith("pcapng interface options");
        assertThat(j.get("addresses").get(0).asText()).isEqualTo(j.get("interfaces").get(0).get("addresses").get(0).asText());
        assertThat(j.get("udp_broadcast_or_multicast").asLong()).isPositive();
        assertThat(j.get("packets").asLong()).isEqualTo(j.get("tcp").asLong() + j.get("udp").asLong()
                + j.get("other_ip").asLong() + j.get("not_ip").asLong());
    }

    @Test
    void aTruncatedCaptureIsAnInputErrorWithItsOffset() throws Exception {
        Path h1 = CaptureEndToEndTest.threeHosts().resolve("h1.pcap");
        byte[] all = java.nio.file.Files.readAllBytes(h1);
        Path cut = tmp.resolve("cut.pcap");
        java.nio.file.Files.write(cut, java.util.Arrays.copyOf(all, 5000));
        CommandRun run = CommandRun.of("inspect", cut.toString());
        assertThat(run.exitCode()).isEqualTo(3);
        assertThat(run.err().strip()).contains("cut.pcap").contains("offset").doesNotContain("\n").doesNotContain("Exception");
    }
}
