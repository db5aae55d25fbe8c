package org.tracesync.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.tracesync.probe.Probe;

/**
 * Cost of one probe call on the caller's thread (docs/PERFORMANCE.md, "Latency probe"): a chained
 * step, a simple start, a message send, and {@code System.nanoTime()} alone (the floor: every
 * record takes one). The probe writes a real trace in the background (buffers of 2^20 records,
 * drained every millisecond); records dropped because the ring was full are printed at the end of
 * each trial: the figure is the recording cost only when that count is zero.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ProbeBenchmark {

    Path dir;
    Probe probe;
    int order;
    int render;
    long seq;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("probe-bench");
        probe = Probe.open(dir, "bench", 1 << 20, 1, 1000);
        order = probe.event("order");
        render = probe.event("render");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        probe.close();
        System.out.println();
        System.out.println("probe: " + probe.lost() + " records lost (ring full)");
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public void step() {
        probe.step(order, seq++, 2);
    }

    @Benchmark
    public void start() {
        probe.start(render, seq++);
    }

    @Benchmark
    public void send() {
        probe.send(seq++);
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }
}
