package org.tracesync.formats.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormat;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfMetadata;
import org.tracesync.formats.ctf.CtfTrace;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;
import org.tracesync.formats.jsonl.JsonLinesFormat;
import org.tracesync.formats.spans.SpanFormat;

/**
 * The paths given to {@code tracesync latency}, sorted into latency inputs and other traces:
 * probe traces (or a directory holding probe traces, such as the probe's output root) and JSON
 * lines files are read into one {@link LatencyEvents} (nodes joined by name); anything else (CTF
 * kernel traces, pcap/pcapng captures) is opened by its format ({@link TraceInputs#formatOf}) as a
 * further source of messages, read through the matching pipeline ({@link #otherMessages}).
 *
 * <p>A CTF trace on CLOCK_MONOTONIC at 1 GHz (an LTTng kernel trace) whose host name is that of a
 * probed node is the same machine on the same clock: it joins that node, its timestamps moved
 * exactly onto the node's clock (raw value + the node's offset instead of the trace's own). Any
 * other trace is a node of its own, and must not reuse a latency node's name.
 *
 * @param events     every latency and message event of the latency inputs
 * @param others     other traces
 * @param otherNodes for each other trace, the latency node it joins, or -1 (a node of its own)
 * @param warnings   what reading found (lost probe records, ...)
 */
public record LatencyInputs(LatencyEvents events, List<EventTrace> others, int[] otherNodes, List<String> warnings) {

    /** The other traces' messages through the matching pipeline, or null when there are none. */
    public MessageInput otherMessages() {
        return others.isEmpty() ? null : new MergedTraceInput(others, InputOptions.defaults());
    }

    public static LatencyInputs open(List<Path> paths) throws IOException {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no input given");
        }
        LatencyEvents events = new LatencyEvents();
        List<EventTrace> others = new ArrayList<>();
        List<Path> otherPaths = new ArrayList<>();
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
            if (Files.isRegularFile(p) && SpanFormat.isSpanFile(p)) {
                throw new TraceFormatException(p, "", "a span file (OTLP, Jaeger or Zipkin JSON): tracesync latency does not"
                        + " read span files (tracesync sync does)");
            }
            if (jsonl.accepts(p)) {
                LatencyJsonLinesReader.read(p, events);
                continue;
            }
            otherPaths.add(p);
        }
        // open the other traces by format, all of a format at once (captures need each other)
        Map<TraceFormat, List<Integer>> byFormat = new LinkedHashMap<>();
        for (int i = 0; i < otherPaths.size(); i++) {
            byFormat.computeIfAbsent(TraceInputs.formatOf(otherPaths.get(i)), f -> new ArrayList<>()).add(i);
        }
        EventTrace[] opened = new EventTrace[otherPaths.size()];
        for (Map.Entry<TraceFormat, List<Integer>> e : byFormat.entrySet()) {
            List<EventTrace> group = e.getKey().open(e.getValue().stream().map(otherPaths::get).toList(), InputOptions.defaults());
            for (int j = 0; j < group.size(); j++) {
                opened[e.getValue().get(j)] = group.get(j);
            }
        }
        List<String> latencyNodes = events.nodeNames();
        int[] otherNodes = new int[otherPaths.size()];
        for (int k = 0; k < otherPaths.size(); k++) {
            Path p = otherPaths.get(k);
            EventTrace source = opened[k];
            String name = source.node().name();
            otherNodes[k] = -1;
            if (latencyNodes.contains(name)) {
                Long nodeOffset = probes.nodeOffset(name);
                Long traceOffset = source instanceof CtfTrace t ? monotonicOffset(t) : null;
                if (nodeOffset == null || traceOffset == null) {
                    throw new TraceFormatException(p, "", "its node name '" + name + "' is a latency node's; only a CTF"
                            + " trace on CLOCK_MONOTONIC (1 GHz) of a probed machine can join it (rename the other trace)");
                }
                otherNodes[k] = events.node(name, p.toString());
                source = shifted(source, Math.subtractExact(nodeOffset, traceOffset));
            }
            others.add(source);
        }
        return new LatencyInputs(events, others, otherNodes, probes.warnings());
    }

    /** The epoch ns of raw value 0 of a trace's 1 GHz monotonic clock, or null. */
    private static Long monotonicOffset(CtfTrace t) {
        CtfMetadata.ClockClass c = t.metadata().clock("monotonic");
        if (c == null || c.freq() != 1_000_000_000L) {
            return null;
        }
        return Math.addExact(Math.multiplyExact(c.offsetSeconds(), 1_000_000_000L), c.offset());
    }

    /** {@code trace} with every timestamp moved by {@code shift} ns (exact). */
    private static EventTrace shifted(EventTrace trace, long shift) {
        return new EventTrace() {
            @Override
            public NodeInfo node() {
                return trace.node();
            }

            @Override
            public EventCursor cursor(int node, AddressTable addresses) throws IOException {
                EventCursor c = trace.cursor(node, addresses);
                return new EventCursor() {
                    @Override
                    public boolean advance() throws IOException {
                        return c.advance();
                    }

                    @Override
                    public long time() {
                        return Math.addExact(c.time(), shift);
                    }

                    @Override
                    public int emit(EventBlock block, int n, long time) {
                        return c.emit(block, n, time);
                    }

                    @Override
                    public List<String> warnings() {
                        return c.warnings();
                    }

                    @Override
                    public long bytesRead() {
                        return c.bytesRead();
                    }

                    @Override
                    public void close() throws IOException {
                        c.close();
                    }
                };
            }
        };
    }
}
