package org.tracesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.tracesync.cli.report.ReportGenerator;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.TruthScore;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.formats.truth.TruthFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tracesync demo}: simulates a small cluster, synchronizes it with the library, scores the
 * result against the true clocks and writes the HTML report.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Simulates a small cluster whose clocks disagree, synchronizes its traces, checks the result "
                + "against the true clocks (no message travels backwards; the bounds contain the true clock at every "
                + "message) and writes an HTML report.",
            "Exit codes: 0 the result holds against the truth, 1 it does not."})
public final class DemoCommand implements Callable<Integer> {

    @Option(names = {"-o", "--output"}, paramLabel = "DIR", defaultValue = "tracesync-demo",
            description = "Where to write traces, result and report (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed of the simulation (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--nodes", defaultValue = "4", paramLabel = "N", description = "Number of nodes, 2 to 8 (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = {"-q", "--quiet"}, description = "Print only the report's path.")
    boolean quiet;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (nodes < 2 || nodes > 8) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--nodes must be between 2 and 8 for the demo");
        }
        new OutputGuard(List.of()).directory("demo -o", output);
        if (Files.isDirectory(output)) {
            // the demo writes traces/, result.json and report.html: never into a directory of the user's
            List<String> own = List.of("traces", "result.json", "report.html");
            List<String> other;
            try (var s = Files.list(output)) {
                other = s.map(p -> p.getFileName().toString()).filter(n -> !own.contains(n)).sorted().limit(3).toList();
            }
            if (!other.isEmpty()) {
                throw new CommandFailure(ExitCode.USAGE, "demo -o " + output + " holds other files (" + String.join(", ", other)
                        + "); choose a new or empty directory");
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        Path traces = output.resolve("traces");
        // 1. simulate: a chain h1 – h2 – … so that synchronization must compose along paths
        Files.createDirectories(traces);
        CommandRun simulate = run("simulate", "--nodes", Integer.toString(nodes), "--topology", "chain", "--seed",
                Long.toString(seed), "--duration", "10s", "--rate", "50", "--acks", "--max-drift", "100",
                "--format", "jsonl", "--force", "-o", traces.toString()); // traces/ is the demo's own
        if (simulate.code != 0) {
            throw new CommandFailure(ExitCode.INTERNAL, "demo: simulation failed: " + simulate.err.strip());
        }
        TruthFile truthFile = TruthFile.read(traces.resolve("truth.json"));
        Map<String, ClockModel> truth = truthFile.clocks().stream()
                .collect(Collectors.toMap(ClockModel::name, Function.identity()));
        // exactly the simulated nodes' logs (a directory reused from a bigger demo may hold more)
        List<Path> files = truthFile.clocks().stream().map(c -> traces.resolve(c.name() + ".jsonl")).toList();
        // 2. synchronize through the library, as 'tracesync sync' does
        TraceSet set = TraceSet.open(files);
        Synchronizer.Synchronization sync = Synchronizer.synchronize(set.input(), Synchronizer.Options.defaults());
        SyncResult result = sync.result();
        Path resultFile = output.resolve("result.json");
        ResultFile.write(result, resultFile);
        // 3. score against the truth
        TruthScore score = new TruthScore(result, set.input().nodes().stream().map(NodeInfo::name).toList(), truth, 2.0);
        set.input().readMessages(score);
        TruthScore.Score s = score.score();
        // 4. report
        Path report = output.resolve("report.html");
        ReportGenerator.write(report, "tracesync demo: " + nodes + " simulated nodes (seed " + seed + ")", result,
                set.input(), set.totalBytes(), set.bytesRead(), set.eventsRead(), truth, List.of(), quiet);
        if (!quiet) {
            out.printf(Locale.ROOT, "Simulated %d nodes in a chain (seed %d): %d messages, traces in %s%n", nodes, seed,
                    truthFile.messages(), traces);
            out.printf(Locale.ROOT, "Synchronized onto %s: %s; result in %s%n", result.reference(),
                    result.nodes().stream().map(DemoCommand::describe).collect(Collectors.joining(", ")), resultFile);
            out.printf(Locale.ROOT, "Checked against the true clocks: %d inversions; the bounds contain the true clock at "
                            + "%d of %d message ends (largest error %.1f µs, widest bounds %.1f µs)%n",
                    s.inversions(), s.checks() - s.violations(), s.checks(), s.maxError() / 1e3, s.maxBoundWidth() / 1e3);
            out.println("Report: " + report.toAbsolutePath());
        } else {
            out.println(report.toAbsolutePath());
        }
        out.flush();
        if (!s.holds()) {
            spec.commandLine().getErr().println("tracesync: demo: the result does not hold against the truth: "
                    + s.firstViolation());
            return ExitCode.SYNC_INCOMPLETE;
        }
        return ExitCode.OK;
    }

    private static String describe(NodeResult n) {
        return n.name() + " " + n.quality().label();
    }

    private record CommandRun(int code, String err) {
    }

    private static CommandRun run(String... args) {
        CommandLine cl = new CommandLine(new SimulateCommand());
        java.io.StringWriter err = new java.io.StringWriter();
        cl.setOut(new PrintWriter(java.io.Writer.nullWriter()));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
        return new CommandRun(code, err.toString());
    }
}
