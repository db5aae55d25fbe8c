import java.nio.file.Path;
import org.tracesync.formats.spans.ShopSimulation;
import org.tracesync.formats.spans.SimulatedSpanWriter;
import org.tracesync.formats.spans.SpanFormat;
import org.tracesync.formats.truth.TruthFile;

/**
 * Writes the simulated shop of `simulate-spans` as one Zipkin file, optionally with the checkout
 * host's clock stepping back by 4 ms halfway (as SpanStepApplyTest): for span-step-ab.sh, and
 * with TRUTH.json the hosts' true clocks for {@code eval --truth} (span-step-truth.sh).
 *
 *   java -cp tracesync.jar scripts/benchmark/StepShop.java OUT.json SEED TRACES step|linear [TRUTH.json]
 */
public class StepShop {
    public static void main(String[] args) throws Exception {
        long seed = Long.parseLong(args[1]);
        int traces = Integer.parseInt(args[2]);
        ShopSimulation.Config config = ShopSimulation.Config.defaults(seed);
        ShopSimulation sim = new ShopSimulation(config);
        if (args[3].equals("step")) {
            sim.withStep(2, config.t0() + (long) traces * config.gap() / 2, -4_000_000L);
        }
        try (SimulatedSpanWriter w = new SimulatedSpanWriter(SpanFormat.ZIPKIN_JSON, Path.of(args[0]))) {
            for (int i = 0; i < traces; i++) {
                w.write(sim.nextTrace());
            }
        }
        if (args.length > 4) {
            new TruthFile(config.t0(), sim.clocks(), 0).write(Path.of(args[4]));
        }
    }
}
