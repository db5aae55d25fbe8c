package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.core.transform.NodeBounds;
import org.tracesync.formats.result.ResultFile;
import org.tracesync.formats.truth.TruthFile;

/**
 * The result file's bounds at every instant a reader can ask about, on a simulated long trace
 * fitted with {@code sync --max-slew-rate 500} (NTP-like rate corrections and two 500 ppm slews
 * per clock, 2–4 messages/s each way, the simulated truth beside it): read back as a reader does
 * (the segment holding t, rows interpolated, extrapolated beyond the end rows; RESULT_FORMAT), the
 * reference clock's true reading lies inside the bounds between every two rows, exactly at every
 * knot and one ns before it, inside each slew's segment, and before and after the rows and the
 * messages; {@code eval --truth} agrees at the message ends. Core's PiecewiseBoundsLpOracleTest
 * checks the same bounds against an LP of the documented model.
 */
class SlewBoundsEveryInstantCommandTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path dir;

    /**
     * The last case ({@code --ntp 50}: rate corrections of up to 50 ppm, 2 messages/s) had the truth
     * outside the bounds at 43 message ends on the session's start (up to 11.8 µs, just after a
     * steep 4-s piece): a knot's zone that met another was dropped (PiecewiseEstimator.splitAtKnots).
     */
    @ParameterizedTest(name = "seed {0}, {1} msg/s, {2}, --ntp {3}")
    @CsvSource({"1, 4, 1h, 1", "2, 4, 1h, 1", "2, 2, 2h, 50"})
    void theTruthIsInsideTheResultsBoundsAtEveryInstant(long seed, String rate, String duration, String ntp) throws Exception {
        CommandRun sim = CommandRun.of("simulate", "-o", dir.toString(), "--nodes", "2", "--rate", rate, "--format", "text",
                "--duration", duration, "--min-latency", "40us", "--min-latency-back", "40us", "--ntp", ntp, "--slews", "2",
                "--seed", Long.toString(seed));
        assertThat(sim.exitCode()).as(sim.err()).isZero();
        Path messages = dir.resolve("messages.txt");
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", messages.toString(), "--max-slew-rate", "500", "--reference", "0",
                "-o", result.toString());
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        CommandRun eval = CommandRun.of("eval", result.toString(), messages.toString(),
                "--truth", dir.resolve("truth.json").toString());
        assertThat(eval.exitCode()).as(eval.err()).isZero();
        assertThat(eval.out()).contains("no inversion").contains("bounds contain the truth at 100.00%");

        SyncResult r = ResultFile.read(result);
        assertThat(r.stats()).containsEntry("max_slew_rate_ppm", 500.0);
        assertThat(r.pairs().get(0).quality()).isEqualTo(Quality.PIECEWISE);
        NodeResult node = r.nodes().stream().filter(n -> n.name().equals("1")).findFirst().orElseThrow();
        assertThat(node.reference()).isEqualTo("0");
        TruthFile truth = TruthFile.read(dir.resolve("truth.json"));
        ClockModel own = truth.clock("1");
        ClockModel ref = truth.clock("0");
        List<LinearSegment> segs = node.transform().segments();
        NodeBounds bounds = node.bounds();
        assertThat(segs.size()).isGreaterThan(2);

        List<Long> instants = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i + 1 < bounds.size(); i++) {
            long t0 = bounds.rowT(i);
            long t1 = bounds.rowT(i + 1);
            if (t1 - t0 > 1) {
                instants.add(t0 + (t1 - t0) / 2);
                instants.add(t0 + 1 + rnd.nextLong(t1 - t0 - 1));
            }
        }
        int slewInstants = 0;
        for (int k = 1; k < segs.size(); k++) {
            LinearSegment s = segs.get(k);
            instants.add(s.from());
            instants.add(s.from() - 1);
            if (s.to() != null && s.to() - s.from() < 10 * SECOND) {
                for (int q = 1; q < 16; q++) {
                    instants.add(s.from() + (s.to() - s.from()) * q / 16);
                    slewInstants++;
                }
            }
        }
        long first = bounds.rowT(0);
        long last = bounds.rowT(bounds.size() - 1);
        for (long d : new long[] {1, SECOND, 60 * SECOND, 600 * SECOND}) {
            instants.add(first - d);
            instants.add(last + d);
            instants.add(node.start() - d);
            instants.add(node.end() + d);
        }
        assertThat(slewInstants).as("instants inside a slew's segment").isPositive();

        List<String> outside = new ArrayList<>();
        for (long t : instants) {
            // the reference clock's reading at the instant node 1's clock read t
            long onReference = ref.local(own.trueTime(t));
            double error = (double) (onReference - t) - node.transform().correction(t);
            double minus = bounds.minus(t);
            double plus = bounds.plus(t);
            if (error < -minus - 2 || error > plus + 2) {
                outside.add(String.format("t %d: truth %.1f ns from the transform, bounds [%.1f, %.1f]", t, error, -minus, plus));
            }
        }
        assertThat(outside).as("%d instants checked; the truth outside the bounds at", instants.size()).isEmpty();
        assertThat(instants.size()).isGreaterThan(1000);
    }
}
