package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.tracesync.core.model.NetEventSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.formats.ReadProgress;
import org.tracesync.formats.TraceInputs;

/**
 * The traces a user named, opened as one {@link MessageInput} (through {@link TraceInputs}) plus
 * what a progress display needs: their total size and, for sources that can tell
 * ({@link ReadProgress}), how many bytes have been read; and, once read, each event trace's first
 * and last event time by node name ({@code eventSpans}: {first, last}; empty for LTTV text and
 * captures, which are not read as event sources).
 */
record TraceSet(MessageInput input, long totalBytes, LongSupplier bytesRead, LongSupplier eventsRead,
                Map<String, long[]> eventSpans) {

    /** Opens {@code paths} through {@link TraceInputs} (the one format dispatch), counting as it reads. */
    static TraceSet open(List<Path> paths) throws IOException {
        return open(paths, org.tracesync.formats.pcap.CaptureOptions.defaults());
    }

    /** As {@link #open(List)}, with options for pcap/pcapng captures. */
    static TraceSet open(List<Path> paths, org.tracesync.formats.pcap.CaptureOptions captureOptions) throws IOException {
        long total = 0;
        for (Path p : paths) {
            if (Files.isRegularFile(p)) {
                total += Files.size(p);
            }
        }
        List<ReadProgress> progress = new ArrayList<>();
        int[] sources = {0};
        AtomicLong events = new AtomicLong();
        Map<String, long[]> spans = new ConcurrentHashMap<>();
        MessageInput input = TraceInputs.open(paths, captureOptions, s -> {
            sources[0]++;
            if (s instanceof ReadProgress r) {
                progress.add(r);
            }
            return counting(s, events, spans);
        });
        if (sources[0] == 0) {
            return new TraceSet(input, total, null, null, spans); // LTTV text: matched messages, no events
        }
        LongSupplier bytes = progress.size() == sources[0] ? () -> {
            long sum = 0;
            for (ReadProgress r : progress) {
                sum += r.bytesRead();
            }
            return sum;
        } : null;
        return new TraceSet(input, total, bytes, events::get, spans);
    }

    /** {@code source}, counting the events it streams into {@code events} (for progress displays). */
    private static NetEventSource counting(NetEventSource source, AtomicLong events, Map<String, long[]> spans) {
        return new NetEventSource() {
            @Override
            public NodeInfo node() {
                return source.node();
            }

            @Override
            public void stream(NetEventSink sink) throws IOException {
                long[] n = {0};
                long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
                source.stream(e -> {
                    sink.event(e);
                    long t = e.timestamp();
                    if (t < span[0]) {
                        span[0] = t;
                    }
                    if (t > span[1]) {
                        span[1] = t;
                    }
                    if ((++n[0] & 1023) == 0) {
                        events.addAndGet(1024);
                    }
                });
                events.addAndGet(n[0] & 1023);
                if (span[0] <= span[1]) {
                    spans.put(source.node().name(), span);
                }
            }

            @Override
            public List<String> warnings() {
                return source.warnings();
            }
        };
    }
}
