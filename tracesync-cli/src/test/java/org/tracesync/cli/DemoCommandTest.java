package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.TruthScore;
import org.tracesync.formats.input.TraceInputs;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.formats.truth.TruthFile;

/** The demo runs end to end and its result holds against its truth. */
class DemoCommandTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void demoResultHoldsAgainstTheTruth(long seed) throws IOException {
        CommandRun run = CommandRun.of("demo", "-o", dir.toString(), "--seed", Long.toString(seed), "--quiet");
        assertThat(run.exitCode()).as(run.err()).isZero();
        Path report = dir.resolve("report.html");
        assertThat(run.out().strip()).isEqualTo(report.toAbsolutePath().toString());
        assertThat(Files.size(report)).isGreaterThan(50_000);

        // independently of the demo's own check: read back the result file and score it
        SyncResult result = ResultFile.read(dir.resolve("result.json"));
        assertThat(result.nodes()).hasSize(4);
        assertThat(result.nodes()).allSatisfy(n ->
                assertThat(n.quality()).isIn(Quality.REFERENCE, Quality.ACCURATE));
        Map<String, ClockModel> truth = TruthFile.read(dir.resolve("traces/truth.json")).clocks().stream()
                .collect(Collectors.toMap(ClockModel::name, Function.identity()));
        List<Path> traces;
        try (Stream<Path> s = Files.list(dir.resolve("traces"))) {
            traces = s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
        MessageInput input = TraceInputs.open(traces);
        TruthScore score = new TruthScore(result, input.nodes().stream().map(NodeInfo::name).toList(), truth, 2.0);
        input.readMessages(score);
        TruthScore.Score s = score.score();
        assertThat(s.messages()).isGreaterThan(4000);
        assertThat(s.inversions()).as(s.firstViolation()).isZero();
        assertThat(s.violations()).as(s.firstViolation()).isZero();
        // three of four nodes are synchronized: both ends of most messages are checked
        assertThat(s.checks()).isGreaterThan(s.messages());
        assertThat(s.maxError()).isLessThan(s.maxBoundWidth());
    }

    @org.junit.jupiter.api.Test
    void demoPrintsWhereTheReportIs() {
        CommandRun run = CommandRun.of("demo", "-o", dir.toString(), "--nodes", "3");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("Simulated 3 nodes in a chain (seed 1)", "0 inversions",
                "Report: " + dir.resolve("report.html").toAbsolutePath());
    }
}
