package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.TruthScore;

/** Simulated shops with known clocks, in the four formats: bounds contain the truth, no violation remains. */
class SpanSimulationTest {

    @TempDir
    Path dir;

    static Path simulate(Path dir, SpanFormat format, long seed, long resolution, int traces) throws Exception {
        ShopSimulation sim = new ShopSimulation(ShopSimulation.Config.defaults(seed).withResolution(resolution));
        Path file = dir.resolve("spans-" + format + "-" + seed + ".json");
        try (SimulatedSpanWriter w = new SimulatedSpanWriter(format, file)) {
            for (int i = 0; i < traces; i++) {
                w.write(sim.nextTrace());
            }
        }
        return file;
    }

    @ParameterizedTest
    @CsvSource({"OTLP_JSON,1,1", "OTLP_JSON,2,1000", "JAEGER_JSON,3,1000", "ZIPKIN_JSON,4,1000",
        "OTLP_JSON,5,1", "ZIPKIN_JSON,6,1000", "JAEGER_JSON,7,1000", "OTLP_PROTO,8,1", "OTLP_PROTO,9,1000"})
    void syncRecoversTheHostClocks(SpanFormat format, long seed, long resolution) throws Exception {
        Path file = simulate(dir, format, seed, resolution, 2000);
        assertThat(SpanFormat.detect(file)).isEqualTo(format);
        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults()));
        List<String> names = input.nodes().stream().map(NodeInfo::name).toList();
        assertThat(names).containsExactlyInAnyOrder("10.0.1.1", "10.0.1.2", "10.0.1.3", "10.0.1.4");
        for (int h = 0; h < names.size(); h++) {
            assertThat(input.hosts().observedResolution(h)).isGreaterThanOrEqualTo(resolution);
        }
        SyncResult result = Synchronizer.synchronize(input, Synchronizer.Options.defaults()).result();
        // 4 services per trace make 3 CLIENT->SERVER calls (2 constraints each unless timed out) and 1 PRODUCER->CONSUMER
        SpanConstraints.Counts c = input.counts();
        assertThat(c.spans()).isEqualTo(2000L * 9);
        assertThat(c.pairs()).isEqualTo(2000L * 4);
        assertThat(c.sameHost()).isZero();
        assertThat(c.unmatchedCallees()).isZero();
        assertThat(c.constraints()).isEqualTo(2000L * 7 - c.endsSkipped());
        assertThat(c.endsSkipped()).isBetween(1L, 2000L * 3 / 10);
        for (NodeResult n : result.nodes()) {
            assertThat(n.quality()).isIn(Quality.REFERENCE, Quality.ACCURATE);
        }
        Map<String, ClockModel> truth = new HashMap<>();
        for (ClockModel m : new ShopSimulation(ShopSimulation.Config.defaults(seed)).clocks()) {
            truth.put(m.name(), m);
        }
        TruthScore score = new TruthScore(result, names, truth, 2.0);
        input.readMessages(score);
        TruthScore.Score s = score.score();
        assertThat(s.firstViolation()).isEmpty();
        assertThat(s.inversions()).isZero();
        assertThat(s.violations()).isZero();
        assertThat(s.checks()).isGreaterThan(10_000);
        assertThat(s.maxError()).isLessThan(100_000); // 100 µs against offsets of up to 5 ms
    }
}
