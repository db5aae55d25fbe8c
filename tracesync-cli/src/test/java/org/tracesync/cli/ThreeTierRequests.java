package org.tracesync.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Simulated three-tier requests for latency tests: a client, a server and a backend whose clocks
 * disagree ({@code local(t) = t + alpha + beta·(t − T0)}, true time t; optionally the drift changes to
 * {@code beta2} at a kink, a clock that is not linear). Each request is a chained
 * event "order" of 8 steps (1 client sends, 2 server receives, 3 server calls the backend,
 * 4 backend receives, 5 backend replies, 6 server receives the reply, 7 server answers, 8 client
 * receives), plus two simple events: "query" on the backend (between steps 4 and 5) and "render"
 * on the client (after step 8). Network delays 40 µs + exponential(60 µs), processing
 * 10 µs + exponential(200 µs); requests overlap (exponential gaps, mean 3 ms). Writes one JSON-lines
 * file per node (in local time order) and keeps the true latency of every measurement.
 */
final class ThreeTierRequests {

    static final long T0 = 1_700_000_000_000_000_000L;
    static final String[] NODES = {"client", "server", "backend"};
    static final int[] STEP_NODE = {0, 0, 1, 1, 2, 2, 1, 1, 0}; // index = step (1..8)

    /** True latencies: key → ns. Keys: "order/seq/from/to", "order/seq/e2e", "query/seq", "render/seq". */
    final Map<String, Long> truth = new HashMap<>();
    final List<Path> files = new ArrayList<>();

    private record Line(long local, String json) {
    }

    ThreeTierRequests(Path dir, int requests, long seed, long[] alpha, double[] beta) throws IOException {
        this(dir, requests, seed, alpha, beta, beta, Long.MAX_VALUE);
    }

    /** b's drift is {@code beta} until true time {@code kink}, {@code beta2} after it (continuous: not a linear clock). */
    private final double[] beta2;
    private final long kink;

    ThreeTierRequests(Path dir, int requests, long seed, long[] alpha, double[] beta, double[] beta2, long kink) throws IOException {
        this.beta2 = beta2;
        this.kink = kink;
        SplittableRandom rnd = new SplittableRandom(seed);
        List<List<Line>> lines = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            lines.add(new ArrayList<>());
        }
        long start = T0 + 1_000_000_000L;
        for (int seq = 1; seq <= requests; seq++) {
            start += exp(rnd, 3_000_000);
            long[] t = new long[9];
            t[1] = start;
            t[2] = t[1] + net(rnd);
            t[3] = t[2] + proc(rnd);
            t[4] = t[3] + net(rnd);
            long queryStart = t[4] + 2_000 + exp(rnd, 5_000);
            long queryStop = queryStart + 5_000 + exp(rnd, 150_000);
            t[5] = queryStop + 1_000 + exp(rnd, 5_000);
            t[6] = t[5] + net(rnd);
            t[7] = t[6] + proc(rnd);
            t[8] = t[7] + net(rnd);
            long renderStart = t[8] + 1_000 + exp(rnd, 5_000);
            long renderStop = renderStart + 3_000 + exp(rnd, 100_000);
            for (int s = 1; s <= 8; s++) {
                int n = STEP_NODE[s];
                long local = local(t[s], n, alpha, beta);
                lines.get(n).add(new Line(local, "{\"node\":\"" + NODES[n] + "\",\"t\":" + local
                        + ",\"event\":\"order\",\"seq\":" + seq + ",\"step\":" + s + "}"));
                if (s > 1) {
                    truth.put("order/" + seq + "/" + (s - 1) + "/" + s, t[s] - t[s - 1]);
                }
            }
            truth.put("order/" + seq + "/e2e", t[8] - t[1]);
            simple(lines.get(2), "backend", "query", seq, local(queryStart, 2, alpha, beta), local(queryStop, 2, alpha, beta));
            truth.put("query/" + seq, queryStop - queryStart);
            simple(lines.get(0), "client", "render", seq, local(renderStart, 0, alpha, beta), local(renderStop, 0, alpha, beta));
            truth.put("render/" + seq, renderStop - renderStart);
        }
        for (int n = 0; n < 3; n++) {
            List<Line> l = lines.get(n);
            l.sort(Comparator.comparingLong(Line::local));
            Path f = dir.resolve(NODES[n] + ".jsonl");
            try (BufferedWriter w = Files.newBufferedWriter(f, StandardCharsets.UTF_8)) {
                for (Line x : l) {
                    w.write(x.json());
                    w.write('\n');
                }
            }
            files.add(f);
        }
    }

    /** Default skew: offsets of tens of ms, rates within ±50 ppm. */
    ThreeTierRequests(Path dir, int requests, long seed) throws IOException {
        this(dir, requests, seed, new long[] {37_000_000L, -12_345_678L, 5_432_100L}, new double[] {42e-6, -31e-6, 18e-6});
    }

    long local(long t, int node, long[] alpha, double[] beta) {
        if (t <= kink) {
            return t + alpha[node] + Math.round(beta[node] * (double) (t - T0));
        }
        return t + alpha[node] + Math.round(beta[node] * (double) (kink - T0) + beta2[node] * (double) (t - kink));
    }

    private static void simple(List<Line> out, String node, String event, long seq, long start, long stop) {
        out.add(new Line(start, "{\"node\":\"" + node + "\",\"t\":" + start + ",\"event\":\"" + event + "\",\"seq\":" + seq
                + ",\"phase\":\"start\"}"));
        out.add(new Line(stop, "{\"node\":\"" + node + "\",\"t\":" + stop + ",\"event\":\"" + event + "\",\"seq\":" + seq
                + ",\"phase\":\"stop\"}"));
    }

    private static long net(SplittableRandom rnd) {
        return 40_000 + exp(rnd, 60_000);
    }

    private static long proc(SplittableRandom rnd) {
        return 10_000 + exp(rnd, 200_000);
    }

    private static long exp(SplittableRandom rnd, double mean) {
        return Math.round(-mean * Math.log(1 - rnd.nextDouble()));
    }
}
