package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PathReduction;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;

/**
 * The core's one-way rule and the spans' one-way attachment agree where both apply (issue #11
 * item 3, #15): a lone consumer host tied to a producer host one way only gets the same smallest
 * correction from both (its own clock shifted by the constant closest to 0 that keeps every
 * producer → consumer constraint forward, resolution widening included), flagged one-way, with a
 * bound on the same side (minus only), 0 at the constraint that decides the shift. They differ in
 * the bound's model only (docs/SPANS.md): linear clocks for the core, constant offsets for spans.
 */
class OneWayAgreementTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void aLoneOneWayHostGetsTheSameShiftFromTheCoreAndFromTheSpanAttachment(long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        long skew = r.nextLong(-5_000, 5_000); // µs: the consumer's clock error, either way
        StringBuilder json = new StringBuilder("[");
        int spans = 2 + r.nextInt(10);
        long expectedShift = 0;
        for (int k = 0; k < spans; k++) {
            long start = 1_000_000L + 10_000L * k + r.nextInt(1_000);
            long consumerStart = start + 50 + r.nextInt(400) + skew; // µs, on the consumer's clock
            // µs widening: the send counts as one µs earlier, so a shift ≥ (start − 1) − consumerStart µs
            expectedShift = Math.max(expectedShift, (start - 1 - consumerStart) * 1000);
            String trace = String.format("%016x", 0xa0 + k);
            json.append(k == 0 ? "" : ",")
                    .append("{\"traceId\":\"").append(trace).append("\",\"id\":\"").append(String.format("%016x", 2 * k + 1))
                    .append("\",\"kind\":\"PRODUCER\",\"timestamp\":").append(start)
                    .append(",\"duration\":5,\"localEndpoint\":{\"serviceName\":\"a\",\"ipv4\":\"10.0.0.1\"}},")
                    .append("{\"traceId\":\"").append(trace).append("\",\"parentId\":\"").append(String.format("%016x", 2 * k + 1))
                    .append("\",\"id\":\"").append(String.format("%016x", 2 * k + 2)).append("\",\"kind\":\"CONSUMER\",\"timestamp\":")
                    .append(consumerStart).append(",\"duration\":7,\"localEndpoint\":{\"serviceName\":\"b\",\"ipv4\":\"10.0.0.2\"}}");
        }
        Path file = dir.resolve("spans-" + seed + ".json");
        Files.writeString(file, json.append("]").toString());

        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults()));
        Synchronizer.Options options = Synchronizer.Options.defaults().withReference("10.0.0.1");
        SyncResult core = Synchronizer.synchronize(input, options).result();
        SpanMessageInput again = new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults()));
        SyncResult spanRule = OneWayAttachment.attach(Synchronizer.synchronize(again,
                options.withReducer(OneWayAttachment.afterFit(PathReduction::reduce))).result(), again);

        for (SyncResult result : List.of(core, spanRule)) {
            NodeResult b = result.node("10.0.0.2");
            assertThat(b.quality()).isEqualTo(Quality.ONE_WAY);
            assertThat(b.reference()).isEqualTo("10.0.0.1");
            assertThat(b.transform().correction(b.start())).as("seed %d", seed).isEqualTo((double) expectedShift);
            assertThat(b.transform().correction(b.end())).isEqualTo((double) expectedShift);
            assertThat(b.bounds().plus(b.start())).isInfinite();
            if (expectedShift > 0) {
                assertThat(b.note()).contains("the smallest shift that removes every violation");
            } else {
                assertThat(b.note()).contains("nothing violated, so no shift");
            }
        }
        // the decisive constraint: minus 0 there under both models
        long decisive = Long.MIN_VALUE;
        double worst = Double.NEGATIVE_INFINITY;
        NodeResult b = core.node("10.0.0.2");
        for (var row : b.bounds().rows()) {
            if (row.t() >= b.start() && row.t() <= b.end() && Double.isFinite(row.minus()) && -row.minus() > worst) {
                worst = -row.minus();
                decisive = row.t();
            }
        }
        if (expectedShift > 0) {
            assertThat(core.node("10.0.0.2").bounds().minus(decisive)).isZero();
            assertThat(spanRule.node("10.0.0.2").bounds().minus(decisive)).isZero();
        }
    }
}
