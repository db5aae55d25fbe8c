package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.core.evaluate.Evaluation;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;

/**
 * A simulated shop whose checkout host's clock steps back by 4 ms halfway through (10 s of traces,
 * CLOCK_REALTIME as span timestamps are; path composition, the reduction without the global
 * program): the fit cuts the host's transform at the step, and {@code apply}'s corrected files keep
 * every caller before its callee, also for the spans around the step, where a local time has two
 * readings and the local time alone puts some on the wrong side (a callee starting before its
 * caller, or ending after it: 3–6 per file).
 */
class SpanStepApplyTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource({"ZIPKIN_JSON,1,1000", "OTLP_JSON,2,1", "JAEGER_JSON,3,1000"})
    void correctedSpansAroundABackwardStepKeepEveryCallerBeforeItsCallee(SpanFormat format, long seed, long resolution)
            throws Exception {
        ShopSimulation.Config config = ShopSimulation.Config.defaults(seed).withResolution(resolution);
        ShopSimulation sim = new ShopSimulation(config).withStep(2, config.t0() + 5_000_000_000L, -4_000_000L);
        Path file = dir.resolve("spans-" + seed + ".json");
        try (SimulatedSpanWriter w = new SimulatedSpanWriter(format, file)) {
            for (int i = 0; i < 5_000; i++) {
                w.write(sim.nextTrace());
            }
        }
        SpanOptions options = SpanOptions.defaults();
        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(file), options));
        SyncResult result = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("10.0.1.1")).result();
        NodeResult checkout = result.node(ShopSimulation.hostName(2));
        assertThat(checkout.quality()).isEqualTo(Quality.PIECEWISE);
        assertThat(checkout.transform().hasTwoReadings()).isTrue();
        // payment's clock did not step, but its path runs through checkout's: it is placed on each
        // side of checkout's step as checkout is (before, the whole first half was 4 ms off)
        Evaluation eval = new Evaluation(result, input.nodes().stream().map(NodeInfo::name).toList(), null, null);
        input.readMessages(eval.messages());
        assertThat(eval.report().inversions()).isZero();

        Path placed = dir.resolve("placed.json");
        new SpanRewriter(file, options, SpanCorrection.forResult(result, SpanFiles.open(List.of(file), options))).write(placed);
        Path alone = dir.resolve("alone.json");
        new SpanRewriter(file, options, host -> new SpanCorrection(result.node(host))).write(alone);
        assertThat(invertedCallees(alone)).isPositive();
        assertThat(invertedCallees(placed)).isZero();
    }

    /** Constraints (callee after caller) the corrected file violates. */
    private static long invertedCallees(Path corrected) throws Exception {
        SpanMessageInput in = new SpanMessageInput(SpanFiles.open(List.of(corrected), SpanOptions.defaults()));
        SpanViolations v = new SpanViolations(in.nodes().stream().map(NodeInfo::name).toList(), null);
        in.constraints(v);
        return v.totalBefore();
    }
}
