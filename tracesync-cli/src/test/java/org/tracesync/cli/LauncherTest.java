package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #12 "Also": bin/tracesync works through (chains of relative) symlinks, e.g. one in ~/bin. Issue #17:
 * it chooses C1 alone below 512 MiB of input and C2 above, a directory counting twice its bytes, and G1 instead
 * of ParallelGC below 32 MiB, unless TRACESYNC_JAVA_OPTS says otherwise.
 */
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

    private static final long THRESHOLD = 512L << 20;
    private static final long G1_THRESHOLD = 32L << 20;
    private static final String C1 = "-Xmx1g -XX:+UseParallelGC -XX:TieredStopAtLevel=1 -XX:Tier3InvocationThreshold=2000"
            + " -XX:Tier3MinInvocationThreshold=1000 -XX:Tier3CompileThreshold=20000";
    private static final String C2 = C1.replace("TieredStopAtLevel=1", "TieredStopAtLevel=4");
    private static final String G1_C1 = C1.replace("UseParallelGC", "UseG1GC");

    @Test
    void theLauncherChoosesC1AloneBelow512MiBOfInputAndC2Above() throws Exception {
        Path small = Files.writeString(dir.resolve("small.txt"), "2\n0 1 1.0 2.0\n");
        Path below = sparse("below.txt", THRESHOLD - 1);
        Path at = sparse("at.txt", THRESHOLD);
        Path half = sparse("half.txt", THRESHOLD / 2);
        Path trace = Files.createDirectories(dir.resolve("ctf-trace")); // counts twice: at the threshold
        sparse("ctf-trace/channel0_0", THRESHOLD / 4);
        sparse("ctf-trace/channel0_1", THRESHOLD / 4);
        Path smallTrace = Files.createDirectories(dir.resolve("small-trace")); // twice is 3/4 of the threshold
        sparse("small-trace/channel0_0", THRESHOLD / 4);
        sparse("small-trace/channel0_1", THRESHOLD / 8);
        Path g1Trace = Files.createDirectories(dir.resolve("g1-trace")); // twice is the G1 threshold (and more)
        sparse("g1-trace/channel0_0", G1_THRESHOLD / 2);
        Path link = Files.createSymbolicLink(dir.resolve("link.txt"), at);

        Path belowG1 = sparse("below-g1.txt", G1_THRESHOLD - 1);
        Path atG1 = sparse("at-g1.txt", G1_THRESHOLD);

        assertThat(javaOptions(Map.of(), "--version")).isEqualTo(G1_C1); // no input at all
        assertThat(javaOptions(Map.of(), "sync", small.toString(), "-q")).isEqualTo(G1_C1);
        assertThat(javaOptions(Map.of(), "sync", belowG1.toString())).isEqualTo(G1_C1);
        assertThat(javaOptions(Map.of(), "sync", atG1.toString())).isEqualTo(C1);
        assertThat(javaOptions(Map.of(), "sync", below.toString())).isEqualTo(C1);
        assertThat(javaOptions(Map.of(), "sync", at.toString())).isEqualTo(C2);
        assertThat(javaOptions(Map.of(), "sync", half.toString(), below.toString())).isEqualTo(C2); // the sum counts
        assertThat(javaOptions(Map.of(), "sync", trace.toString())).isEqualTo(C2); // a directory: its files, twice
        assertThat(javaOptions(Map.of(), "sync", smallTrace.toString())).isEqualTo(C1);
        assertThat(javaOptions(Map.of(), "sync", g1Trace.toString())).isEqualTo(C1);
        assertThat(javaOptions(Map.of(), "sync", smallTrace.toString(), half.toString())).isEqualTo(C2); // 3/4 + 1/2
        assertThat(javaOptions(Map.of(), "sync", link.toString())).isEqualTo(C2); // a link: what it names
        assertThat(javaOptions(Map.of(), "sync", "--", "-x-", at.toString())).isEqualTo(C2);
        // an output, even an existing large one, is not input
        assertThat(javaOptions(Map.of(), "sync", small.toString(), "-o", at.toString())).isEqualTo(G1_C1);
        assertThat(javaOptions(Map.of(), "apply", small.toString(), "--out", trace.toString())).isEqualTo(G1_C1);
        // a user's options replace the choice, whatever the input
        assertThat(javaOptions(Map.of("TRACESYNC_JAVA_OPTS", "-Xmx4g"), "sync", at.toString())).isEqualTo("-Xmx4g");
        assertThat(javaOptions(Map.of("TRACESYNC_JAVA_OPTS", "-Xmx4g"), "sync", small.toString())).isEqualTo("-Xmx4g");
    }

    private Path sparse(String name, long length) throws IOException {
        Path file = dir.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
        return file;
    }

    /**
     * The JVM options a copy of the launcher passes to java for {@code args}, before {@code -jar}: a stub
     * {@code java} first on the PATH prints its arguments (the copy has no archive or start jar beside its jar).
     */
    private String javaOptions(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Path repo = dir.resolve("repo");
        Path launcher = repo.resolve("bin/tracesync");
        Path stubs = dir.resolve("stubs");
        if (!Files.exists(launcher)) {
            Files.createDirectories(launcher.getParent());
            Files.copy(SimulateCommandTest.repository().resolve("bin/tracesync"), launcher);
            launcher.toFile().setExecutable(true);
            Files.createDirectories(repo.resolve("tracesync-cli/target"));
            Files.write(repo.resolve("tracesync-cli/target/tracesync.jar"), new byte[0]);
            Files.createDirectories(stubs);
            Files.writeString(stubs.resolve("java"), "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done\n");
            stubs.resolve("java").toFile().setExecutable(true);
        }
        List<String> command = new ArrayList<>(List.of(launcher.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).directory(dir.toFile());
        pb.environment().remove("TRACESYNC_JAVA_OPTS");
        pb.environment().putAll(env);
        pb.environment().put("PATH", stubs + ":" + pb.environment().get("PATH"));
        Process p = pb.start();
        List<String> printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).as(String.join("\n", printed)).isZero();
        int jar = printed.indexOf("-jar");
        assertThat(jar).as(String.join("\n", printed)).isPositive();
        List<String> rest = new ArrayList<>(List.of(repo.resolve("tracesync-cli/target/tracesync.jar").toString()));
        rest.addAll(List.of(args));
        assertThat(printed.subList(jar + 1, printed.size())).containsExactlyElementsOf(rest);
        return String.join(" ", printed.subList(0, jar));
    }
}
