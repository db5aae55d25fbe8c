package org.tracesync.formats.pcap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormat;

/**
 * pcap/pcapng captures as a {@link TraceFormat}: recognised by the magic number; opened together,
 * since a capture's own addresses may be inferred from what the other captures claim
 * ({@link CaptureNodes}).
 */
public final class CaptureFormat implements TraceFormat {

    @Override
    public String name() {
        return "pcap/pcapng";
    }

    @Override
    public boolean accepts(Path path) throws IOException {
        return Files.isRegularFile(path) && CaptureReader.isCapture(path);
    }

    @Override
    public List<EventTrace> open(List<Path> paths, InputOptions options) throws IOException {
        List<NodeInfo> nodes = CaptureNodes.resolve(paths, options);
        List<Long> directed = new ArrayList<>();
        List<EventTrace> traces = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            traces.add(new CaptureTrace(paths.get(i), nodes.get(i), directed));
        }
        return traces;
    }
}
