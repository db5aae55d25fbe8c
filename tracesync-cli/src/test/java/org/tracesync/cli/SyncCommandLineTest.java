package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@link SyncCommandLine} runs the commonest {@code sync} command lines without picocli: on every line it
 * accepts, the command's fields must be what picocli's parse sets, and the run must print, write and exit
 * as picocli's run does; every other line must be left to picocli.
 */
class SyncCommandLineTest {

    @TempDir
    Path dir;

    private static final String TWO = "2\n0 1 1700000000.000487243 1700000000.080661399\n"
            + "1 0 1700000000.080700000 1700000000.000600000\n";

    /** The lines it accepts: inputs with -o/--output, -q/--quiet, --all-pairs, --debug, in any order. */
    private List<List<String>> accepted(Path a, Path b, Path out) {
        String x = a.toString();
        String y = b.toString();
        String o = out.toString();
        return List.of(List.of("sync", x), List.of("sync", x, "-o", o), List.of("sync", x, "-o", o, "-q"),
                List.of("sync", "-q", x, "--output", o), List.of("sync", x, y, "-o", o), List.of("sync", "--quiet", x, y),
                List.of("sync", x, "--all-pairs"), List.of("sync", "--all-pairs", "-o", o, x, "-q"),
                List.of("--debug", "sync", x, "-o", o), List.of("sync", x, "--debug", "-q"), List.of("sync", "sync"),
                List.of("sync", "x y", "-o", o), List.of("sync", "help"), List.of("sync", "./" + x));
    }

    @Test
    void sets_the_fields_picocli_sets() throws Exception {
        Path two = Files.writeString(dir.resolve("two.txt"), TWO);
        for (List<String> line : accepted(two, dir.resolve("missing.txt"), dir.resolve("r.json"))) {
            String[] args = line.toArray(new String[0]);
            SyncCommand fast = SyncCommandLine.parse(args);
            assertThat(fast).as(String.join(" ", line)).isNotNull();
            for (CommandLine cl : List.of(TracesyncCommand.newCommandLine(args), TracesyncCommand.newCommandLine())) {
                CommandLine.ParseResult parsed = cl.parseArgs(args);
                SyncCommand picocli = (SyncCommand) parsed.subcommand().commandSpec().userObject();
                assertThat(state(fast)).as(String.join(" ", line)).isEqualTo(state(picocli)).isNotEmpty();
            }
        }
        // the defaults themselves (generated from the annotations)
        SyncCommand c = SyncCommandLine.parse(new String[] {"sync", "t.txt"});
        assertThat(c.estimation.estimator()).isEqualTo(EstimationOptionsMixin.EstimatorChoice.bisector);
        assertThat(c.estimation.confidence).isEqualTo(0.95);
        assertThat(c.captureOptions.match.windowSeconds).isEqualTo(60.0);
        assertThat(c.repair).isEqualTo(SyncCommand.RepairChoice.auto);
        assertThat(c.spanOptions.pendingSpans).isEqualTo(1048576);
        assertThat(c.inputs).containsExactly(Path.of("t.txt"));
        assertThat(c.output).isNull();
        assertThat(c.spec).isNull();
    }

    @Test
    void leaves_every_other_line_to_picocli() {
        String[][] others = {{}, {"sync"}, {"sync", "-o", "r.json"}, {"sync", "t.txt", "-o"}, {"sync", "t.txt", "-o", "a", "-o", "b"},
            {"sync", "t.txt", "-o", "-q"}, {"sync", "t.txt", "-q", "-q"}, {"sync", "t.txt", "--quiet", "-q"},
            {"sync", "t.txt", "--all-pairs", "--all-pairs"}, {"--debug", "sync", "t.txt", "--debug"},
            {"--debug", "--debug", "sync", "t.txt"}, {"sync", "--", "t.txt"}, {"sync", "@args.txt"}, {"sync", "t.txt", "-qo", "r"},
            {"sync", "t.txt", "-or.json"}, {"sync", "t.txt", "--output=r.json"}, {"sync", "t.txt", "--help"}, {"sync", "t.txt", "-h"},
            {"sync", "t.txt", "-V"}, {"sync", "t.txt", "--version"}, {"sync", "t.txt", "--repair", "auto"},
            {"sync", "t.txt", "--estimator", "regression"}, {"sync", "t.txt", "--reference", "0"}, {"sync", "t.txt", "--bogus"},
            {"sync", ""}, {"sync", "-"}, {"sync", "-5"}, {"sync", "t\0.txt"}, {"sync", "t.txt", "-o", "r\0.json"},
            {"help", "sync"}, {"Sync", "t.txt"}, {"t.txt", "sync"}, {"--version"}, {"inspect", "t.txt"}, {"--bogus", "sync", "t.txt"}};
        for (String[] args : others) {
            assertThat(SyncCommandLine.parse(args)).as(String.join(" ", args)).isNull();
        }
        // a picocli.* system property could change how picocli parses or prints: picocli's
        String[] plain = {"sync", "t.txt"};
        assertThat(SyncCommandLine.parse(plain)).isNotNull();
        System.setProperty("picocli.trimQuotes", "true");
        try {
            assertThat(SyncCommandLine.parse(plain)).isNull();
        } finally {
            System.clearProperty("picocli.trimQuotes");
        }
    }

    @Test
    void runs_prints_and_exits_as_picocli_does() throws Exception {
        Path two = Files.writeString(dir.resolve("two.txt"), TWO);
        Path cluster = SimulateCommandTest.repository().resolve("examples/cluster-3/text/messages.txt");
        Path empty = Files.writeString(dir.resolve("empty.txt"), "");
        Path bad = Files.writeString(dir.resolve("bad.txt"), "2\n0 1 x y\n");
        Path out = dir.resolve("r.json");
        List<List<String>> lines = new ArrayList<>(accepted(two, cluster, out));
        lines.addAll(accepted(cluster, two, out));
        for (Path input : List.of(empty, bad, dir.resolve("missing.txt"), dir)) {
            lines.add(List.of("sync", input.toString(), "-o", out.toString()));
            lines.add(List.of("--debug", "sync", input.toString(), "-q"));
        }
        lines.add(List.of("sync", two.toString(), "-o", dir.resolve("no/such/dir/r.json").toString()));
        lines.add(List.of("sync", two.toString(), "-o", two.toString())); // the output would overwrite an input
        lines.add(List.of("sync", two.toString(), "-o", dir.toString()));
        for (List<String> line : lines) {
            String[] args = line.toArray(new String[0]);
            Files.deleteIfExists(out);
            Run picocli = Run.picocli(args);
            byte[] picocliResult = Files.exists(out) ? Files.readAllBytes(out) : null;
            Files.deleteIfExists(out);
            SyncCommand command = SyncCommandLine.parse(args);
            assertThat(command).as(String.join(" ", line)).isNotNull();
            Run fast = Run.fast(command, args);
            byte[] fastResult = Files.exists(out) ? Files.readAllBytes(out) : null;
            assertThat(fast).as(String.join(" ", line)).isEqualTo(picocli);
            assertThat(fastResult).as(String.join(" ", line)).isEqualTo(picocliResult);
        }
        assertThat(Run.picocli(new String[] {"sync", two.toString(), "-q"}).code()).isZero();
        assertThat(Run.picocli(new String[] {"sync", dir.resolve("missing.txt").toString()}).code()).isEqualTo(ExitCode.INPUT);
    }

    @Test
    void a_usage_error_raised_while_running_names_the_sync_command() throws Exception {
        Path two = Files.writeString(dir.resolve("two.txt"), TWO);
        SyncCommand command = SyncCommandLine.parse(new String[] {"sync", two.toString()});
        command.estimation.minLatency = -5L; // what "--min-latency -5ns" would set (a line picocli keeps)
        Run run = Run.fast(command, new String[] {"sync", two.toString()});
        assertThat(run).isEqualTo(new Run(ExitCode.USAGE, "",
                "tracesync sync: --min-latency must be >= 0 (see 'tracesync sync --help')\n"));
    }

    @Test
    void writes_in_the_charsets_picocli_chooses() throws Exception {
        Method picocli = CommandLine.class.getDeclaredMethod("charsetForName", String.class);
        picocli.setAccessible(true);
        for (String name : new String[] {null, "UTF-8", "cp65001", "CP65001", "ISO-8859-1", "US-ASCII", "no-such-charset", ""}) {
            assertThat(SyncCommandLine.charset(name)).as(name).isEqualTo((Charset) picocli.invoke(null, name));
        }
    }

    /** main, in a process of its own: the same output, result and exit code through either path. */
    @Test
    void main_runs_the_line_as_picocli_does() throws Exception {
        Path two = Files.writeString(dir.resolve("two.txt"), TWO);
        Path cluster = SimulateCommandTest.repository().resolve("examples/cluster-3/text/messages.txt");
        String cp = System.getProperty("java.class.path");
        // the process runs in this module's directory: the result goes to dir by its absolute path
        String result = dir.resolve("r.json").toString();
        int written = 0;
        for (List<String> line : List.of(List.of("sync", cluster.toString(), "-o", result), List.of("sync", two.toString()),
                List.of("sync", "missing.txt", "-o", result), List.of("--debug", "sync", "missing.txt"))) {
            Files.deleteIfExists(dir.resolve("r.json"));
            List<String> fastArgs = new ArrayList<>(List.of("-cp", cp, TracesyncCommand.class.getName()));
            fastArgs.addAll(line);
            JavaRun fast = JavaRun.of(dir, fastArgs.toArray(new String[0]));
            byte[] fastResult = Files.exists(dir.resolve("r.json")) ? Files.readAllBytes(dir.resolve("r.json")) : null;
            Files.deleteIfExists(dir.resolve("r.json"));
            // a picocli.* property sends main to picocli (this one: what main sets for picocli anyway)
            List<String> picocliArgs = new ArrayList<>(List.of("-Dpicocli.disable.closures=true", "-cp", cp,
                    TracesyncCommand.class.getName()));
            picocliArgs.addAll(line);
            JavaRun picocli = JavaRun.of(dir, picocliArgs.toArray(new String[0]));
            byte[] picocliResult = Files.exists(dir.resolve("r.json")) ? Files.readAllBytes(dir.resolve("r.json")) : null;
            assertThat(new JavaRun(fast.code(), withoutStackFrames(fast.out()))).as(String.join(" ", line))
                    .isEqualTo(new JavaRun(picocli.code(), withoutStackFrames(picocli.out())));
            assertThat(fastResult).as(String.join(" ", line)).isEqualTo(picocliResult);
            written += fastResult == null ? 0 : 1;
        }
        assertThat(written).as("the cluster's result written by both paths").isEqualTo(1);
    }

    private static String withoutStackFrames(String s) {
        return s.replaceAll("(?m)^\\s+at .*\\R", "").replaceAll("(?m)^\\s+\\.\\.\\. \\d+ more\\R", "");
    }

    /** The option and parameter fields of a command and its mixins, by path (not picocli's spec, not the streams). */
    private static Map<String, Object> state(Object command) throws IllegalAccessException {
        Map<String, Object> out = new LinkedHashMap<>();
        state(command, command.getClass().getSimpleName(), out);
        return out;
    }

    private static void state(Object o, String path, Map<String, Object> out) throws IllegalAccessException {
        for (Field f : o.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType() == CommandLine.Model.CommandSpec.class
                    || f.getType() == PrintWriter.class) {
                continue;
            }
            f.setAccessible(true);
            Object value = f.get(o);
            if (value != null && value.getClass().getName().endsWith("Mixin")) {
                state(value, path + "." + f.getName(), out);
            } else {
                out.put(path + "." + f.getName(), value);
            }
        }
    }

    private record Run(int code, String out, String err) {
        static Run picocli(String[] args) {
            CommandLine cl = TracesyncCommand.newCommandLine(args);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = TracesyncCommand.execute(cl, args);
            return new Run(code, out.toString(), withoutStackFrames(err.toString()));
        }

        static Run fast(SyncCommand command, String[] args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = SyncCommandLine.execute(command, args, new PrintWriter(out, true), new PrintWriter(err, true));
            return new Run(code, out.toString(), withoutStackFrames(err.toString()));
        }
    }
}
