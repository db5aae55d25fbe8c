package org.tracesync.formats.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.TraceInputs;
import org.tracesync.formats.jsonl.JsonLinesFormat;
import org.tracesync.formats.pcap.CaptureReader;

/**
 * The paths given to {@code tracesync latency}, sorted into latency inputs and other traces:
 * probe traces (or a directory holding probe traces, such as the probe's output root) and JSON
 * lines files are read into one {@link LatencyEvents} (nodes joined by name); anything else (CTF
 * kernel traces, pcap/pcapng captures) is opened through {@link TraceInputs} as a further source
 * of messages, one node each.
 *
 * @param events   every latency and message event of the latency inputs
 * @param others   other traces, as event sources
 * @param warnings what reading found (lost probe records, ...)
 */
public record LatencyInputs(LatencyEvents events, List<NetEventSource> others, List<String> warnings) {

    public static LatencyInputs open(List<Path> paths) throws IOException {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no input given");
        }
        LatencyEvents events = new LatencyEvents();
        List<NetEventSource> others = new ArrayList<>();
        ProbeTraceReader probes = new ProbeTraceReader();
        JsonLinesFormat jsonl = new JsonLinesFormat();
        for (Path p : paths) {
            if (!Files.exists(p)) {
                throw new TraceFormatException(p, "", "no such file or directory");
            }
            if (ProbeTraceReader.isProbeTrace(p)) {
                probes.read(p, events);
                continue;
            }
            List<Path> inside = ProbeTraceReader.probeTracesIn(p);
            if (!inside.isEmpty()) {
                for (Path q : inside) {
                    probes.read(q, events);
                }
                continue;
            }
            if (Files.isRegularFile(p) && !CaptureReader.isCapture(p) && jsonl.accepts(p)) {
                LatencyJsonLinesReader.read(p, events);
                continue;
            }
            others.add(TraceInputs.openEventTrace(p));
        }
        return new LatencyInputs(events, others, probes.warnings());
    }
}
