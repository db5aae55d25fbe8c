package org.tracesync.formats.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.latency.EpochOffsetMapping;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.core.latency.LatencyMessageInput;
import org.tracesync.core.model.ConcatenatedMessageInput;
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
import org.tracesync.formats.pcap.CaptureFormat;
import org.tracesync.formats.spans.SpanFiles;
import org.tracesync.formats.spans.SpanFormat;
import org.tracesync.formats.spans.SpanMessageInput;
import org.tracesync.formats.spans.SpanOptions;

/**
 * The paths given to {@code tracesync latency}, sorted into latency inputs and other traces:
 * probe traces (or a directory holding probe traces, such as the probe's output root) and JSON
 * lines files are read into one {@link LatencyEvents} (nodes joined by name); span files (OTLP,
 * Jaeger, Zipkin) are read together as one {@link SpanMessageInput} (their hosts are nodes, their
 * cross-host CLIENT/SERVER and PRODUCER/CONSUMER constraints messages); anything else (CTF kernel
 * traces, pcap/pcapng captures) is opened by its format ({@link TraceInputs#formatOf}) as a further
 * source of messages, read through the matching pipeline ({@link #otherMessages}).
 *
 * <p>A CTF trace on CLOCK_MONOTONIC at 1 GHz (an LTTng kernel trace) whose host name is that of a
 * probed node is the same machine on the same clock: it joins that node, its timestamps moved
 * exactly onto the node's clock (raw value + the node's offset instead of the trace's own). A
 * capture (CLOCK_REALTIME) named like a probed node, or a span host so named, joins it through the
 * probe's epoch-offset samples ({@link EpochOffsetMapping}: exact up to the samples' uncertainty,
 * times around a realtime step left out). Any other trace is a node of its own, and must not reuse a
 * latency node's name.
 *
 * @param events        every latency and message event of the latency inputs
 * @param others        other traces (event traces)
 * @param spans         the span files read as one input, or null when none was given
 * @param otherNodes    for each node of {@link #otherMessages} (the other traces', then the span hosts),
 *                      the latency node it joins, or -1 (a node of its own)
 * @param otherMappings for each of those, the realtime mapping onto the joined node's clock, or null
 * @param warnings      what reading found (lost probe records, ...)
 */
public record LatencyInputs(LatencyEvents events, List<EventTrace> others, SpanMessageInput spans, int[] otherNodes,
                            EpochOffsetMapping[] otherMappings, List<String> warnings) {

    /**
     * The other traces' messages through the matching pipeline, then the span files' constraints, as
     * one input (nodes in that order), or null when there are none.
     */
    public MessageInput otherMessages() {
        MessageInput traces = others.isEmpty() ? null : new MergedTraceInput(others, InputOptions.defaults());
        if (spans == null) {
            return traces;
        }
        return traces == null ? spans : new ConcatenatedMessageInput(List.of(traces, spans));
    }

    /** What to synchronize on: the instances' causal pairs and messages, and every other input, joined. */
    public LatencyMessageInput messageInput(LatencyInstances instances) {
        return new LatencyMessageInput(instances, otherMessages(), otherNodes, otherMappings);
    }

    public static LatencyInputs open(List<Path> paths) throws IOException {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no input given");
        }
        LatencyEvents events = new LatencyEvents();
        List<EventTrace> others = new ArrayList<>();
        List<Path> otherPaths = new ArrayList<>();
        List<Path> spanPaths = new ArrayList<>();
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
                spanPaths.add(p);
                continue;
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
        boolean[] realtime = new boolean[otherPaths.size()];
        for (Map.Entry<TraceFormat, List<Integer>> e : byFormat.entrySet()) {
            List<EventTrace> group = e.getKey().open(e.getValue().stream().map(otherPaths::get).toList(), InputOptions.defaults());
            for (int j = 0; j < group.size(); j++) {
                opened[e.getValue().get(j)] = group.get(j);
                realtime[e.getValue().get(j)] = e.getKey() instanceof CaptureFormat;
            }
        }
        List<String> latencyNodes = events.nodeNames();
        SpanMessageInput spans = spanPaths.isEmpty() ? null : new SpanMessageInput(SpanFiles.open(spanPaths, SpanOptions.defaults()));
        List<String> spanHosts = spans == null ? List.of() : spans.hosts().names();
        int count = otherPaths.size() + spanHosts.size();
        int[] otherNodes = new int[count];
        EpochOffsetMapping[] mappings = new EpochOffsetMapping[count];
        List<String> warnings = new ArrayList<>(probes.warnings());
        for (int k = 0; k < otherPaths.size(); k++) {
            Path p = otherPaths.get(k);
            EventTrace source = opened[k];
            String name = source.node().name();
            otherNodes[k] = -1;
            if (latencyNodes.contains(name)) {
                Long nodeOffset = probes.nodeOffset(name);
                Long traceOffset = source instanceof CtfTrace t ? monotonicOffset(t) : null;
                if (realtime[k] && nodeOffset != null) {
                    mappings[k] = realtimeMapping(p, name, probes, warnings);
                } else if (nodeOffset == null || traceOffset == null) {
                    throw new TraceFormatException(p, "", "its node name '" + name + "' is a latency node's; only a CTF"
                            + " trace on CLOCK_MONOTONIC (1 GHz) or a capture of a probed machine can join it (rename the"
                            + " other trace)");
                } else {
                    source = shifted(source, Math.subtractExact(nodeOffset, traceOffset));
                }
                otherNodes[k] = events.node(name, p.toString());
            }
            others.add(source);
        }
        for (int h = 0; h < spanHosts.size(); h++) {
            int k = otherPaths.size() + h;
            String name = spanHosts.get(h);
            otherNodes[k] = -1;
            if (latencyNodes.contains(name)) {
                Path p = spanPaths.get(0);
                if (probes.nodeOffset(name) == null) {
                    throw new TraceFormatException(p, "", "span host '" + name + "' has a latency node's name, and only a"
                            + " probed machine's spans can join it (through the probe's epoch-offset samples); choose"
                            + " another host attribute with a different name");
                }
                mappings[k] = realtimeMapping(p, name, probes, warnings);
                otherNodes[k] = events.node(name, spans.files().source());
            }
        }
        return new LatencyInputs(events, others, spans, otherNodes, mappings, warnings);
    }

    /** The realtime mapping of probed node {@code name}; refuses when its samples map nothing. */
    private static EpochOffsetMapping realtimeMapping(Path p, String name, ProbeTraceReader probes, List<String> warnings)
            throws TraceFormatException {
        EpochOffsetMapping m = probes.epochOffsets(name);
        if (m == null || m.segments() == 0) {
            throw new TraceFormatException(p, "", "it would join probed node '" + name + "' on CLOCK_REALTIME, but that"
                    + " node's probe traces hold fewer than two consistent epoch-offset samples (rename the trace, or"
                    + " record longer)");
        }
        warnings.add(p.getFileName() + " joins probed node '" + name + "' through its epoch-offset samples (realtime"
                + " mapped within " + m.uncertainty() + " ns)");
        return m;
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
                    public IOException inputFault(InternalError fault, boolean changedOnly) throws IOException {
                        return c.inputFault(fault, changedOnly);
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
