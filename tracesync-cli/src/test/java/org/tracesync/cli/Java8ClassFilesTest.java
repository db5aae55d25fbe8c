package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The build step src/build/Java8ClassFiles.java (tracesync-cli/pom.xml) rewrites picocli's Java 5
 * class files as Java 8 ones so that the AppCDS archive can hold them: run here on the picocli jar
 * of the build, every class file comes out as version 52, and picocli's own command
 * ({@code picocli.AutoComplete --help}: annotations, model, usage layout) runs on the JVM's verifier
 * and prints, byte for byte, what the original jar prints.
 */
class Java8ClassFilesTest {

    @TempDir
    Path dir;

    @Test
    void rewrites_picocli_as_version_52_class_files_that_verify_and_behave_the_same() throws Exception {
        Path original = JavaRun.locationOf(CommandLine.class);
        Path rewritten = dir.resolve("picocli.jar");
        Files.copy(original, rewritten);
        Path asm = JavaRun.locationOf(org.objectweb.asm.ClassReader.class);
        Path program = SimulateCommandTest.repository().resolve("tracesync-cli/src/build/Java8ClassFiles.java");

        JavaRun step = JavaRun.of(dir, "-cp", asm.toString(), program.toString(), rewritten.toString(), "picocli/");
        assertThat(step.code()).as(step.out()).isZero();
        int[] versions = versions(rewritten);
        assertThat(versions[0]).as("class files").isGreaterThan(100);
        assertThat(versions[1]).as("class files of version 52").isEqualTo(versions[0]);
        assertThat(versions(original)[1]).as("the original: none of version 52").isZero();
        assertThat(step.out()).contains(versions[0] + " class files under picocli/ rewritten as version 52");

        JavaRun before = JavaRun.of(dir, "-cp", original.toString(), "picocli.AutoComplete", "--help");
        JavaRun after = JavaRun.of(dir, "-Xverify:all", "-cp", rewritten.toString(), "picocli.AutoComplete", "--help");
        assertThat(before.code()).isZero();
        assertThat(before.out()).startsWith("Usage: picocli.AutoComplete");
        assertThat(after).isEqualTo(before);
    }

    /** {number of class files under picocli/, number of those with major version 52}. */
    private static int[] versions(Path jar) throws IOException {
        int[] n = new int[2];
        try (FileSystem zip = FileSystems.newFileSystem(jar); Stream<Path> s = Files.walk(zip.getPath("/picocli"))) {
            for (Path c : s.filter(p -> p.toString().endsWith(".class")).toList()) {
                byte[] b = Files.readAllBytes(c);
                n[0]++;
                if (((b[6] & 0xff) << 8 | (b[7] & 0xff)) == 52) {
                    n[1]++;
                }
            }
        }
        return n;
    }
}
