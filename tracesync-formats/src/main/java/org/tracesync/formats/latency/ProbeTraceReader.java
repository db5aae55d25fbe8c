package org.tracesync.formats.latency;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.tracesync.core.latency.EpochOffsetMapping;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfEventClass;
import org.tracesync.formats.ctf.CtfFieldRef;
import org.tracesync.formats.ctf.CtfMetadata;
import org.tracesync.formats.ctf.CtfTrace;

/**
 * Reads the CTF traces the probe library (tracesync-probe) writes into {@link LatencyEvents}.
 *
 * <p>Time: a probe trace's raw clock values are CLOCK_MONOTONIC ns, shared by every process of a
 * machine, while each trace's clock offset is the epoch offset its own process sampled at start.
 * So the traces of one node are put on one clock: raw value + the offset of the first trace read
 * for that node (exact long arithmetic). The {@code event_name} events of the {@code process}
 * stream name the event ids; records lost to full buffers (CTF {@code events_discarded}) are
 * reported in {@link #warnings()}. The {@code clock_offset} samples of every trace of a node make its
 * {@link #epochOffsets realtime mapping}, for captures and span files of the same machine.
 */
public final class ProbeTraceReader {

    /** The node offsets chosen so far (node name → epoch ns of raw clock value 0). */
    private final Map<String, Long> nodeOffsets = new HashMap<>();
    private final List<String> warnings = new ArrayList<>();
    /** Per node, its epoch-offset samples: {node time, realtime − monotonic, uncertainty}. */
    private final Map<String, List<long[]>> epochSamples = new HashMap<>();

    /** True when {@code dir} is a probe trace (a CTF directory whose tracer is tracesync-probe). */
    public static boolean isProbeTrace(Path dir) {
        Path meta = dir.resolve("metadata");
        if (!Files.isDirectory(dir) || !Files.isRegularFile(meta)) {
            return false;
        }
        try {
            byte[] head;
            try (var in = Files.newInputStream(meta)) {
                head = in.readNBytes(4096);
            }
            return new String(head, java.nio.charset.StandardCharsets.ISO_8859_1).contains("tracer_name = \"tracesync-probe\"");
        } catch (IOException e) {
            return false;
        }
    }

    /** The probe traces directly inside {@code dir} (a probe output root), sorted; empty when none. */
    public static List<Path> probeTracesIn(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(ProbeTraceReader::isProbeTrace).sorted().toList();
        }
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /**
     * The epoch ns of raw CLOCK_MONOTONIC value 0 on node {@code name}'s clock in the events read
     * (the offset of its first trace), or null when no probe trace of that node was read.
     */
    public Long nodeOffset(String name) {
        return nodeOffsets.get(name);
    }

    /**
     * The realtime → node clock mapping of node {@code name} from the epoch-offset samples of all its
     * probe traces read so far, or null when none was read.
     */
    public EpochOffsetMapping epochOffsets(String name) {
        List<long[]> samples = epochSamples.get(name);
        if (samples == null || samples.isEmpty()) {
            return null;
        }
        long[] t = new long[samples.size()];
        long[] off = new long[samples.size()];
        long[] unc = new long[samples.size()];
        for (int i = 0; i < t.length; i++) {
            t[i] = samples.get(i)[0];
            off[i] = samples.get(i)[1];
            unc[i] = samples.get(i)[2];
        }
        return new EpochOffsetMapping(nodeOffsets.get(name), t, off, unc);
    }

    /** Reads one probe trace into {@code out}; returns the number of latency and message events. */
    public long read(Path dir, LatencyEvents out) throws IOException {
        CtfTrace trace = CtfTrace.open(dir);
        CtfMetadata meta = trace.metadata();
        CtfMetadata.ClockClass clock = meta.clock("monotonic");
        if (clock == null || clock.freq() != 1_000_000_000L) {
            throw new TraceFormatException(dir.resolve("metadata"), "", "a probe trace needs the 1 GHz \"monotonic\" clock");
        }
        String nodeName = trace.nodeName();
        long ownOffset = Math.addExact(Math.multiplyExact(clock.offsetSeconds(), 1_000_000_000L), clock.offset());
        long offset = nodeOffsets.computeIfAbsent(nodeName, k -> ownOffset);
        int node = out.node(nodeName, dir.toString());
        Map<Long, Integer> names = new HashMap<>();
        List<Path> files = trace.streamFiles();
        for (int i = 0; i < files.size(); i++) {
            if (files.get(i).getFileName().toString().equals("process")) {
                trace.readStream(i, e -> {
                    if (e.eventClass().name().equals("event_name")) {
                        CtfEventClass ec = e.eventClass();
                        names.put(e.longValue(ec.field("event_id")), out.event(e.stringValue(ec.field("name"))));
                    }
                });
            }
        }
        long[] count = {0};
        trace.read(e -> {
            CtfEventClass ec = e.eventClass();
            String kind = ec.name();
            long t = Math.addExact(e.cycles(), offset);
            switch (kind) {
                case "step", "simple_start", "simple_stop" -> {
                    long id = e.longValue(field(dir, ec, "event_id"));
                    Integer ev = names.get(id);
                    if (ev == null) {
                        throw TraceFormatException.atOffset(files.get(e.streamIndex()), e.offset(),
                                "event id " + id + " has no event_name in the process stream");
                    }
                    long seq = e.longValue(field(dir, ec, "seq"));
                    if (kind.equals("step")) {
                        out.step(node, ev, seq, (int) e.longValue(field(dir, ec, "step")), t);
                    } else if (kind.equals("simple_start")) {
                        out.start(node, ev, seq, t);
                    } else {
                        out.stop(node, ev, seq, t);
                    }
                    count[0]++;
                }
                case "msg_send", "msg_recv" -> {
                    out.message(node, kind.equals("msg_send"), Long.toUnsignedString(e.longValue(field(dir, ec, "msg"))), t);
                    count[0]++;
                }
                case "clock_offset" -> epochSamples.computeIfAbsent(nodeName, k -> new ArrayList<>()).add(new long[] {t,
                        e.longValue(field(dir, ec, "realtime_minus_monotonic")), e.longValue(field(dir, ec, "uncertainty"))});
                default -> {
                    // event_name: metadata of the trace
                }
            }
        });
        // records lost to full buffers are CTF's events_discarded: the trace's warnings name them
        for (String w : trace.warnings()) {
            warnings.add(w);
        }
        return count[0];
    }

    private static CtfFieldRef field(Path dir, CtfEventClass ec, String name) throws TraceFormatException {
        CtfFieldRef f = ec.field(name);
        if (f == null) {
            throw new TraceFormatException(dir.resolve("metadata"), "", "event " + ec.name() + " lacks field " + name);
        }
        return f;
    }
}
