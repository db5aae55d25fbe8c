package org.tracesync.cli;

import org.tracesync.formats.pcap.CaptureFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.formats.io.AtomicFile;
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

    @Override
    public boolean appliesRepairs() {
        return true;
    }

    @Override
    public Applied apply(Path trace, NodeResult node, long[][] repairs, Path outDir) throws IOException {
        Path out = output(trace, node, outDir);
        AtomicFile.write(out, tmp -> CaptureRewriter.rewrite(trace, tmp, TraceApplier.timesInOrder(node, repairs)));
        return new Applied(out, "");
    }

    @Override
    public Path output(Path trace, NodeResult node, Path outDir) {
        return outDir.resolve(trace.getFileName());
    }

    @Override
    public Applied apply(Path trace, NodeResult node, Path outDir) throws IOException {
        return apply(trace, node, new long[0][], outDir);
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    /** Each node's packets at the times its copy gets: the transform's, or the repair's where it moved them. */
    @Override
    public long merge(List<Path> traces, List<NodeResult> nodes, List<long[][]> repairs, Path out) throws IOException {
        List<LongUnaryOperator> times = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            times.add(TraceApplier.timesInOrder(nodes.get(i), repairs.get(i)));
            names.add(nodes.get(i).name());
        }
        long[] n = {0};
        AtomicFile.write(out, tmp -> n[0] = CaptureRewriter.merge(traces, names, times, tmp));
        return n[0];
    }
}
