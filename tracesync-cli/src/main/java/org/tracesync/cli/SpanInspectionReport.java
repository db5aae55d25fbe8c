package org.tracesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.formats.spans.SpanConstraints;
import org.tracesync.formats.spans.SpanFiles;
import org.tracesync.formats.spans.SpanFormat;
import org.tracesync.formats.spans.SpanHosts;
import org.tracesync.formats.spans.SpanMessageInput;
import org.tracesync.formats.spans.SpanOptions;
import org.tracesync.formats.spans.SpanViolations;

/** {@code inspect} of a span file: format, hosts found and the attribute that named each, constraints, raw violations. */
record SpanInspectionReport(Path file, SpanFormat format, List<SpanHosts.Host> hosts, List<Long> resolutions,
                            SpanConstraints.Counts counts, long violations, List<String> warnings) {

    static SpanInspectionReport of(Path file, SpanOptions options) throws IOException {
        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(file), options));
        SpanHosts hosts = input.hosts();
        SpanViolations v = new SpanViolations(hosts.names(), null);
        input.constraints(v);
        List<Long> res = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            res.add(Math.max(input.hosts().observedResolution(i), SpanFormat.detect(file).resolution()));
        }
        return new SpanInspectionReport(file, SpanFormat.detect(file), input.hosts().hosts(), res, input.counts(),
                v.totalBefore(), input.warnings());
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", format.label());
        m.put("trace", file.toString());
        m.put("spans", counts.spans());
        List<Map<String, Object>> hs = new ArrayList<>();
        for (int i = 0; i < hosts.size(); i++) {
            SpanHosts.Host h = hosts.get(i);
            Map<String, Object> hm = new LinkedHashMap<>();
            hm.put("host", h.name());
            hm.put("named_by", h.namedBy());
            hm.put("services", h.services());
            hm.put("spans", h.spans());
            hm.put("resolution_ns", resolutions.get(i));
            hs.add(hm);
        }
        m.put("hosts", hs);
        m.put("caller_callee_pairs", counts.pairs());
        m.put("same_host_pairs", counts.sameHost());
        m.put("constraints", counts.constraints());
        m.put("violations", violations);
        m.put("warnings", warnings);
        return m;
    }

    void printText(PrintWriter out) {
        out.println("trace:      " + file);
        out.println("format:     " + format.label());
        out.println("spans:      " + counts.spans());
        out.println("hosts:      " + hosts.size() + " (clock identity; named by the attribute shown)");
        for (int i = 0; i < hosts.size(); i++) {
            SpanHosts.Host h = hosts.get(i);
            out.printf("  %-24s by %-14s %8d spans  resolution %s  services %s%n", h.name(), h.namedBy(), h.spans(),
                    resolutions.get(i) >= 1000 ? resolutions.get(i) / 1000 + " us" : resolutions.get(i) + " ns",
                    String.join(", ", h.services()));
        }
        out.println("pairs:      " + counts.pairs() + " caller/callee pairs (" + counts.sameHost() + " on one host)");
        out.println("constraints: " + counts.constraints() + " cross-host, " + violations + " violated as recorded");
        for (String w : warnings) {
            out.println("warning:    " + w);
        }
    }
}
