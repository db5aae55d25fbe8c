package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A finished run of this JDK's {@code java} in its own process, as the build steps of
 * tracesync-cli/pom.xml run: its exit code and what it printed (stdout and stderr, interleaved).
 */
record JavaRun(int code, String out) {

    /** Runs {@code java ARGS...}, its output kept in {@code dir/out.txt}, for at most 5 minutes. */
    static JavaRun of(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as(String.join(" ", command)).isTrue();
        return new JavaRun(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    /** The jar (or directory) {@code c} was loaded from. */
    static Path locationOf(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
