package org.tracesync.cli;

import org.tracesync.formats.pcap.CaptureFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.pcap.CaptureRewriter;

/** {@code apply} for pcap/pcapng: each capture rewritten in reference time; {@code --merge} one pcapng. */
final class CaptureApplier implements TraceApplier {

    @Override
    public String name() {
        return "pcap/pcapng";
    }

    @Override
    public Class<CaptureFormat> format() {
        return CaptureFormat.class;
    }

    private static LongUnaryOperator time(NodeResult node) {
        return t -> node.transform().apply(t);
    }

    @Override
    public Path apply(Path trace, NodeResult node, Path outDir) throws IOException {
        Path out = outDir.resolve(trace.getFileName());
        if (Files.exists(out) && Files.isSameFile(out, trace)) {
            throw new IllegalArgumentException("--out " + outDir + " would overwrite the input " + trace);
        }
        CaptureRewriter.rewrite(trace, out, time(node));
        return out;
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public long merge(List<Path> traces, List<NodeResult> nodes, Path out) throws IOException {
        List<LongUnaryOperator> times = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (NodeResult n : nodes) {
            times.add(time(n));
            names.add(n.name());
        }
        return CaptureRewriter.merge(traces, names, times, out);
    }
}
