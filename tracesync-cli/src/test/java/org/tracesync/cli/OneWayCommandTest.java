package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.formats.result.ResultFile;

/**
 * End to end, a node tied one way only: a simulated two-node trace with the h2 → h1 messages
 * removed. sync places h2 on h1 by the smallest correction (the summary says what was shifted),
 * writes a lower bound only, and eval --truth checks that side at every instant, counts those
 * instants as one-sided, and finds the truth inside.
 */
class OneWayCommandTest {

    @TempDir
    Path dir;

    @Test
    void aOneWayNodeIsShiftedBoundedOnOneSideAndScoredOnThatSide() throws Exception {
        Path sim = dir.resolve("sim");
        CommandRun simulate = CommandRun.of("simulate", "--nodes", "2", "--duration", "5s", "--seed", "3",
                "-o", sim.toString());
        assertThat(simulate.exitCode()).as(simulate.err()).isZero();
        // h1 → h2 only: drop h1's receives and h2's sends
        Path h1 = dir.resolve("h1.jsonl");
        Path h2 = dir.resolve("h2.jsonl");
        Files.writeString(h1, keep(sim.resolve("h1.jsonl"), "\"dir\":\"send\""));
        Files.writeString(h2, keep(sim.resolve("h2.jsonl"), "\"dir\":\"recv\""));
        Path result = dir.resolve("result.json");

        CommandRun sync = CommandRun.of("sync", h1.toString(), h2.toString(), "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        assertThat(sync.out()).contains("one-way").contains("node h2 is tied one way only (to h1): its own clock shifted by")
                .contains("the smallest shift that removes every violation").contains("/ unbounded");
        NodeResult node = ResultFile.read(result).node("h2");
        assertThat(node.quality()).isEqualTo(Quality.ONE_WAY);
        assertThat(node.reference()).isEqualTo("h1");
        assertThat(node.bounds().minus(node.end())).isFinite();
        assertThat(node.bounds().plus(node.end())).isInfinite();

        CommandRun eval = CommandRun.of("eval", result.toString(), h1.toString(), h2.toString(),
                "--truth", sim.resolve("truth.json").toString(), "--json");
        assertThat(eval.exitCode()).as(eval.err()).isZero();
        JsonNode truth = new ObjectMapper().readTree(eval.out()).get("truth");
        long instants = truth.get("instants").asLong();
        assertThat(instants).isGreaterThan(400);
        assertThat(truth.get("instants_with_bounds").asLong()).isEqualTo(instants);
        assertThat(truth.get("instants_with_one_sided_bounds").asLong()).isEqualTo(instants);
        assertThat(truth.get("contained_share").asDouble()).isEqualTo(1.0);
        assertThat(CommandRun.of("eval", result.toString(), h1.toString(), h2.toString(),
                "--truth", sim.resolve("truth.json").toString()).out())
                .contains("(" + instants + " of them one-sided: only the bounded side checked)");
    }

    private static String keep(Path file, String needle) throws Exception {
        List<String> lines = Files.readAllLines(file);
        return lines.stream().filter(l -> l.contains(needle)).collect(Collectors.joining("\n", "", "\n"));
    }
}
