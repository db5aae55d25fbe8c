package org.tracesync.cli;

import org.tracesync.formats.ctf.CtfFormat;
import java.io.IOException;
import java.nio.file.Path;

import org.tracesync.core.reduce.NodeResult;
import org.tracesync.formats.io.AtomicFile;
import org.tracesync.formats.ctf.CtfClockRewrite;
import org.tracesync.formats.ctf.CtfTrace;

/**
 * {@code tracesync apply} for CTF traces: a copy whose metadata clock is rewritten
 * ({@link CtfClockRewrite}; streams copied untouched), in {@code OUT/<node name>}. The error bound
 * is printed by {@link ApplyCommand} and recorded in the rewritten metadata's clock comment.
 * Piecewise transforms are refused (IllegalArgumentException) before anything is written.
 */
public final class CtfApplier implements TraceApplier {

    @Override
    public String name() {
        return "CTF";
    }

    @Override
    public Class<CtfFormat> format() {
        return CtfFormat.class;
    }

    @Override
    public Path output(Path trace, NodeResult node, Path outDir) {
        return outDir.resolve(node.name().replaceAll("[^A-Za-z0-9._-]", "_"));
    }

    @Override
    public boolean outputIsDirectory() {
        return true;
    }

    @Override
    public Applied apply(Path trace, NodeResult node, Path outDir) throws IOException {
        CtfTrace t = CtfTrace.open(trace);
        long[] range = range(t, node);
        String uncertainty = node.synchronizedToOther() ? uncertainty(node, range[0], range[1]) : "";
        CtfClockRewrite.Outcome o = write(t, node, range, uncertainty, outDir);
        return new Applied(o.output(), node.synchronizedToOther() ? String.format(java.util.Locale.ROOT,
                "clock rounding error at most %.1f ns; %s", o.errorBoundNs(), uncertainty) : "");
    }

    /** Writes the copy and says how: new clock, mid-trace instant, error bound. */
    public CtfClockRewrite.Outcome rewrite(Path trace, NodeResult node, Path outDir) throws IOException {
        CtfTrace t = CtfTrace.open(trace);
        return write(t, node, range(t, node), "", outDir);
    }

    /** The trace's first and last event times (the node's message span when it has no event). */
    private static long[] range(CtfTrace t, NodeResult node) throws IOException {
        if (!node.transform().isLinear()) {
            // refuse before reading or writing anything
            CtfClockRewrite.write(t, node.transform(), 0, 0, Path.of("unused"));
        }
        long[] range = {Long.MAX_VALUE, Long.MIN_VALUE};
        t.read(e -> {
            long ts = e.timestamp();
            if (ts < range[0]) {
                range[0] = ts;
            }
            if (ts > range[1]) {
                range[1] = ts;
            }
        });
        if (range[0] > range[1]) {
            range[0] = node.start();
            range[1] = node.end();
        }
        return range;
    }

    private CtfClockRewrite.Outcome write(CtfTrace t, NodeResult node, long[] range, String uncertainty, Path outDir)
            throws IOException {
        Path dest = output(t.directory(), node, outDir);
        CtfClockRewrite.Outcome[] written = {null};
        AtomicFile.writeDirectory(dest, tmp -> written[0] = CtfClockRewrite.write(t, node.transform(), range[0], range[1],
                tmp, uncertainty.isEmpty() ? "" : uncertainty.replace("synchronization uncertainty",
                        "synchronization uncertainty (tracesync bounds, -/+)")));
        CtfClockRewrite.Outcome o = written[0];
        return new CtfClockRewrite.Outcome(dest, o.clock(), o.freq(), o.offsetSeconds(), o.offset(), o.middle(),
                o.errorBoundNs());
    }

    /** The synchronization's own uncertainty at the trace's first and last events (the bounds there, -/+). */
    static String uncertainty(NodeResult node, long first, long last) {
        if (node.bounds().isEmpty()) {
            return "synchronization uncertainty unknown (no bounds in the result)";
        }
        double[] a = node.bounds().at(first);
        double[] b = node.bounds().at(last);
        return "synchronization uncertainty " + SyncSummary.duration(a[0]) + " / " + SyncSummary.duration(a[1])
                + " at the trace's first event, " + SyncSummary.duration(b[0]) + " / " + SyncSummary.duration(b[1])
                + " at its last";
    }
}
