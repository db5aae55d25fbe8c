package org.tracesync.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClockEvent;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.core.simulate.ClockWander;
import org.tracesync.core.simulate.ClusterSimulator;
import org.tracesync.core.simulate.KeyKind;
import org.tracesync.core.simulate.LatencyModel;
import org.tracesync.core.simulate.SimulationConfig;
import org.tracesync.core.simulate.Topology;
import org.tracesync.core.simulate.TruthScore;

/**
 * The acceptance grid of issue #13 (docs/PERFORMANCE.md, "Long traces"): simulated 2-node traces
 * with each clock behaviour (quadratic drift, frequency random walk, NTP-like rate corrections
 * with 500 ppm slews, steps) × message rates × minimum latencies × durations, each synchronized
 * in-process by the default pipeline (before the controlled logical clock's repair, which only
 * the {@code sync} command runs) and scored against the true clocks at every message end. The
 * clocks are exactly those of {@code simulate} with the same options ({@link ClockWander} on
 * {@link SimulationConfig#randomClocks}), the latencies {@code --min-latency L --min-latency-back L
 * --latency-tail 100us}.
 *
 * <p>Per case it prints: messages, pieces, inversions, the share of checked message ends whose
 * truth lies inside the bounds, the max error against the minimum latency, and the steps found
 * against the true ones (a true step is found when a reported step's [earliest, latest] holds its
 * time and its size bounds hold its size). PASS needs 0 inversions, ≥ 99.9 % inside, max error ≤
 * the minimum latency and every step found.
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.LongTraceGridRun
 *     [behaviours=quadratic,walk,ntp-slews,steps] [rates=2,5,50] [latencies-us=30,60] [hours=2,6,12] [seed=1]</pre>
 * Each argument is a comma-separated list; "-" keeps the default.
 */
public final class LongTraceGridRun {

    private static final long HOUR = 3_600_000_000_000L;
    private static final long START = SimulationConfig.DEFAULT_START;

    private LongTraceGridRun() {
    }

    public static void main(String[] args) throws Exception {
        List<String> behaviours = list(args, 0, "quadratic,walk,ntp-slews,steps");
        List<String> rates = list(args, 1, "2,5,50");
        List<String> latencies = list(args, 2, "30,60");
        List<String> hours = list(args, 3, "2,6,12");
        long seed = args.length > 4 && !args[4].equals("-") ? Long.parseLong(args[4]) : 1;
        System.out.printf(Locale.ROOT, "%-10s %5s %6s %6s %9s %6s %5s %9s %10s %6s %9s %s%n", "behaviour", "hours",
                "msg/s", "lat", "messages", "pieces", "inv", "inside", "max err", "/lat", "steps", "verdict");
        int failed = 0;
        for (String behaviour : behaviours) {
            for (String h : hours) {
                for (String r : rates) {
                    for (String l : latencies) {
                        failed += run(behaviour, (long) (Double.parseDouble(h) * HOUR), Double.parseDouble(r),
                                Long.parseLong(l) * 1_000L, seed) ? 0 : 1;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d case(s) failed%n", failed);
    }

    private static List<String> list(String[] args, int i, String def) {
        return List.of((args.length > i && !args[i].equals("-") ? args[i] : def).split(","));
    }

    /** The clocks of {@code simulate --nodes 2 --seed S} with the behaviour's options. */
    static SimulationConfig config(String behaviour, long duration, double rate, long minLatency, long seed) {
        double maxDelta = 0;
        ClockWander wander = ClockWander.NONE;
        switch (behaviour) {
            case "quadratic" -> maxDelta = 0.5e-6 / 3.6e12 / 2; // --max-drift-change 0.5 (ppm/h)
            case "walk" -> wander = wander.withWalk(10_000_000_000L, 0.01e-6); // --walk 0.01
            case "ntp-slews" -> wander = wander.withNtp(1_024_000_000_000L, 1e-6).withSlews(2, 500e-6); // --ntp 1 --slews 2
            case "steps" -> wander = wander.withSteps(2, 5_000_000L); // --steps 2
            default -> throw new IllegalArgumentException("behaviour: quadratic, walk, ntp-slews or steps, not " + behaviour);
        }
        LatencyModel latency = new LatencyModel(minLatency, minLatency, LatencyModel.Tail.EXPONENTIAL, 100_000, 0);
        List<ClockModel> clocks = SimulationConfig.randomClocks(SimulationConfig.names(2, null), START, seed,
                1_000_000_000L, 50e-6, maxDelta);
        clocks = wander.apply(clocks, seed, START, duration);
        return new SimulationConfig(seed, clocks, Topology.CHAIN.links(2, latency), START, duration, rate, false, 0,
                0.0, KeyKind.MESSAGE_ID);
    }

    static boolean run(String behaviour, long duration, double rate, long minLatency, long seed) throws Exception {
        SimulationConfig config = config(behaviour, duration, rate, minLatency, seed);
        MessageInput input = new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return config.names().stream().map(n -> new NodeInfo(n, "sim")).toList();
            }

            @Override
            public void readMessages(MessageSink sink) {
                new ClusterSimulator(config).run(sink);
            }
        };
        SyncResult result = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference("0")).result();
        Map<String, ClockModel> truth = config.clocks().stream()
                .collect(Collectors.toMap(ClockModel::name, Function.identity()));
        TruthScore score = new TruthScore(result, config.names(), truth, 2.0);
        new ClusterSimulator(config).run(score);
        TruthScore.Score s = score.score();
        PairResult pair = result.pairs().get(0);
        // node 0 reads true time, so a-times are true times
        List<ClockEvent> trueSteps = new ArrayList<>(config.clocks().get(1).steps());
        int found = 0;
        for (ClockEvent e : trueSteps) {
            for (ClockStep st : pair.steps()) {
                double size = e.step(); // b − a jumps by the step of b's clock
                if (st.earliest() <= e.at() && e.at() <= st.latest() && st.sizeMin() <= size && size <= st.sizeMax()) {
                    found++;
                    break;
                }
            }
        }
        double inside = s.checks() == 0 ? 0 : 1.0 - (double) s.violations() / s.checks();
        boolean pass = s.inversions() == 0 && s.violations() * 1000 <= s.checks() && s.maxError() <= minLatency
                && found == trueSteps.size() && pair.steps().size() == trueSteps.size();
        System.out.printf(Locale.ROOT, "%-10s %5.1f %6.0f %4dus %9d %6d %5d %8.3f%% %8.1fus %6.2f %4d/%d/%d %s%n",
                behaviour, duration / (double) HOUR, rate, minLatency / 1000, s.messages(), pair.pieces(),
                s.inversions(), 100 * Math.floor(inside * 1e5) / 1e5, s.maxError() / 1000, s.maxError() / minLatency,
                found, trueSteps.size(), pair.steps().size(), pass ? "PASS" : "FAIL " + s.firstViolation());
        System.out.flush();
        return pass;
    }
}
