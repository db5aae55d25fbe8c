package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.formats.MatchedEventInput;
import org.tracesync.formats.ReadProgress;
import org.tracesync.formats.TraceInputs;
import org.tracesync.formats.lttv.LttvTextInput;

/**
 * The traces a user named, opened as one {@link MessageInput} (through {@link TraceInputs}) plus
 * what a progress display needs: their total size and, for sources that can tell
 * ({@link ReadProgress}), how many bytes have been read.
 */
record TraceSet(MessageInput input, long totalBytes, LongSupplier bytesRead) {

    static TraceSet open(List<Path> paths) throws IOException {
        long total = 0;
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                total += Files.size(p);
            }
        }
        if (paths.size() == 1 && Files.isRegularFile(paths.get(0)) && LttvTextInput.looksLikeLttvText(paths.get(0))) {
            return new TraceSet(TraceInputs.open(paths), total, null);
        }
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new java.nio.file.NoSuchFileException(p.toString());
            }
        }
        List<NetEventSource> sources = new ArrayList<>();
        List<ReadProgress> progress = new ArrayList<>();
        for (Path p : paths) {
            NetEventSource s = TraceInputs.openEventTrace(p);
            sources.add(s);
            if (s instanceof ReadProgress r) {
                progress.add(r);
            }
        }
        LongSupplier bytes = progress.size() == sources.size() ? () -> {
            long sum = 0;
            for (ReadProgress r : progress) {
                sum += r.bytesRead();
            }
            return sum;
        } : null;
        return new TraceSet(new MatchedEventInput(sources), total, bytes);
    }
}
