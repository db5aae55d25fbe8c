import java.nio.file.Path;
import org.tracesync.formats.spans.ShopSimulation;
import org.tracesync.formats.spans.SimulatedSpanWriter;
import org.tracesync.formats.spans.SpanFormat;

/**
 * Writes the simulated shop of `simulate-spans` as one Zipkin file, optionally with the checkout
 * host's clock stepping back by 4 ms halfway (as SpanStepApplyTest): for span-step-ab.sh.
 *
 *   java -cp tracesync.jar scripts/benchmark/StepShop.java OUT.json SEED TRACES step|linear
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
    }
}
