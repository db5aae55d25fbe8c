package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-network loop (scripts/testbed): network namespaces, real TCP and broadcast traffic,
 * tcpdump on every host, per-host clocks applied by 'skew', then sync and eval against the
 * truth. Runs only where it can: as root with working 'ip netns' (skips with a message otherwise).
 */
class TestbedIntegrationTest {

    @TempDir
    Path tmp;

    private static boolean canRunNamespaces() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return false;
        }
        try {
            Process p = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void realCapturesWithSkewedClocksSynchronizeWithinTheirBounds() throws Exception {
        assumeTrue(canRunNamespaces(), "testbed needs root and 'ip netns': skipping");
        Path script = Path.of("..", "scripts", "testbed", "capture.sh").toAbsolutePath().normalize();
        assumeTrue(Files.exists(script), "scripts/testbed/capture.sh not found from " + Path.of("").toAbsolutePath());
        Path raw = tmp.resolve("raw");
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), raw.toString(), "80")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("capture.log").toFile());
        pb.environment().put("BULK_BYTES", "1000000");
        Process p = pb.start();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).as("capture.sh finished").isTrue();
        assumeTrue(p.exitValue() != 77, "testbed unavailable: " + Files.readString(tmp.resolve("capture.log")));
        assertThat(p.exitValue()).as(Files.readString(tmp.resolve("capture.log"))).isZero();

        List<String> caps = List.of("h1.pcap", "h2.pcap", "h3.pcap");
        List<String> addr = new ArrayList<>();
        for (String line : Files.readAllLines(raw.resolve("addresses"))) {
            addr.add("--node-address");
            addr.add(line);
        }
        Path skewed = tmp.resolve("skewed");
        Path truth = tmp.resolve("truth.json");
        List<String> skew = new ArrayList<>(List.of("skew", "--out", skewed.toString(), "--truth", truth.toString(),
                "--clock", "h2=250000000,-3.5e-5", "--clock", "h3=-730000000,6.1e-5"));
        caps.forEach(c -> skew.add(raw.resolve(c).toString()));
        assertThat(SyncCommandTest.run(skew.toArray(String[]::new)).exit()).isZero();

        Path result = tmp.resolve("r.json");
        List<String> sync = new ArrayList<>(List.of("sync", "-q", "-o", result.toString()));
        caps.forEach(c -> sync.add(skewed.resolve(c).toString()));
        sync.addAll(addr);
        SyncCommandTest.Run s = SyncCommandTest.run(sync.toArray(String[]::new));
        assertThat(s.exit()).as(s.err()).isZero();

        List<String> eval = new ArrayList<>(List.of("eval", result.toString(), "--json", "--truth", truth.toString()));
        caps.forEach(c -> eval.add(skewed.resolve(c).toString()));
        eval.addAll(addr);
        SyncCommandTest.Run e = SyncCommandTest.run(eval.toArray(String[]::new));
        assertThat(e.exit()).as(e.err()).isZero();
        JsonNode j = new ObjectMapper().readTree(e.out());
        assertThat(j.get("messages").asLong()).isGreaterThan(300);
        assertThat(j.get("inversions").asLong()).isZero();
        assertThat(j.get("directions")).hasSize(6);
        assertThat(j.get("truth").get("contained_share").asDouble()).isEqualTo(1.0);
        assertThat(j.get("truth").get("max_error_ns").asDouble()).isLessThan(20_000);
        assertThat(j.get("broadcasts").get("groups").asLong()).isGreaterThan(50);
    }
}
