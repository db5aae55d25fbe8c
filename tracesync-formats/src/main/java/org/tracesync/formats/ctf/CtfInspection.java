package org.tracesync.formats.ctf;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.tracesync.formats.ctf.CtfMetadata.ClockClass;

/**
 * What a user checks first about a CTF trace (the {@code tracesync inspect} report): node name,
 * clock, time range, event counts in total, per name and per stream, network events and their
 * layout, own addresses, warnings. One streaming pass over the trace.
 *
 * @param firstTimestamp ns, or Long.MIN_VALUE without events
 * @param lastTimestamp  largest timestamp seen (ns), or Long.MIN_VALUE without events
 */
public record CtfInspection(String directory, String nodeName, String nodeNameSource, ClockClass clock,
                            Map<String, Object> env, long events, Map<String, Long> byName,
                            List<CtfTrace.StreamStats> streams, long firstTimestamp, long lastTimestamp,
                            CtfNetworkEvents.Summary network, List<String> warnings) {

    public static CtfInspection of(CtfTrace trace) throws IOException {
        Map<String, Long> byName = new TreeMap<>();
        long[] total = {0};
        long[] range = {Long.MIN_VALUE, Long.MIN_VALUE};
        CtfNetworkEvents net = new CtfNetworkEvents(e -> { });
        Map<CtfEventClass, long[]> perClass = new LinkedHashMap<>();
        trace.read(e -> {
            CtfEventClass ec = e.eventClass();
            long[] c = perClass.get(ec);
            if (c == null) {
                c = new long[1];
                perClass.put(ec, c);
            }
            c[0]++;
            if (total[0]++ == 0) {
                range[0] = e.timestamp();
            }
            range[1] = Math.max(range[1], e.timestamp());
            net.event(e);
        });
        perClass.forEach((ec, c) -> byName.merge(ec.name(), c[0], Long::sum));
        CtfMetadata m = trace.metadata();
        ClockClass clock = m.clocks().isEmpty() ? null : m.clocks().get(0);
        String h = m.hostname();
        return new CtfInspection(trace.directory().toString(), trace.nodeName(),
                h != null && !h.isBlank() ? "env hostname" : "directory name", clock, m.env(), total[0], byName,
                trace.lastReadStats(), range[0], range[1], net.summary(), new ArrayList<>(trace.warnings()));
    }
}
