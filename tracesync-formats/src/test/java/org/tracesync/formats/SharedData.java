package org.tracesync.formats;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The shared test traces (../shared/data beside the repository). Tests that need them skip with
 * a message when the directory is absent (a fresh clone), and fail instead when
 * TRACESYNC_REQUIRE_SHARED_DATA=1 (CI always has them).
 */
public final class SharedData {

    private SharedData() {
    }

    public static Path dir() {
        String prop = System.getProperty("tracesync.shared.data");
        Path p = prop != null ? Path.of(prop) : Path.of("..", "..", "shared", "data");
        if (!Files.isDirectory(p)) {
            String msg = "shared test data not found at " + p.toAbsolutePath().normalize()
                    + " (expected ../shared/data beside the repository)";
            if ("1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
                fail(msg);
            }
            assumeTrue(false, msg + "; skipping");
        }
        return p;
    }

    public static Path file(String relative) {
        return dir().resolve(relative);
    }
}
