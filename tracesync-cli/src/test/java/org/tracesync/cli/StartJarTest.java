package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The build step src/build/StartJar.java (tracesync-cli/pom.xml) writes the small jar bin/tracesync
 * starts: run here on a jar of picocli whose main class is picocli's own command
 * ({@code picocli.AutoComplete}), trained on {@code --help}. The start jar holds just the classes that
 * run loaded and names the full jar on its Class-Path; run from it, the trained command prints byte
 * for byte what the full jar prints, and a command that needs classes the start jar lacks (a
 * completion script) still works, through the Class-Path, and writes the same script.
 */
class StartJarTest {

    @TempDir
    Path dir;

    @Test
    void holds_the_trained_classes_and_runs_as_the_full_jar_does() throws Exception {
        Path full = dir.resolve("app.jar");
        Path start = dir.resolve("app-start.jar");
        withMainClass(JavaRun.locationOf(CommandLine.class), full, "picocli.AutoComplete");
        Path program = SimulateCommandTest.repository().resolve("tracesync-cli/src/build/StartJar.java");

        JavaRun step = JavaRun.of(dir, program.toString(), full.toString(), start.toString(), "--", "--help");
        assertThat(step.code()).as(step.out()).isZero();
        List<String> classes = classes(start);
        assertThat(classes).contains("picocli/AutoComplete.class", "picocli/CommandLine.class").hasSizeLessThan(classes(full).size());
        assertThat(step.out()).contains("holds the " + classes.size() + " classes the training run loaded from app.jar");
        try (JarFile jar = new JarFile(start.toFile())) {
            Attributes main = jar.getManifest().getMainAttributes();
            assertThat(main.getValue(Attributes.Name.CLASS_PATH)).isEqualTo("app.jar");
            assertThat(main.getValue(Attributes.Name.MAIN_CLASS)).isEqualTo("picocli.AutoComplete");
            for (String c : classes) {
                try (JarFile f = new JarFile(full.toFile()); InputStream a = jar.getInputStream(jar.getJarEntry(c));
                        InputStream b = f.getInputStream(f.getJarEntry(c))) {
                    assertThat(a.readAllBytes()).as(c).isEqualTo(b.readAllBytes());
                }
            }
        }

        JavaRun before = JavaRun.of(dir, "-jar", full.toString(), "--help");
        JavaRun after = JavaRun.of(dir, "-jar", start.toString(), "--help");
        assertThat(before.code()).isZero();
        assertThat(before.out()).startsWith("Usage: picocli.AutoComplete");
        assertThat(after).isEqualTo(before);

        // a completion script needs classes the training run did not load: they come from app.jar
        Path scriptBefore = dir.resolve("before.sh");
        Path scriptAfter = dir.resolve("after.sh");
        String command = "picocli.CommandLine$HelpCommand";
        assertThat(JavaRun.of(dir, "-jar", full.toString(), "-n", "h", "-o", scriptBefore.toString(), command).code()).isZero();
        JavaRun fromStart = JavaRun.of(dir, "-Xlog:class+load", "-jar", start.toString(), "-n", "h", "-o", scriptAfter.toString(), command);
        assertThat(fromStart.code()).as(fromStart.out()).isZero();
        assertThat(fromStart.out()).contains("source: file:" + full.toRealPath()).contains("source: file:" + start.toRealPath());
        assertThat(Files.readString(scriptAfter)).contains("complete -F").isEqualTo(Files.readString(scriptBefore));
    }

    @Test
    void refuses_a_start_jar_away_from_the_full_jar() throws Exception {
        Path full = dir.resolve("app.jar");
        withMainClass(JavaRun.locationOf(CommandLine.class), full, "picocli.AutoComplete");
        Path program = SimulateCommandTest.repository().resolve("tracesync-cli/src/build/StartJar.java");
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere")).resolve("app-start.jar");
        JavaRun step = JavaRun.of(dir, program.toString(), full.toString(), elsewhere.toString(), "--", "--help");
        assertThat(step.code()).isNotZero();
        assertThat(step.out()).contains("must lie beside");
        assertThat(elsewhere).doesNotExist();
    }

    /** {@code source} with a manifest naming {@code mainClass}, written to {@code target}. */
    private static void withMainClass(Path source, Path target, String mainClass) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        try (JarFile in = new JarFile(source.toFile()); OutputStream file = Files.newOutputStream(target);
                JarOutputStream out = new JarOutputStream(file, manifest)) {
            for (Enumeration<JarEntry> e = in.entries(); e.hasMoreElements();) {
                JarEntry entry = e.nextElement();
                if (entry.getName().equals(JarFile.MANIFEST_NAME) || entry.isDirectory()) {
                    continue;
                }
                out.putNextEntry(new JarEntry(entry.getName()));
                try (InputStream bytes = in.getInputStream(entry)) {
                    bytes.transferTo(out);
                }
                out.closeEntry();
            }
        }
    }

    private static List<String> classes(Path jar) throws IOException {
        List<String> out = new ArrayList<>();
        try (JarFile f = new JarFile(jar.toFile())) {
            f.stream().map(JarEntry::getName).filter(n -> n.endsWith(".class")).forEach(out::add);
        }
        return out;
    }
}
