package org.tracesync.formats.pcap;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Locates ../shared/data/pcap and runs tshark for the tests. */
final class SharedCaptures {
    private SharedCaptures() {
    }

    static Path threeHosts() {
        String dir = System.getProperty("tracesync.shared.data", "../../shared/data");
        Path p = Path.of(dir, "pcap", "three-hosts");
        boolean present = Files.isDirectory(p);
        if (!present && "1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
            throw new IllegalStateException("shared data required but absent: " + p);
        }
        assumeTrue(present, "shared test data absent (" + p + "): skipping");
        return p;
    }

    static boolean tsharkAvailable() {
        try {
            Process pr = new ProcessBuilder("tshark", "-v").redirectErrorStream(true).start();
            pr.getInputStream().readAllBytes();
            return pr.waitFor(30, TimeUnit.SECONDS) && pr.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static void assumeTshark() {
        boolean ok = tsharkAvailable();
        if (!ok && "1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
            throw new IllegalStateException("tshark required but absent");
        }
        assumeTrue(ok, "tshark not installed: skipping");
    }

    /** tshark -r FILE -T fields -E separator=/t -e F1 -e F2 ...: one String[] per packet. */
    static List<String[]> tsharkFields(Path file, String... fields) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("tshark", "-n", "-r", file.toString(), "-T", "fields",
                "-E", "separator=/t", "-E", "occurrence=f"));
        for (String f : fields) {
            cmd.add("-e");
            cmd.add(f);
        }
        Process pr = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<String[]> rows = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(pr.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                rows.add(line.split("\t", -1));
            }
        }
        if (!pr.waitFor(120, TimeUnit.SECONDS) || pr.exitValue() != 0) {
            throw new IOException("tshark failed on " + file);
        }
        return rows;
    }

    /** Exact decimal seconds ("1795276271.412493002") → ns. */
    static long seconds(String s) {
        int dot = s.indexOf('.');
        if (dot < 0) {
            return Long.parseLong(s) * 1_000_000_000L;
        }
        String frac = (s.substring(dot + 1) + "000000000").substring(0, 9);
        return Long.parseLong(s.substring(0, dot)) * 1_000_000_000L + Long.parseLong(frac);
    }
}
