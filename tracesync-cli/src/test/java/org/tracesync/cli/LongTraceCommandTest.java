package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockEvent;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.formats.truth.TruthFile;

/**
 * End to end on a long trace: simulate writes wandering clocks with steps and their truth, sync
 * fits a piecewise transform and reports the steps (summary, warnings, result file), eval scores
 * it against the truth (no inversion), and a ctf simulation refuses steps with one clear line.
 */
class LongTraceCommandTest {

    @TempDir
    Path dir;

    @Test
    void stepsAreSimulatedFoundReportedAndScored() throws IOException {
        CommandRun sim = CommandRun.of("simulate", "-o", dir.toString(), "--nodes", "2", "--rate", "5", "--format", "text",
                "--duration", "1h", "--min-latency", "40us", "--min-latency-back", "50us", "--ntp", "1",
                "--ntp-interval", "600s", "--steps", "2", "--seed", "4");
        assertThat(sim.exitCode()).as(sim.err()).isZero();
        TruthFile truth = TruthFile.read(dir.resolve("truth.json"));
        assertThat(truth.clock("1").steps()).hasSize(2);
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", dir.resolve("messages.txt").toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("piecewise").contains("(2 steps)").contains("clock step");
        SyncResult r = ResultFile.read(result);
        PairResult pair = r.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(pair.steps()).hasSize(2);
        // node 0 keeps true time (steps are drawn on the other nodes): a-times are true times
        for (int k = 0; k < 2; k++) {
            ClockEvent truthStep = truth.clock("1").steps().get(k);
            ClockStep found = pair.steps().get(k);
            assertThat(Math.abs(found.at() - truthStep.at())).isLessThan(1_000_000_000L);
            assertThat(found.sizeMin()).isLessThanOrEqualTo(truthStep.step());
            assertThat(found.sizeMax()).isGreaterThanOrEqualTo(truthStep.step());
        }
        assertThat(Files.readString(result)).contains("\"steps\" : [", "\"pieces\" : ");
        CommandRun eval = CommandRun.of("eval", result.toString(), dir.resolve("messages.txt").toString(),
                "--truth", dir.resolve("truth.json").toString());
        assertThat(eval.exitCode()).as(eval.err()).isZero();
        assertThat(eval.out()).contains("no inversion");
    }

    /**
     * Exit 0 only when no message contradicts the result: a bucket holding a step may leave a
     * message inverted, so without the repair pass the verdict cannot be 0; with it, it is 0
     * when the repair leaves no inversion.
     */
    @Test
    void stepsLeftUnrepairedAreNotExitZero() throws IOException {
        CommandRun sim = CommandRun.of("simulate", "-o", dir.toString(), "--nodes", "2", "--rate", "5", "--format", "text",
                "--duration", "2h", "--steps", "2", "--seed", "1");
        assertThat(sim.exitCode()).as(sim.err()).isZero();
        String messages = dir.resolve("messages.txt").toString();
        CommandRun never = CommandRun.of("sync", messages, "--repair", "never");
        assertThat(never.exitCode()).isEqualTo(ExitCode.SYNC_INCOMPLETE);
        assertThat(never.err()).contains("2 buckets holding a clock step fit no line and may leave messages inverted");
        CommandRun auto = CommandRun.of("sync", messages);
        assertThat(auto.exitCode()).as(auto.err()).isZero();
    }

    @Test
    void ctfRefusesSteps() {
        CommandRun sim = CommandRun.of("simulate", "-o", dir.toString(), "--nodes", "2", "--format", "ctf", "--steps", "1");
        assertThat(sim.exitCode()).isEqualTo(2);
        assertThat(sim.err()).contains("--steps cannot be written as ctf");
    }
}
