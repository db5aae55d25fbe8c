package org.tracesync.spark;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Locates ../shared/data (three-hosts captures, CTF traces); skips (or, in CI, fails) when it is absent. */
final class SharedCaptures {
    private SharedCaptures() {
    }

    static List<Path> threeHosts() {
        Path p = shared("pcap", "three-hosts");
        return List.of(p.resolve("h1.pcap"), p.resolve("h2.pcap"), p.resolve("h3.pcap"));
    }

    /** The two LTTng kernel traces of an scp transfer (TCP add-on events without addresses). */
    static List<Path> scpTraces() {
        Path p = shared("ctf");
        return List.of(p.resolve("scp_src"), p.resolve("scp_dest"));
    }

    private static Path shared(String... parts) {
        String dir = System.getProperty("tracesync.shared.data", "../../shared/data");
        Path p = Path.of(dir, parts);
        boolean present = Files.isDirectory(p);
        if (!present && "1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
            throw new IllegalStateException("shared data required but absent: " + p);
        }
        assumeTrue(present, "shared test data absent (" + p + "): skipping");
        return p;
    }
}
