package org.tracesync.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.tracesync.cli.report.ReportGenerator;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.formats.truth.TruthFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tracesync report RESULT [TRACE...] -o report.html}: the HTML report with plots. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = {"Writes a self-contained HTML report of a result file: per node its reference, quality, "
                + "correction and accuracy band; with the traces, the message points, hulls, estimate and bounds "
                + "of every pair and the corrected latencies.",
            "Exit codes: 0 written; 2 the output would overwrite the result, a trace or the truth file, or is a"
                + " directory (nothing written); 3 the result file is unreadable (nothing written) or the traces are, or"
                + " do not belong to the result (the report is written without their plots)."})
public final class ReportCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RESULT", description = "A result file written by 'tracesync sync -o'.")
    Path resultFile;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "TRACE",
            description = "The traces that were synchronized, as given to 'tracesync sync' (optional).")
    List<Path> traces = List.of();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "report.html",
            description = "The HTML file to write (default: ${DEFAULT-VALUE}).")
    Path output;

    @Option(names = "--truth", paramLabel = "FILE",
            description = "A truth file (as 'tracesync simulate' writes) to draw the true clocks too.")
    Path truthFile;

    @Option(names = {"-q", "--quiet"}, description = "No progress display, no summary line.")
    boolean quiet;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<Path> inputs = new java.util.ArrayList<>(traces);
        inputs.add(resultFile);
        inputs.add(truthFile);
        new OutputGuard(inputs).file("-o", output);
        SyncResult result = ResultFile.read(resultFile);
        Map<String, ClockModel> truth = truthFile == null ? Map.of()
                : TruthFile.read(truthFile).clocks().stream().collect(Collectors.toMap(ClockModel::name, Function.identity()));
        TraceSet set = null;
        String openError = null;
        if (!traces.isEmpty()) {
            try {
                set = TraceSet.open(traces);
            } catch (java.io.IOException e) {
                openError = e instanceof java.nio.file.NoSuchFileException n ? n.getFile() + ": no such file or directory"
                        : e.getMessage();
            }
        }
        ReportGenerator.Outcome outcome = ReportGenerator.write(output, "tracesync report: " + resultFile.getFileName(),
                result, set == null ? null : set.input(), set == null ? 0 : set.totalBytes(),
                set == null ? null : set.bytesRead(), set == null ? null : set.eventsRead(), truth,
                openError == null ? List.of() : List.of("traces could not be read, so message points are not drawn: " + openError),
                quiet);
        String traceError = openError != null ? openError : outcome.traceError();
        if (traceError != null) {
            spec.commandLine().getErr().println("tracesync: " + traceError + " (report written to " + output
                    + " without the message plots)");
            return ExitCode.INPUT;
        }
        if (!quiet) {
            spec.commandLine().getOut().println("report written to " + output
                    + (traces.isEmpty() ? "" : " (" + outcome.messages() + " messages, " + outcome.inversions()
                    + " inversions after correction)"));
        }
        return ExitCode.OK;
    }
}
