package org.tracesync.cli.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.tracesync.cli.ProgressReporter;
import org.tracesync.core.accumulate.PairAccumulator;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.estimate.ConvexHullEstimator;
import org.tracesync.core.estimate.PairEstimate;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.simulate.ClockModel;

/**
 * Builds and writes the HTML report: reads the traces (when given) once, streaming, into the
 * report's samples and into exact pair accumulators (for the hulls and bounds of Figure 5), then
 * renders {@link HtmlReport} and moves the page into place atomically (a report is never left
 * half-written). Traces that cannot be read become a warning on the page, not a failure.
 */
public final class ReportGenerator {

    /**
     * What happened.
     *
     * @param messages    messages read from the traces (0 without traces)
     * @param inversions  messages received before sent after correction
     * @param traceError  why the traces could not be read, or null
     */
    public record Outcome(Path file, long messages, long inversions, String traceError) {
    }

    private ReportGenerator() {
    }

    /**
     * @param traces     the traces, or null
     * @param totalBytes their size for the progress display (≤ 0 when unknown)
     * @param bytesRead  bytes read so far, or null when unknown
     * @param eventsRead events read so far (shown as the rate), or null to show messages instead
     * @param warnings   problems met before (e.g. traces that could not be opened)
     */
    public static Outcome write(Path out, String title, SyncResult result, MessageInput traces, long totalBytes,
                                LongSupplier bytesRead, LongSupplier eventsRead, Map<String, ClockModel> truth,
                                List<String> warnings,
                                boolean quiet) throws IOException {
        List<String> inputWarnings = new ArrayList<>(warnings);
        ReportSampler sampler = null;
        Map<String, PairGeometry> geometry = new HashMap<>();
        String traceError = null;
        if (traces != null) {
            List<NodeInfo> nodes = traces.nodes();
            List<String> unknown = nodes.stream().map(NodeInfo::name)
                    .filter(n -> result.nodes().stream().noneMatch(r -> r.name().equals(n))).toList();
            if (!unknown.isEmpty()) {
                inputWarnings.add("traces name nodes the result does not know: " + unknown
                        + " (were these traces synchronized into this result?)");
            }
            ReportSampler s = new ReportSampler(result, nodes);
            PairAccumulators acc = new PairAccumulators(nodes.size());
            AtomicLong count = new AtomicLong();
            try (ProgressReporter p = ProgressReporter.start("reading traces", totalBytes, bytesRead,
                    eventsRead != null ? eventsRead : count::get, eventsRead != null ? "events" : "messages", quiet)) {
                org.tracesync.core.model.MessageSink fanOut = (sender, receiver, sendTime, recvTime) -> {
                    count.incrementAndGet();
                    s.message(sender, receiver, sendTime, recvTime);
                    acc.message(sender, receiver, sendTime, recvTime);
                };
                if (traces instanceof org.tracesync.formats.input.MergedTraceInput captures) {
                    captures.read(fanOut, s); // captures also give broadcast groups
                } else {
                    traces.readMessages(fanOut);
                }
                sampler = s;
                inputWarnings.addAll(traces.warnings());
                for (PairAccumulator pa : acc.nonEmptyPairs()) {
                    PairEstimate e = ConvexHullEstimator.estimate(pa);
                    geometry.put(nodes.get(e.a()).name() + "|" + nodes.get(e.b()).name(), geometry(e));
                }
            } catch (IOException | RuntimeException e) {
                traceError = e.getMessage() == null ? e.toString() : e.getMessage();
                inputWarnings.add("traces could not be read, so message points are not drawn: " + traceError);
                sampler = null;
            }
        }
        ReportInput input = new ReportInput(title, result, sampler, inputWarnings, truth, geometry);
        Path parent = out.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path tmp = parent.resolve("." + out.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                if (traces instanceof org.tracesync.formats.spans.SpanMessageInput spans && traceError == null) {
                    // span files: their own section before the end of the page (SpanReportSection)
                    java.io.StringWriter page = new java.io.StringWriter();
                    HtmlReport.write(input, page);
                    String html = page.toString();
                    int end = html.lastIndexOf("</body>");
                    w.write(html.substring(0, end) + SpanReportSection.html(result, spans) + html.substring(end));
                } else {
                    HtmlReport.write(input, w);
                }
            }
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return new Outcome(out, sampler == null ? 0 : sampler.messages(), sampler == null ? 0 : sampler.inversions(),
                traceError);
    }

    /** Hulls and envelope of one pair estimate, in the pair's (u, v = y − x) coordinates. */
    static PairGeometry geometry(PairEstimate e) {
        long[] pv = new long[e.pv().length];
        for (int i = 0; i < pv.length; i++) {
            pv[i] = e.pv()[i] + e.v0();
        }
        long[] qv = new long[e.qv().length];
        for (int i = 0; i < qv.length; i++) {
            qv[i] = e.qv()[i] + e.v0();
        }
        long[] eu = new long[0];
        double[] lo = new double[0];
        double[] hi = new double[0];
        if (e.hasBounds() && e.maxX() > e.minX()) {
            int n = 200;
            eu = new long[n + 1];
            lo = new double[n + 1];
            hi = new double[n + 1];
            for (int i = 0; i <= n; i++) {
                long x = e.minX() + Math.round((double) (e.maxX() - e.minX()) * i / n);
                eu[i] = x - e.x0();
                lo[i] = e.lowerAToB().deltaAt(x);
                hi[i] = e.upperAToB().deltaAt(x);
            }
        }
        return new PairGeometry(e.x0(), e.pu(), pv, e.qu(), qv, eu, lo, hi);
    }
}
