package org.tracesync.formats.ctf;

import java.io.IOException;
import java.nio.file.Path;

import org.tracesync.core.model.NetEventSource;
import org.tracesync.formats.TraceInputs;

/** CTF trace directories (LTTng) as an event-trace format of {@link TraceInputs}. */
public final class CtfFormat implements TraceInputs.EventFormat {

    @Override
    public String name() {
        return "CTF (LTTng trace directory)";
    }

    @Override
    public boolean accepts(Path path) {
        return CtfTrace.isCtfTrace(path);
    }

    @Override
    public NetEventSource open(Path path) throws IOException {
        return CtfTrace.open(path);
    }
}
