package org.tracesync.formats.pcap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.formats.TraceInputs;

/** pcap/pcapng as a {@link TraceInputs} event format: recognised by its magic number. */
public final class CaptureFormat implements TraceInputs.EventFormat {

    @Override
    public String name() {
        return "pcap/pcapng";
    }

    @Override
    public boolean accepts(Path path) throws IOException {
        return Files.isRegularFile(path) && CaptureReader.isCapture(path);
    }

    @Override
    public NetEventSource open(Path path) throws IOException {
        return CaptureSource.open(path);
    }
}
