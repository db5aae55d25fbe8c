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
    private static final String C2 = C1.replace("TieredStopAtLevel=1", "TieredStopAtLevel=4") + " -XX:FreqInlineSize=250";
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
        // nor is the value of another option, even when it names an existing file
        assertThat(javaOptions(Map.of(), "apply", small.toString(), small.toString(), "--annotate-field", at.toString()))
                .isEqualTo(G1_C1);
        assertThat(javaOptions(Map.of(), "sync", small.toString(), "--rtt", at.toString())).isEqualTo(G1_C1);
        assertThat(javaOptions(Map.of(), "sync", "--name", at.toString(), small.toString())).isEqualTo(G1_C1);
        // an option's value given with '=' is one word, which names no file
        assertThat(javaOptions(Map.of(), "sync", "--name=" + at, at.toString())).isEqualTo(C2);
        // a user's options replace the choice, whatever the input
        assertThat(javaOptions(Map.of("TRACESYNC_JAVA_OPTS", "-Xmx4g"), "sync", at.toString())).isEqualTo("-Xmx4g");
        assertThat(javaOptions(Map.of("TRACESYNC_JAVA_OPTS", "-Xmx4g"), "sync", small.toString())).isEqualTo("-Xmx4g");
    }

    /**
     * With C2 (512 MiB of input and more), the launcher gives the JVM the directives file beside it, which
     * keeps the code run once per pair after the read at C1, and hides the JVM's line announcing it; only
     * when every JVM option is the launcher's own, since -DisplayVMOutput would also hide the JVM's message
     * about an option it refuses. Not with C1 alone, nor when the user's options replace the launcher's.
     */
    @Test
    void theLauncherKeepsTheFitAtC1WithItsDirectivesFile() throws Exception {
        Path small = Files.writeString(dir.resolve("small.txt"), "2\n0 1 1.0 2.0\n");
        Path at = sparse("at.txt", THRESHOLD);
        javaOptions(Map.of(), "--version"); // makes the launcher's copy
        assertThat(javaOptions(Map.of(), "sync", at.toString())).isEqualTo(C2); // no file beside it: nothing
        Path directives = dir.resolve("repo/bin/jit-directives.json");
        Files.copy(SimulateCommandTest.repository().resolve("bin/jit-directives.json"), directives);
        String jit = " -XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput -XX:CompilerDirectivesFile=" + directives;
        assertThat(javaOptions(Map.of(), "sync", at.toString())).isEqualTo(C2 + jit);
        assertThat(javaOptions(Map.of(), "sync", small.toString())).isEqualTo(G1_C1);
        assertThat(javaOptions(Map.of("JAVA_TOOL_OPTIONS", "-Xss2m"), "sync", at.toString())).isEqualTo(C2);
        assertThat(javaOptions(Map.of("JDK_JAVA_OPTIONS", "-Xss2m"), "sync", at.toString())).isEqualTo(C2);
        assertThat(javaOptions(Map.of("TRACESYNC_JAVA_OPTS", "-Xmx4g"), "sync", at.toString())).isEqualTo("-Xmx4g");
    }

    /** This JVM reads the launcher's directives file: one directive, no error (a bad file stops the JVM, silently). */
    @Test
    void theDirectivesFileIsOneThisJvmReads() throws Exception {
        Path directives = SimulateCommandTest.repository().resolve("bin/jit-directives.json");
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-XX:+UnlockDiagnosticVMOptions",
                "-XX:CompilerDirectivesFile=" + directives, "-version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).as(out).startsWith("1 compiler directives added");
    }

    /**
     * Every class and method the directives file names exists, so that a rename cannot turn it into a file
     * that matches nothing: "pkg/Class.method" names a method (or constructor, {@code <init>}) that the
     * class declares; "pkg/*.*" a package, which must hold the class this test names for it.
     */
    @Test
    void everyClassAndMethodTheDirectivesNameExists() throws Exception {
        String text = Files.readString(SimulateCommandTest.repository().resolve("bin/jit-directives.json"));
        Map<String, String> packages = Map.of(
                "org/tracesync/core/estimate/", "org.tracesync.core.estimate.PiecewiseEstimator",
                "org/tracesync/formats/result/", "org.tracesync.formats.result.ResultFile",
                "jdk/internal/math/", "jdk.internal.math.FloatingDecimal");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"([^\"]+)\"").matcher(
                text.replaceAll("(?m)^\\s*//.*$", ""));
        int named = 0;
        while (m.find()) {
            String pattern = m.group(1);
            named++;
            if (pattern.endsWith("/*.*")) {
                String pkg = pattern.substring(0, pattern.length() - 3);
                assertThat(packages).as("a class of package %s for this test", pkg).containsKey(pkg);
                Class<?> c = Class.forName(packages.get(pkg), false, getClass().getClassLoader());
                assertThat(c.getPackageName().replace('.', '/') + "/").isEqualTo(pkg);
                continue;
            }
            int dot = pattern.lastIndexOf('.');
            assertThat(dot).as(pattern).isPositive();
            Class<?> c = Class.forName(pattern.substring(0, dot).replace('/', '.'), false, getClass().getClassLoader());
            String method = pattern.substring(dot + 1);
            boolean found = method.equals("<init>") ? c.getDeclaredConstructors().length > 0
                    : java.util.Arrays.stream(c.getDeclaredMethods()).anyMatch(x -> x.getName().equals(method));
            assertThat(found).as("%s declares %s", c.getName(), method).isTrue();
        }
        assertThat(named).isEqualTo(9);
    }

    /** The launcher starts the jar's main class by name (-cp, not -jar): the one the build writes into the manifest. */
    @Test
    void theLauncherStartsTheMainClassTheJarsManifestNames() throws IOException {
        String launcher = Files.readString(SimulateCommandTest.repository().resolve("bin/tracesync"));
        String pom = Files.readString(SimulateCommandTest.repository().resolve("tracesync-cli/pom.xml"));
        String main = TracesyncCommand.class.getName();
        assertThat(launcher).contains("-cp \"$jar\" " + main + " \"$@\"");
        assertThat(pom).contains("<mainClass>" + main + "</mainClass>");
    }

    /**
     * With the build's archive beside the jar, the launcher maps it, at the address it was written for
     * (ArchiveRelocationMode=0), before the JVM options, so that TRACESYNC_JAVA_OPTS can override that too.
     */
    @Test
    void theLauncherMapsTheArchiveAtItsOwnAddressUnlessTold() throws Exception {
        Path small = Files.writeString(dir.resolve("small.txt"), "2\n0 1 1.0 2.0\n");
        javaOptions(Map.of(), "--version"); // makes the launcher's copy
        Path jsa = Files.write(dir.resolve("repo/tracesync-cli/target/tracesync.jsa"), new byte[0]);
        String cds = "-XX:SharedArchiveFile=" + jsa + " -Xlog:cds=off -Xlog:cds+dynamic=off"
                + " -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0";
        assertThat(javaOptions(Map.of(), "sync", small.toString())).isEqualTo(cds + " " + G1_C1);
        assertThat(javaOptions(Map.of("TRACESYNC_JAVA_OPTS", "-XX:ArchiveRelocationMode=1"), "--version"))
                .isEqualTo(cds + " -XX:ArchiveRelocationMode=1");
    }

    /**
     * The launcher's list of options whose value is not input is every option, of every command, that
     * takes a value: each one's value is skipped when the launcher sizes the input. (An option whose
     * value is optional, such as simulate's {@code --broadcast [PER_S]}, is not in it: what follows it may
     * be a file; none of them is an input option.)
     */
    @Test
    void theLaunchersListOfOptionsWithAValueIsTheCommandLinesOne() throws IOException {
        String launcher = Files.readString(SimulateCommandTest.repository().resolve("bin/tracesync"));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\n\\s*(-o\\|[^)]*)\\) skip=1 ;;").matcher(launcher);
        assertThat(m.find()).as("the launcher's case branch '-o|…) skip=1 ;;'").isTrue();
        java.util.Set<String> listed = new java.util.TreeSet<>();
        for (String name : m.group(1).replaceAll("\\\\\\n\\s*", "").split("\\|")) {
            listed.add(name.strip());
        }
        java.util.Set<String> withValue = new java.util.TreeSet<>();
        java.util.Set<String> optionalValue = new java.util.TreeSet<>();
        optionsTakingValues(TracesyncCommand.newCommandLine(), withValue, optionalValue);
        assertThat(withValue).contains("-o", "--output", "--out", "--merge", "--annotate-field", "--rtt", "--name");
        assertThat(listed).isEqualTo(withValue);
        assertThat(optionalValue).isEqualTo(java.util.Set.of("--broadcast")); // a rate, never a file
    }

    private static void optionsTakingValues(picocli.CommandLine cl, java.util.Set<String> required, java.util.Set<String> optional) {
        for (picocli.CommandLine.Model.OptionSpec option : cl.getCommandSpec().options()) {
            if (option.arity().min() > 0) {
                required.addAll(List.of(option.names()));
            } else if (option.arity().max() > 0) {
                optional.addAll(List.of(option.names()));
            }
        }
        for (picocli.CommandLine sub : cl.getSubcommands().values()) {
            optionsTakingValues(sub, required, optional);
        }
    }

    private Path sparse(String name, long length) throws IOException {
        Path file = dir.resolve(name);
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(length);
        }
        return file;
    }

    /**
     * The JVM options a copy of the launcher passes to java for {@code args}, before {@code -cp}: a stub
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
        pb.environment().remove("JAVA_TOOL_OPTIONS");
        pb.environment().remove("JDK_JAVA_OPTIONS");
        pb.environment().putAll(env);
        pb.environment().put("PATH", stubs + ":" + pb.environment().get("PATH"));
        Process p = pb.start();
        List<String> printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertThat(p.waitFor()).as(String.join("\n", printed)).isZero();
        int jar = printed.indexOf("-cp");
        assertThat(jar).as(String.join("\n", printed)).isPositive();
        List<String> rest = new ArrayList<>(List.of(repo.resolve("tracesync-cli/target/tracesync.jar").toString(),
                TracesyncCommand.class.getName()));
        rest.addAll(List.of(args));
        assertThat(printed.subList(jar + 1, printed.size())).containsExactlyElementsOf(rest);
        return String.join(" ", printed.subList(0, jar));
    }
}
