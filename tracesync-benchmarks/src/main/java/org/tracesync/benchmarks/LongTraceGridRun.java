package org.tracesync.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.tracesync.core.estimate.ClockStep;
import org.tracesync.core.estimate.PiecewiseEstimator;
import org.tracesync.core.model.MessageInput;
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
 * <p>Per case it prints: messages, pieces, inversions (before any repair), the share of checked
 * message ends whose truth lies inside the bounds, the max error at b's message ends against the
 * minimum latency, two floors under any estimator's max error at the slews ({@link #slewFloor}: chains
 * with bridges of up to 1,000 ppm on a 10 ms grid, and no faster than the slew itself on a 10 ms grid, refined
 * to 1 ms for a failing case near its minimum latency), the
 * steps found / true / reported (a true step is found when a reported step's [earliest, latest]
 * holds its time and its size bounds hold its size), and how many of b's message ends lie within
 * a reported step's interval widened by its size (there the messages fit either clock, so the
 * side of the step they fall on is unknown to any estimate; they are left out of the max error).
 * PASS needs 0 inversions, ≥ 99.9 % inside, max error ≤ the minimum latency and every step found
 * and no other.
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.LongTraceGridRun
 *     [behaviours=quadratic,walk,ntp-slews,steps] [rates=2,5,50] [latencies-us=30,60] [hours=2,6,12] [seed=1]
 *     [max-slew-rate-ppm=-]</pre>
 * Each argument is a comma-separated list; "-" keeps the default. The sixth, a number, synchronizes
 * with that slew-rate bound ({@code sync --max-slew-rate PPM}; default none), and each case's line
 * then ends with how many slews the fit kept beyond it. {@code -Dgrid.floors=false} skips the floors
 * (printed "-"; they do not depend on the fit).
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
        double maxSlewRate = args.length > 5 && !args[5].equals("-") ? Double.parseDouble(args[5]) * 1e-6
                : PiecewiseEstimator.NO_SLEW_RATE_BOUND;
        if (maxSlewRate != PiecewiseEstimator.NO_SLEW_RATE_BOUND) {
            System.out.printf(Locale.ROOT, "slew-rate bound: %.1f ppm (sync --max-slew-rate)%n", maxSlewRate * 1e6);
        }
        System.out.printf(Locale.ROOT, "%-10s %5s %6s %6s %9s %6s %5s %9s %10s %6s %9s %9s %9s %8s %s%n", "behaviour", "hours",
                "msg/s", "lat", "messages", "pieces", "inv", "inside", "max err", "/lat", "floor", "floor500", "steps",
                "in steps", "verdict");
        int failed = 0;
        for (String behaviour : behaviours) {
            for (String h : hours) {
                for (String r : rates) {
                    for (String l : latencies) {
                        failed += run(behaviour, (long) (Double.parseDouble(h) * HOUR), Double.parseDouble(r),
                                Long.parseLong(l) * 1_000L, seed, maxSlewRate) ? 0 : 1;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d case(s) failed%n", failed);
    }

    private static List<String> list(String[] args, int i, String def) {
        return List.of((args.length > i && !args[i].equals("-") && !args[i].isEmpty() ? args[i] : def).split(","));
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

    static boolean run(String behaviour, long duration, double rate, long minLatency, long seed, double maxSlewRate)
            throws Exception {
        SimulationConfig config = config(behaviour, duration, rate, minLatency, seed);
        MessageInput input = ClusterSimulator.input(config);
        SyncResult result = Synchronizer.synchronize(input,
                Synchronizer.Options.defaults().withReference("0").withMaxSlewRate(maxSlewRate)).result();
        Map<String, ClockModel> truth = config.clocks().stream()
                .collect(Collectors.toMap(ClockModel::name, Function.identity()));
        TruthScore score = new TruthScore(result, config.names(), truth, 2.0);
        new ClusterSimulator(config).run(score);
        TruthScore.Score s = score.score();
        PairResult pair = result.pairs().get(0);
        List<ClockEvent> trueSteps = new ArrayList<>(config.clocks().get(1).steps());
        int found = 0;
        for (ClockEvent e : trueSteps) {
            for (ClockStep st : pair.steps()) {
                double size = e.step(); // b − a jumps by the step of b's clock
                long at = config.clocks().get(0).local(e.at()); // on a's clock, as the pair's steps
                if (st.earliest() <= at && at <= st.latest() && st.sizeMin() <= size && size <= st.sizeMax()) {
                    found++;
                    break;
                }
            }
        }
        // the error at b's message ends, away from the reported steps: within a step's [earliest,
        // latest] (widened by its size: after a backward step b reads those local times twice)
        // the messages fit either clock, and no estimate can tell on which side they fall
        ClockModel clockA = config.clocks().get(0);
        ClockModel clockB = config.clocks().get(1);
        org.tracesync.core.reduce.NodeResult nodeB = result.nodes().stream().filter(n -> n.name().equals("1"))
                .findFirst().orElseThrow();
        double[] away = new double[1];
        long[] inSteps = new long[1];
        new ClusterSimulator(config).run(new org.tracesync.core.simulate.SimulationSink() {
            @Override
            public void message(int sender, int receiver, long sendTime, long recvTime) {
                long t = sender == 1 ? sendTime : recvTime;
                long onA = clockA.local(clockB.trueTime(t));
                for (ClockStep st : pair.steps()) {
                    if (onA >= st.earliest() - Math.abs(st.size()) && onA <= st.latest() + Math.abs(st.size())) {
                        inSteps[0]++;
                        return;
                    }
                }
                double error = (double) (onA - t) - nodeB.transform().correction(t);
                away[0] = Math.max(away[0], Math.abs(error));
            }
        });
        boolean slews = behaviour.equals("ntp-slews") && !"false".equals(System.getProperty("grid.floors"));
        double floor = slews ? slewFloor(config, minLatency, FLOOR_MAX_RATE, FLOOR_GRID) : Double.NaN;
        double floorSlewRate = slews ? slewFloor(config, minLatency, Double.NaN, FLOOR500_GRID) : Double.NaN;
        if (slews && away[0] > minLatency && floorSlewRate < REFINE_BELOW * minLatency && FINE_FLOOR_GRID < FLOOR500_GRID) {
            // a failing case whose floor is near its minimum latency: a finer grid keeps more chains
            floorSlewRate = Math.max(floorSlewRate, slewFloor(config, minLatency, Double.NaN, FINE_FLOOR_GRID));
        }
        double inside = s.checks() == 0 ? 0 : 1.0 - (double) s.violations() / s.checks();
        boolean pass = s.inversions() == 0 && s.violations() * 1000 <= s.checks() && away[0] <= minLatency
                && found == trueSteps.size() && pair.steps().size() == trueSteps.size();
        System.out.printf(Locale.ROOT, "%-10s %5.1f %6.0f %4dus %9d %6d %5d %8.3f%% %8.1fus %6.2f %9s %9s %5d/%d/%d %8d %s%n",
                behaviour, duration / (double) HOUR, rate, minLatency / 1000, s.messages(), pair.pieces(),
                s.inversions(), 100 * Math.floor(inside * 1e5) / 1e5, away[0] / 1000, away[0] / minLatency,
                Double.isNaN(floor) ? "-" : String.format(Locale.ROOT, "%.1fus", floor / 1000),
                Double.isNaN(floorSlewRate) ? "-" : String.format(Locale.ROOT, "%.1fus", floorSlewRate / 1000),
                found, trueSteps.size(), pair.steps().size(), inSteps[0], (pass ? "PASS" : "FAIL " + s.firstViolation())
                        + (maxSlewRate == PiecewiseEstimator.NO_SLEW_RATE_BOUND ? ""
                                : " beyond bound: " + result.stats().get("slews_beyond_bound")));
        System.out.flush();
        return pass;
    }

    /** Grid of the slew floor's knots (ns). */
    private static final long FLOOR_GRID = 10_000_000L;

    /**
     * Grid of the knots of the floor whose bridges are no faster than the slew itself (ns): 10 ms,
     * or the system property {@code floor500.grid} (ns).
     */
    static final long FLOOR500_GRID = Long.getLong("floor500.grid", 10_000_000L);

    /**
     * Its finer grid (1 ms; the system property {@code floor500.fine}), used for a failing case
     * whose floor on the coarse grid is below {@link #REFINE_BELOW} × its minimum latency: there a
     * finer grid (more chains, so a floor at least as high) may decide whether the case is
     * reachable (seed 2, 6 h, 5 msg/s, 60 µs: 60.0 µs on 10 ms, 62.6 on 1 ms). Not everywhere: on
     * 1 ms the floors of the 50 msg/s cases take many minutes.
     */
    static final long FINE_FLOOR_GRID = Long.getLong("floor500.fine", 1_000_000L);

    /** See {@link #FINE_FLOOR_GRID}. */
    private static final double REFINE_BELOW = 1.25;

    /** Fastest slew the floor's chains may have: the estimator's limit (1,000 ppm). */
    private static final double FLOOR_MAX_RATE = 1e-3;

    /**
     * A floor under any estimator's max error at the slews (ns): around each slew of either clock
     * (a rate change of 100 ppm or more and its return), the relative clock b − a on a's clock is
     * modelled as its true line before the slew up to a knot k1, a straight line (the bridge) to
     * its true line after the slew at k2, that line after (the true clock is one such chain).
     * Every chain (k1, k2 on a grid of {@code grid} ns within 3 s of the slew, the bridge's rate
     * at most {@code maxRate} from the line before) that keeps every message of the window at
     * least the minimum latency away on its side is as consistent with the messages as the truth,
     * even knowing both lines and the minimum latency exactly. At a message instant where two
     * such chains differ by D, any estimate is at least D/2 from one of them: the largest D/2 is
     * returned (0 without slews). A coarser grid or a lower rate keeps fewer chains, so the
     * figure can only grow with a finer grid: each is a floor. {@code maxRate} NaN: the slew's
     * own rate on the relative clock (the simulated 500 ppm of the slewing clock: 499.9–500.1 ppm
     * of b − a; ntpd's limit), so that no chain slews faster than the truth. A slew whose window
     * holds another rate change (the true clock is then no such chain) is left out.
     * O(grid² · messages near the slews).
     */
    static double slewFloor(SimulationConfig config, long minLatency, double maxRate, long grid) {
        ClockModel a = config.clocks().get(0);
        ClockModel b = config.clocks().get(1);
        List<long[]> slews = new ArrayList<>(); // a-local start, end
        for (ClockModel c : config.clocks()) {
            List<ClockEvent> e = c.events();
            for (int k = 0; k + 1 < e.size(); k++) {
                if (Math.abs(e.get(k).rate()) >= 100e-6 && Math.abs(e.get(k).rate() + e.get(k + 1).rate()) < 1e-9) {
                    slews.add(new long[] {a.local(e.get(k).at()), a.local(e.get(k + 1).at())});
                }
            }
        }
        if (slews.isEmpty()) {
            return 0;
        }
        long reach = 3_000_000_000L;
        // messages near a slew: {a-time x, v = b − a, +1 for a → b (the chain stays below v), −1 for b → a}
        List<List<double[]>> near = new ArrayList<>();
        for (int k = 0; k < slews.size(); k++) {
            near.add(new ArrayList<>());
        }
        new ClusterSimulator(config).run(new org.tracesync.core.simulate.SimulationSink() {
            @Override
            public void message(int sender, int receiver, long sendTime, long recvTime) {
                long x = sender == 0 ? sendTime : recvTime;
                long y = sender == 0 ? recvTime : sendTime;
                for (int k = 0; k < slews.size(); k++) {
                    long[] sl = slews.get(k);
                    if (x > sl[0] - reach - 1_000_000_000L && x < sl[1] + reach + 1_000_000_000L) {
                        near.get(k).add(new double[] {x - sl[0], y - x, sender == 0 ? 1 : -1});
                    }
                }
            }
        });
        double floor = 0;
        double tau = minLatency * (1 - 1e-3);
        for (int k = 0; k < slews.size(); k++) {
            long s = slews.get(k)[0];
            long e = slews.get(k)[1];
            // true lines before and after, relative to s: g(x) = b(trueTime_a(x)) − x
            long g0 = g(a, b, s - 1_000_000_000L) - g(a, b, s);
            double dl = -g0 / 1e9;
            long base = g(a, b, s);
            double ge = g(a, b, e) - base;
            double dr = (g(a, b, e + 1_000_000_000L) - base - ge) / 1e9;
            long span = e - s;
            List<double[]> msgs = near.get(k);
            double[] lo = new double[msgs.size()];
            double[] hi = new double[msgs.size()];
            java.util.Arrays.fill(lo, Double.POSITIVE_INFINITY);
            java.util.Arrays.fill(hi, Double.NEGATIVE_INFINITY);
            boolean truthFits = false;
            // the slew's own rate on b − a, with room for the rounding of its evaluation
            double limit = Double.isNaN(maxRate) ? Math.abs(ge / span - dl) * (1 + 1e-9) + 1e-12 : maxRate;
            for (long k1 = -reach; k1 <= span; k1 += grid) {
                for (long k2 = Math.max(k1 + grid, 0) + (span % grid); k2 <= span + reach; k2 += grid) {
                    double v1 = dl * k1;
                    double v2 = ge + dr * (k2 - span);
                    double rate = (v2 - v1) / (k2 - k1);
                    if (Math.abs(rate - dl) > limit) {
                        continue;
                    }
                    boolean fits = true;
                    for (double[] m : msgs) {
                        double c = m[0] < k1 ? dl * m[0] : m[0] < k2 ? v1 + rate * (m[0] - k1) : ge + dr * (m[0] - span);
                        double gap = m[2] > 0 ? (m[1] - base) - c : c - (m[1] - base);
                        if (gap < tau) {
                            fits = false;
                            break;
                        }
                    }
                    if (!fits) {
                        continue;
                    }
                    if (k1 == 0 && k2 == span) {
                        truthFits = true;
                    }
                    for (int i = 0; i < msgs.size(); i++) {
                        double x = msgs.get(i)[0];
                        double c = x < k1 ? dl * x : x < k2 ? v1 + rate * (x - k1) : ge + dr * (x - span);
                        lo[i] = Math.min(lo[i], c);
                        hi[i] = Math.max(hi[i], c);
                    }
                }
            }
            if (!truthFits) {
                continue; // another clock event (a slew of the other clock, a correction) in the window: not this model
            }
            for (int i = 0; i < msgs.size(); i++) {
                if (hi[i] >= lo[i]) {
                    floor = Math.max(floor, (hi[i] - lo[i]) / 2);
                }
            }
        }
        return floor;
    }

    /** b − a at a-time x (ns). */
    private static long g(ClockModel a, ClockModel b, long x) {
        return b.local(a.trueTime(x)) - x;
    }
}
