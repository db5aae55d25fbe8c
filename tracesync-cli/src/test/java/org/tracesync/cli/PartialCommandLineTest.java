package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code main} builds only the part of the command hierarchy a command line reaches
 * ({@link TracesyncCommand#newCommandLine(String[])}), to start faster: that part must print and
 * exit exactly as the whole hierarchy does, for usage, version, help and every kind of mistake.
 */
class PartialCommandLineTest {

    static Stream<List<String>> commandLines() {
        List<List<String>> lines = new ArrayList<>();
        for (String s : TracesyncCommand.SUBCOMMANDS) {
            lines.add(List.of(s, "--help"));
            lines.add(List.of(s, "-h"));
            lines.add(List.of(s, "--version"));
            lines.add(List.of(s, "--bogus"));
            lines.add(List.of("--debug", s, "--help"));
            lines.add(List.of("--debug", s, "--bogus"));
            lines.add(List.of(s, "--help", "--debug"));
            lines.add(List.of("-V", s));
            lines.add(List.of("--help", s));
            lines.add(List.of("help", s));
        }
        for (String s : List.of("sync", "inspect", "eval", "apply", "convert", "report", "latency")) {
            lines.add(List.of(s)); // a missing parameter
            lines.add(List.of(s, "/nonexistent/trace.txt", "-o", "/nonexistent/out"));
        }
        lines.add(List.of("sync", "/nonexistent/trace.txt", "--debug"));
        lines.add(List.of("sync", "--min-latency", "-5", "/nonexistent/trace.txt"));
        lines.add(List.of("sync", "--repair", "sometimes", "x.txt"));
        for (String top : List.of("", "--help", "-h", "--version", "-V", "-hV", "-Vh", "--debug", "help", "syn",
                "--bogus", "--", "bogus", "simulate-span", "Sync")) {
            lines.add(top.isEmpty() ? List.of() : List.of(top));
        }
        lines.addAll(List.of(List.of("--debug", "--version"), List.of("--version", "--debug"), List.of("--version", "--help"),
                List.of("--version", "--version"), List.of("-V", "-V"), List.of("--version", "x"), List.of("--", "sync"),
                List.of("--debug", "--debug", "sync"), List.of("--bogus", "sync"), List.of("help", "help"),
                List.of("help", "nothing"), List.of("sync", "sync", "--help")));
        return lines.stream();
    }

    @ParameterizedTest
    @MethodSource("commandLines")
    void prints_and_exits_as_the_whole_hierarchy(List<String> args) {
        String[] a = args.toArray(new String[0]);
        Run whole = Run.of(TracesyncCommand.newCommandLine(), a);
        Run partial = Run.of(TracesyncCommand.newCommandLine(a), a);
        assertThat(partial).as(String.join(" ", args)).isEqualTo(whole);
        if (TracesyncCommand.isVersionAlone(a)) { // main prints the version without any command model
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = TracesyncCommand.printVersion(new PrintWriter(out, true), new PrintWriter(err, true));
            assertThat(new Run(code, out.toString(), err.toString())).as(String.join(" ", args)).isEqualTo(whole);
        }
    }

    @Test
    void prints_the_version_alone_only_for_one_version_option_and_debug() {
        for (String[] a : new String[][] {{"--version"}, {"-V"}, {"--debug", "--version"}, {"-V", "--debug"}}) {
            assertThat(TracesyncCommand.isVersionAlone(a)).as(String.join(" ", a)).isTrue();
        }
        for (String[] a : new String[][] {{}, {"--debug"}, {"-V", "-V"}, {"--version", "--version"}, {"-hV"}, {"-V", "-h"},
            {"-V", "sync"}, {"sync", "-V"}, {"--version", "x"}}) {
            assertThat(TracesyncCommand.isVersionAlone(a)).as(String.join(" ", a)).isFalse();
        }
        assertThat(Run.of(TracesyncCommand.newCommandLine(), new String[] {"--version"}).out())
                .matches("tracesync \\S+\\RJava \\S+\\R");
    }

    @Test
    void builds_only_the_named_subcommand_or_none_for_the_version() {
        assertThat(TracesyncCommand.newCommandLine(new String[] {"sync", "x.txt", "-o", "r.json"}).getSubcommands().keySet())
                .containsExactly("sync");
        assertThat(TracesyncCommand.newCommandLine(new String[] {"--debug", "simulate-spans", "--help"})
                .getSubcommands().keySet()).containsExactly("simulate-spans");
        assertThat(TracesyncCommand.newCommandLine(new String[] {"--version"}).getSubcommands()).isEmpty();
        assertThat(TracesyncCommand.newCommandLine(new String[] {"--debug", "-V"}).getSubcommands()).isEmpty();
        List<String> all = Arrays.asList(TracesyncCommand.SUBCOMMANDS);
        for (String[] a : new String[][] {{}, {"--help"}, {"help", "sync"}, {"-h", "sync"}, {"syn"}, {"--", "sync"}}) {
            assertThat(TracesyncCommand.newCommandLine(a).getSubcommands().keySet()).as(String.join(" ", a))
                    .containsExactlyElementsOf(all);
        }
        // the --debug option reaches a subcommand added alone, as it reaches one of the whole hierarchy
        assertThat(TracesyncCommand.newCommandLine(new String[] {"eval"}).getSubcommands().get("eval")
                .getCommandSpec().findOption("--debug")).isNotNull();
    }

    private record Run(int exitCode, String out, String err) {
        static Run of(CommandLine cl, String[] args) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            cl.setOut(new PrintWriter(out, true));
            cl.setErr(new PrintWriter(err, true));
            int code = TracesyncCommand.execute(cl, args);
            return new Run(code, out.toString(), err.toString().replaceAll("(?m)^\\s+at .*\\R", ""));
        }
    }
}
