package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #12 item 17: every {@code bin/tracesync} command in a {@code sh} block of
 * docs/USER_GUIDE.md runs, in document order, from a scratch directory that holds a copy of
 * {@code examples/} and a {@code bin/tracesync} running this build's classes, beside
 * {@code ../shared/data}; each must exit with the code its trailing {@code # exit N} names (0
 * otherwise). A guide that promises a command that fails, or an exit code the tool does not give,
 * fails this test.
 */
class UserGuideExamplesTest {

    @TempDir
    Path dir;

    record Example(int line, String command, int expected) {
    }

    static List<Example> examples(Path guide) throws IOException {
        List<Example> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(guide, StandardCharsets.UTF_8);
        boolean inSh = false;
        Pattern exit = Pattern.compile("#\\s*exit\\s+(\\d+)\\s*$");
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i).strip();
            if (l.startsWith("```")) {
                inSh = !inSh && l.equals("```sh");
                continue;
            }
            if (inSh && l.startsWith("bin/tracesync")) {
                Matcher m = exit.matcher(l);
                out.add(new Example(i + 1, m.find() ? l.substring(0, m.start()).strip() : l,
                        m.find(0) ? Integer.parseInt(m.group(1)) : 0));
            }
        }
        return out;
    }

    @Test
    void everyExampleCommandExitsWithTheCodeTheGuideSays() throws Exception {
        Path repository = SimulateCommandTest.repository();
        Path shared = repository.getParent().resolve("shared");
        boolean haveShared = Files.isDirectory(shared.resolve("data"));
        if (!haveShared && "1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
            throw new AssertionError(shared.resolve("data") + " is missing");
        }
        List<Example> examples = examples(repository.resolve("docs/USER_GUIDE.md"));
        assertThat(examples).as("commands found in the guide").hasSizeGreaterThanOrEqualTo(15);

        Path work = Files.createDirectories(dir.resolve("work"));
        copyTree(repository.resolve("examples"), work.resolve("examples"));
        Path bin = Files.createDirectories(work.resolve("bin"));
        Path launcher = bin.resolve("tracesync");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Files.writeString(launcher, "#!/usr/bin/env bash\nexec " + quote(java) + " -Xmx1g -cp "
                + quote(System.getProperty("java.class.path")) + " org.tracesync.cli.TracesyncCommand \"$@\"\n");
        launcher.toFile().setExecutable(true);
        if (haveShared) {
            Files.createSymbolicLink(dir.resolve("shared"), shared);
        }

        List<String> failures = new ArrayList<>();
        int run = 0;
        for (Example e : examples) {
            if (e.command().contains("../shared/data") && !haveShared) {
                continue; // a fresh clone without the shared data (CI always has it)
            }
            Process p = new ProcessBuilder("bash", "-c", e.command()).directory(work.toFile())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
            assertThat(p.waitFor(10, TimeUnit.MINUTES)).as(e.command()).isTrue();
            run++;
            if (p.exitValue() != e.expected()) {
                String output = Files.readString(dir.resolve("out.txt"));
                failures.add("USER_GUIDE.md line " + e.line() + ": " + e.command() + " exited " + p.exitValue()
                        + ", the guide says " + e.expected() + "\n" + output.substring(0, Math.min(2000, output.length())));
            }
        }
        assumeTrue(run > 0, "no command could run");
        assertThat(failures).as("guide commands whose exit code differs").isEmpty();
        // and the guide's outputs exist where it says
        assertThat(work.resolve("result.json")).isNotEmptyFile();
        assertThat(work.resolve("report.html")).isNotEmptyFile();
        assertThat(work.resolve("merged.pcapng")).isNotEmptyFile();
        assertThat(work.resolve("examples/cluster-3/jsonl/h1.jsonl"))
                .hasSameBinaryContentAs(repository.resolve("examples/cluster-3/jsonl/h1.jsonl"));
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    @Test
    void theExampleParserReadsExitCodes() throws IOException {
        Path g = dir.resolve("g.md");
        Files.writeString(g, "text\n```sh\nbin/tracesync demo\nmvn package\nbin/tracesync x   # exit 2\n```\n"
                + "```\nbin/tracesync not-sh\n```\n");
        assertThat(examples(g)).containsExactly(new Example(3, "bin/tracesync demo", 0),
                new Example(5, "bin/tracesync x", 2));
        assertThat(File.separator).isEqualTo("/");
    }
}
