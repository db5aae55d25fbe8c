package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Locates ../shared/data/ctf traces and babeltrace2; skips (or fails under CI) when absent. */
final class SharedCtfData {

    private SharedCtfData() {
    }

    private static boolean required() {
        return "1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"));
    }

    static Path trace(String name) {
        String root = System.getProperty("tracesync.shared.data", "../shared/data");
        Path p = Path.of(root, "ctf", name);
        if (!Files.isDirectory(p)) {
            if (required()) {
                fail("shared test data missing: " + p + " (TRACESYNC_REQUIRE_SHARED_DATA=1)");
            }
            assumeTrue(false, "shared test data absent (" + p + "): test skipped");
        }
        return p;
    }

    static boolean babeltraceAvailable() {
        try {
            Process p = new ProcessBuilder("babeltrace2", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    static void requireBabeltrace() {
        if (!babeltraceAvailable()) {
            if (required()) {
                fail("babeltrace2 not installed (TRACESYNC_REQUIRE_SHARED_DATA=1)");
            }
            assumeTrue(false, "babeltrace2 not installed: test skipped");
        }
    }

    /** Runs babeltrace2 with those arguments; returns its standard output lines. */
    static List<String> babeltrace(Path workDir, List<String> args) throws IOException, InterruptedException {
        Path out = Files.createTempFile(workDir, "bt2-", ".txt");
        Path err = Files.createTempFile(workDir, "bt2-", ".err");
        Process p = new ProcessBuilder(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            fail("babeltrace2 timed out");
        }
        if (p.exitValue() != 0) {
            fail("babeltrace2 failed (" + p.exitValue() + "): " + Files.readString(err));
        }
        return Files.readAllLines(out);
    }
}
