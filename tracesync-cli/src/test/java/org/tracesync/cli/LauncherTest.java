package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #12 "Also": bin/tracesync works through (chains of relative) symlinks, e.g. one in ~/bin. */
class LauncherTest {

    @TempDir
    Path dir;

    @Test
    void theLauncherFindsTheRepositoryThroughSymlinks() throws Exception {
        Path repository = SimulateCommandTest.repository();
        Path launcher = repository.resolve("bin/tracesync");
        Path a = Files.createDirectories(dir.resolve("a"));
        Path b = Files.createDirectories(dir.resolve("b"));
        Files.createSymbolicLink(a.resolve("ts"), launcher);
        Files.createSymbolicLink(b.resolve("ts"), Path.of("../a/ts")); // a relative link to a link
        Path c = Files.createDirectories(dir.resolve("c"));
        Files.createSymbolicLink(c.resolve("bin"), repository.resolve("bin")); // a linked bin directory
        Path jar = repository.resolve("tracesync-cli/target/tracesync.jar");
        check(b.resolve("ts"), jar);
        check(c.resolve("bin/tracesync"), jar);
    }

    private void check(Path launcher, Path jar) throws Exception {
        Process p = new ProcessBuilder(launcher.toString(), "--version").redirectErrorStream(true)
                .directory(dir.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        if (Files.isRegularFile(jar)) {
            assertThat(code).as(out).isZero();
            assertThat(out).startsWith("tracesync ");
        } else {
            // tests run before 'package': the launcher still names the repository's jar, not the link's directory
            assertThat(code).isEqualTo(2);
            assertThat(out).startsWith("tracesync: " + jar + " is missing");
        }
    }

    @Test
    void theLauncherSaysHowToBuildWhenTheJarIsMissing() throws IOException, InterruptedException {
        Path copy = Files.createDirectories(dir.resolve("repo/bin"));
        Files.copy(SimulateCommandTest.repository().resolve("bin/tracesync"), copy.resolve("tracesync"));
        copy.resolve("tracesync").toFile().setExecutable(true);
        Process p = new ProcessBuilder(copy.resolve("tracesync").toString(), "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isEqualTo(2);
        assertThat(out.strip()).isEqualTo("tracesync: " + dir.resolve("repo").toRealPath()
                + "/tracesync-cli/target/tracesync.jar is missing; build it first with:  mvn -q -DskipTests package  (in "
                + dir.resolve("repo").toRealPath() + ")");
    }
}
