package org.tracesync.formats.jsonl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormat;

/**
 * Recognises a JSON-lines event log by content: a regular file whose first non-blank byte (within
 * its first 64 KiB) is '{'. Opening it validates the first event; later lines are checked while
 * streaming.
 */
public final class JsonLinesFormat implements TraceFormat {

    @Override
    public String name() {
        return "JSON lines";
    }

    @Override
    public boolean accepts(Path path) throws IOException {
        if (!Files.isRegularFile(path)) {
            return false;
        }
        try (InputStream in = Files.newInputStream(path)) {
            byte[] head = in.readNBytes(1 << 16);
            int i = 0;
            if (head.length >= 3 && (head[0] & 0xff) == 0xef && (head[1] & 0xff) == 0xbb && (head[2] & 0xff) == 0xbf) {
                i = 3; // UTF-8 byte order mark
            }
            for (; i < head.length; i++) {
                byte b = head[i];
                if (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
                    continue;
                }
                return b == '{';
            }
            // an empty (or blank) file named like a JSON-lines log is a log without events
            return JsonLinesReader.looksLikeJsonLines(path);
        }
    }

    @Override
    public List<EventTrace> open(List<Path> paths, InputOptions options) throws IOException {
        List<EventTrace> traces = new ArrayList<>();
        for (Path p : paths) {
            traces.add(new JsonLinesReader(p));
        }
        return traces;
    }
}
