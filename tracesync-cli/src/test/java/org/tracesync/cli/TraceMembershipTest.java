package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #12 item 9: eval and report refuse traces and truth files that do not belong to the result. */
class TraceMembershipTest {

    @TempDir
    Path dir;

    private Path a;
    private Path b;
    private Path result;

    private Path simulate(String name, String duration, String seed) {
        Path out = dir.resolve(name);
        CommandRun s = CommandRun.of("simulate", "--duration", duration, "--rate", "20", "--seed", seed,
                "-o", out.toString());
        assertThat(s.exitCode()).as(s.err()).isZero();
        return out;
    }

    private static String[] traces(Path sim) {
        return new String[] {sim.resolve("h1.jsonl").toString(), sim.resolve("h2.jsonl").toString(),
            sim.resolve("h3.jsonl").toString()};
    }

    private static String[] concat(String[] head, String... tail) {
        String[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    @BeforeEach
    void sync() {
        a = simulate("a", "2s", "1");
        b = simulate("b", "4s", "2");
        result = dir.resolve("a.json");
        CommandRun r = CommandRun.of(concat(concat(new String[] {"sync", "-q"}, traces(a)), "-o", result.toString()));
        assertThat(r.exitCode()).as(r.err()).isZero();
    }

    @Test
    void evalOfOtherTracesWithTheSameNodeNamesIsRefused() {
        CommandRun run = CommandRun.of(concat(new String[] {"eval", result.toString()}, traces(b)));
        assertThat(run.exitCode()).isEqualTo(ExitCode.INPUT);
        assertThat(run.err().strip()).doesNotContain("\n").startsWith("tracesync: " + result + ": node h")
                .contains("outside the span recorded for it", "not the traces this result was computed from");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void evalOfItsOwnTracesPasses() {
        CommandRun run = CommandRun.of(concat(new String[] {"eval", result.toString()}, traces(a)));
        assertThat(run.exitCode()).as(run.err()).isZero();
        CommandRun truth = CommandRun.of(concat(new String[] {"eval", result.toString(), "--truth",
            a.resolve("truth.json").toString()}, traces(a)));
        assertThat(truth.exitCode()).as(truth.err()).isZero();
        assertThat(truth.out()).contains("bounds contain the truth at 100.00%");
        // issue #12 "Also": the report's units and words (µs; "bound width", not a second meaning of "accuracy")
        assertThat(truth.out()).contains("mean lat µs", "width mean", "bound width of the pair at each message")
                .doesNotContain(" us", "acc best");
    }

    @Test
    void evalWithAnotherSimulationsTruthExitsNonZero() {
        CommandRun run = CommandRun.of(concat(new String[] {"eval", result.toString(), "--truth",
            b.resolve("truth.json").toString()}, traces(a)));
        assertThat(run.exitCode()).isEqualTo(ExitCode.SYNC_INCOMPLETE);
        assertThat(run.err().strip()).startsWith("tracesync: the bounds contain the truth at only ")
                .endsWith("of the instants: the truth file or the result is wrong");
        // and the table names the instant farthest outside, so a user can look at it
        assertThat(run.out()).containsPattern("farthest outside its bounds: h[0-9]+ at local time [0-9]+, error -?[0-9.]+ µs");
    }

    @Test
    void evalWithATruthLackingANodeIsAnInputError() throws IOException {
        Path truth = dir.resolve("truth.json");
        String text = Files.readString(a.resolve("truth.json")).replace("\"h3\"", "\"zz\"");
        Files.writeString(truth, text);
        CommandRun run = CommandRun.of(concat(new String[] {"eval", result.toString(), "--truth", truth.toString()},
                traces(a)));
        assertThat(run.exitCode()).isEqualTo(ExitCode.INPUT);
        assertThat(run.err().strip()).isEqualTo("tracesync: " + truth + ": has no clock for node 'h3' (its nodes: [h1, h2,"
                + " zz]): not the truth of these traces?");
    }

    @Test
    void reportOfOtherTracesSaysSoAndDrawsNoMessages() {
        Path html = dir.resolve("r.html");
        CommandRun run = CommandRun.of(concat(concat(new String[] {"report", "-q", result.toString()}, traces(b)),
                "-o", html.toString()));
        assertThat(run.exitCode()).isEqualTo(ExitCode.INPUT);
        assertThat(run.err()).contains("not the traces this result was computed from");
    }
}
