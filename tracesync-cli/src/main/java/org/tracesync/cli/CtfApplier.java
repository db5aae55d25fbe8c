package org.tracesync.cli;

import org.tracesync.formats.ctf.CtfFormat;
import java.io.IOException;
import java.nio.file.Path;

import org.tracesync.core.reduce.NodeResult;
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
    public Path apply(Path trace, NodeResult node, Path outDir) throws IOException {
        return rewrite(trace, node, outDir).output();
    }

    /** Writes the copy and says how: new clock, mid-trace instant, error bound. */
    public CtfClockRewrite.Outcome rewrite(Path trace, NodeResult node, Path outDir) throws IOException {
        CtfTrace t = CtfTrace.open(trace);
        if (!node.transform().isLinear()) {
            // refuse before reading or writing anything
            CtfClockRewrite.write(t, node.transform(), 0, 0, outDir);
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
        Path dest = outDir.resolve(node.name().replaceAll("[^A-Za-z0-9._-]", "_"));
        return CtfClockRewrite.write(t, node.transform(), range[0], range[1], dest);
    }
}
