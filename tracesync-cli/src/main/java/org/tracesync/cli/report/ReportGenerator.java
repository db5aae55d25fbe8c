package org.tracesync.cli.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.tracesync.formats.io.AtomicFile;
import java.util.function.LongSupplier;
import org.tracesync.cli.ProgressReporter;
import org.tracesync.cli.TraceMembership;
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
     * The slew-rate bound the result was fitted with ({@code sync --max-slew-rate}, recorded as
     * {@code stats.max_slew_rate_ppm}; dimensionless), or
     * {@link org.tracesync.core.estimate.PiecewiseEstimator#NO_SLEW_RATE_BOUND} when none: the
     * report estimates each pair's geometry again with it, so that a piecewise pair's drawn bounds
     * are those of the fit the result holds.
     */
    public static double slewBound(SyncResult result) {
        return result.stats().get("max_slew_rate_ppm") instanceof Number ppm
                ? ppm.doubleValue() * 1e-6 : org.tracesync.core.estimate.PiecewiseEstimator.NO_SLEW_RATE_BOUND;
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
        Map<String, PairEstimate> geometry = new HashMap<>();
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
                TraceMembership membership = unknown.isEmpty()
                        ? new TraceMembership("the result", result, nodes.stream().map(NodeInfo::name).toList()) : null;
                if (membership != null) {
                    fanOut = membership.watching(fanOut);
                }
                if (traces instanceof org.tracesync.formats.input.MergedTraceInput captures) {
                    captures.read(fanOut, s); // captures also give broadcast groups
                } else {
                    traces.readMessages(fanOut);
                }
                if (membership != null) {
                    membership.check();
                }
                sampler = s;
                inputWarnings.addAll(traces.warnings());
                double slewBound = slewBound(result);
                for (PairAccumulator pa : acc.nonEmptyPairs()) {
                    PairEstimate e = ConvexHullEstimator.estimate(pa, 0, 0, "", slewBound);
                    geometry.put(nodes.get(e.a()).name() + "|" + nodes.get(e.b()).name(), e);
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
        boolean spansReadable = traceError == null;
        AtomicFile.write(out, tmp -> {
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                if (traces instanceof org.tracesync.formats.spans.SpanMessageInput spans && spansReadable) {
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
        });
        return new Outcome(out, sampler == null ? 0 : sampler.messages(), sampler == null ? 0 : sampler.inversions(),
                traceError);
    }
}
