package org.tracesync.benchmarks;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.PairEstimate;

/** Pair accumulation (hulls) per message, and estimation per pair. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HullAccumulationBenchmark {

    static final int MESSAGES = 1_000_000;

    /** in_order: time-ordered messages; shuffled: every message out of order (worst case). */
    @Param({"in_order", "shuffled"})
    public String order;

    long[] x;
    long[] y;
    boolean[] forward;
    PairAccumulator full;

    @Setup
    public void setup() {
        SplittableRandom r = new SplittableRandom(1);
        x = new long[MESSAGES];
        y = new long[MESSAGES];
        forward = new boolean[MESSAGES];
        long t0 = 1_700_000_000_000_000_000L;
        for (int i = 0; i < MESSAGES; i++) {
            long t = t0 + (long) i * 3_600_000L;
            long lat = 50_000 + (long) (-Math.log(1 - r.nextDouble()) * 40_000);
            forward[i] = (i & 1) == 0;
            x[i] = forward[i] ? t : t + lat;
            y[i] = (forward[i] ? t + lat : t) + 80_000_000 + (long) (40e-6 * (t - t0));
        }
        if (order.equals("shuffled")) {
            for (int i = MESSAGES - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                long tx = x[i];
                x[i] = x[j];
                x[j] = tx;
                long ty = y[i];
                y[i] = y[j];
                y[j] = ty;
                boolean tf = forward[i];
                forward[i] = forward[j];
                forward[j] = tf;
            }
        }
        full = accumulate();
    }

    private PairAccumulator accumulate() {
        PairAccumulator acc = new PairAccumulator(0, 1);
        for (int i = 0; i < MESSAGES; i++) {
            if (forward[i]) {
                acc.addAToB(x[i], y[i]);
            } else {
                acc.addBToA(y[i], x[i]);
            }
        }
        acc.aToB().size(); // fold pending points
        acc.bToA().size();
        return acc;
    }

    /** Cost per message of building both half hulls. */
    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public PairAccumulator accumulatePerMessage() {
        return accumulate();
    }

    /** Cost of estimating one pair from its hulls (feasible region, bisector, envelope). */
    @Benchmark
    public PairEstimate estimatePair() {
        return ConvexHullEstimator.estimate(full);
    }
}
