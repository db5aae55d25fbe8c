package org.tracesync.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.formats.spans.OffsetOnlyFit;
import org.tracesync.formats.spans.OneWayAttachment;
import org.tracesync.formats.spans.PerTraceAdjuster;
import org.tracesync.formats.spans.ShopSimulation;
import org.tracesync.formats.spans.SimulatedSpan;
import org.tracesync.formats.spans.SimulatedSpanWriter;
import org.tracesync.formats.spans.SpanFiles;
import org.tracesync.formats.spans.SpanFormat;
import org.tracesync.formats.spans.SpanKind;
import org.tracesync.formats.spans.SpanMessageInput;
import org.tracesync.formats.spans.SpanOptions;
import org.tracesync.global.GlobalReduction;

/**
 * tracesync's per-host fit against a Jaeger-style per-trace adjuster ({@link PerTraceAdjuster}) on a
 * simulated shop (docs/PERFORMANCE.md, "Spans"): 5 services on 4 hosts whose clocks are off by up to
 * ±5 ms and drift by up to ±50 ppm (host 10.0.1.1 keeps true time and is the reference of both), µs
 * timestamps. For every span start and end: the error of the corrected time against the true time;
 * for every cross-host caller/callee pair: violations left (beyond 1 µs).
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.SpanBaselineRun [traces] [seed]</pre>
 */
public final class SpanBaselineRun {

    private SpanBaselineRun() {
    }

    public static void main(String[] args) throws Exception {
        int traces = args.length > 0 ? Integer.parseInt(args[0]) : 5556;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        ShopSimulation sim = new ShopSimulation(ShopSimulation.Config.defaults(seed));
        Path file = Files.createTempFile("spans-baseline", ".jsonl");
        List<List<SimulatedSpan>> all = new ArrayList<>();
        try (SimulatedSpanWriter w = new SimulatedSpanWriter(SpanFormat.OTLP_JSON, file)) {
            for (int i = 0; i < traces; i++) {
                List<SimulatedSpan> t = sim.nextTrace();
                all.add(t);
                w.write(t);
            }
        }
        List<ClockModel> clocks = sim.clocks();
        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults()));
        List<String> names = input.nodes().stream().map(n -> n.name()).toList();
        SyncResult fit = Synchronizer.synchronize(input, Synchronizer.Options.defaults().withReference(ShopSimulation.hostName(0))
                .withReducer(OneWayAttachment.afterFit(GlobalReduction.reducer(GlobalReduction.Mode.WHERE_REDUNDANT, 0.0))))
                .result();
        fit = OneWayAttachment.attach(OffsetOnlyFit.refitImplausible(fit, input), input);
        Map<Integer, NodeResult> byHost = new HashMap<>();
        for (int h = 0; h < ShopSimulation.HOSTS; h++) {
            byHost.put(h, fit.node(ShopSimulation.hostName(h)));
        }
        Files.delete(file);

        int spans = all.stream().mapToInt(List::size).sum();
        double[] errFit = new double[2 * spans];
        double[] errAdj = new double[2 * spans];
        double[] errRaw = new double[2 * spans];
        long[] violations = new long[3]; // raw, fit, adjuster
        int k = 0;
        for (List<SimulatedSpan> t : all) {
            int[] hostOf = new int[t.size()];
            for (int i = 0; i < t.size(); i++) {
                hostOf[i] = ShopSimulation.hostOf(t.get(i).service());
            }
            long[] skew = PerTraceAdjuster.adjust(t, hostOf);
            Map<Long, Integer> byId = new HashMap<>();
            for (int i = 0; i < t.size(); i++) {
                byId.put(t.get(i).spanId(), i);
            }
            long[][] corrected = new long[3][2 * t.size()];
            for (int i = 0; i < t.size(); i++) {
                SimulatedSpan s = t.get(i);
                ClockModel c = clocks.get(hostOf[i]);
                NodeResult n = byHost.get(hostOf[i]);
                long[] local = {s.start(), s.end()};
                for (int e = 0; e < 2; e++) {
                    long truth = c.trueTime(local[e]);
                    corrected[0][2 * i + e] = local[e];
                    corrected[1][2 * i + e] = n.transform().apply(local[e]);
                    corrected[2][2 * i + e] = local[e] + skew[i];
                    errRaw[k] = Math.abs(local[e] - truth);
                    errFit[k] = Math.abs(corrected[1][2 * i + e] - truth);
                    errAdj[k] = Math.abs(corrected[2][2 * i + e] - truth);
                    k++;
                }
            }
            for (int i = 0; i < t.size(); i++) {
                SimulatedSpan callee = t.get(i);
                Integer p = byId.get(callee.parentId());
                if (p == null || hostOf[p] == hostOf[i] || !(callee.kind() == SpanKind.SERVER || callee.kind() == SpanKind.CONSUMER)) {
                    continue;
                }
                SimulatedSpan caller = t.get(p);
                boolean end = caller.kind() == SpanKind.CLIENT && caller.end() - caller.start() > callee.end() - callee.start();
                for (int m = 0; m < 3; m++) {
                    long[] x = corrected[m];
                    if (x[2 * i] < x[2 * p] - 1000 || (end && x[2 * i + 1] > x[2 * p + 1] + 1000)) {
                        violations[m]++;
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d traces, %d spans, %d hosts; clocks: %s%n", traces, spans, names.size(), clocks);
        row("raw (no correction)", errRaw, violations[0]);
        row("per-trace adjuster (Jaeger-style)", errAdj, violations[2]);
        row("tracesync per-host fit", errFit, violations[1]);
    }

    private static void row(String what, double[] err, long violations) {
        double[] e = err.clone();
        Arrays.sort(e);
        System.out.printf(Locale.ROOT, "%-36s error vs truth: median %9.1f us  p99 %9.1f us  max %9.1f us;"
                        + " caller/callee violations beyond 1 us: %d%n", what, e[e.length / 2] / 1e3,
                e[(int) (e.length * 0.99)] / 1e3, e[e.length - 1] / 1e3, violations);
    }
}
