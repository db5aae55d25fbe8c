package org.tracesync.formats.ctf;

import java.io.IOException;
import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormat;

/** CTF trace directories (LTTng) as a {@link TraceFormat}. */
public final class CtfFormat implements TraceFormat {

    @Override
    public String name() {
        return "CTF (LTTng trace directory)";
    }

    @Override
    public boolean accepts(Path path) {
        return CtfTrace.isCtfTrace(path);
    }

    @Override
    public List<EventTrace> open(List<Path> paths, InputOptions options) throws IOException {
        List<EventTrace> traces = new ArrayList<>();
        for (Path p : paths) {
            traces.add(CtfTrace.open(p));
        }
        return traces;
    }
}
