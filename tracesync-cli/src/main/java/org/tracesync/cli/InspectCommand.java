package org.tracesync.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfInspection;
import org.tracesync.formats.ctf.CtfTrace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tracesync inspect TRACE [--json]}: what a trace holds, before synchronizing it. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Shows a trace's format, node name, clock, time range, event counts, network events "
                + "and warnings.")
public final class InspectCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE", description = "A CTF trace directory.")
    Path trace;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!CtfTrace.isCtfTrace(trace)) {
            // reported by TracesyncCommand as one line, exit code 3
            throw new TraceFormatException(trace, "", "not a CTF trace directory (no metadata file); inspect reads"
                    + " CTF traces");
        }
        CtfInspection r = CtfInspection.of(CtfTrace.open(trace));
        if (json) {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            out.println(mapper.writeValueAsString(toJson(r)));
        } else {
            printText(out, r);
        }
        out.flush();
        return 0;
    }

    static Map<String, Object> toJson(CtfInspection r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", "ctf-1.8");
        m.put("trace", r.directory());
        m.put("node", r.nodeName());
        m.put("node_source", r.nodeNameSource());
        if (r.clock() != null) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", r.clock().name());
            c.put("freq", r.clock().freq());
            c.put("offset_s", r.clock().offsetSeconds());
            c.put("offset", r.clock().offset());
            c.put("description", r.clock().description());
            m.put("clock", c);
        }
        if (r.events() > 0) {
            m.put("first", r.firstTimestamp());
            m.put("last", r.lastTimestamp());
            m.put("duration_ns", r.lastTimestamp() - r.firstTimestamp());
        }
        m.put("events", r.events());
        m.put("by_name", r.byName());
        List<Map<String, Object>> streams = new ArrayList<>();
        for (CtfTrace.StreamStats s : r.streams()) {
            Map<String, Object> sm = new LinkedHashMap<>();
            sm.put("file", s.file().getFileName().toString());
            sm.put("stream_class", s.streamClassId());
            sm.put("events", s.events());
            sm.put("backward_steps", s.backwardSteps());
            sm.put("discarded", s.discarded());
            streams.add(sm);
        }
        m.put("streams", streams);
        Map<String, Object> net = new LinkedHashMap<>();
        net.put("layout", r.network().layout().name().toLowerCase());
        net.put("description", r.network().layoutDescription());
        net.put("sends", r.network().sends());
        net.put("receives", r.network().receives());
        net.put("unparsed", r.network().unparsed());
        net.put("headerless", r.network().headerless());
        m.put("network", net);
        m.put("addresses", r.network().addresses());
        m.put("warnings", r.warnings());
        return m;
    }

    private static void printText(PrintWriter out, CtfInspection r) {
        out.println("trace:      " + r.directory());
        out.println("format:     CTF 1.8 (" + r.env().getOrDefault("tracer_name", "unknown tracer") + " "
                + r.env().getOrDefault("tracer_major", "?") + "." + r.env().getOrDefault("tracer_minor", "?")
                + ", domain " + r.env().getOrDefault("domain", "?") + ")");
        out.println("node:       " + r.nodeName() + " (from " + r.nodeNameSource() + ")");
        if (r.clock() != null) {
            out.println("clock:      " + r.clock().name() + ", " + r.clock().freq() + " Hz, offset "
                    + r.clock().offsetSeconds() + " s + " + r.clock().offset() + " cycles");
        }
        if (r.events() > 0) {
            out.println("time range: " + r.firstTimestamp() + " .. " + r.lastTimestamp() + " ns ("
                    + Instant.ofEpochSecond(0, r.firstTimestamp()) + " .. " + Instant.ofEpochSecond(0, r.lastTimestamp())
                    + ", " + String.format("%.3f", (r.lastTimestamp() - r.firstTimestamp()) / 1e9) + " s)");
        }
        out.println("events:     " + r.events() + " in " + r.streams().size() + " stream(s)");
        for (CtfTrace.StreamStats s : r.streams()) {
            out.println("  " + s.file().getFileName() + ": " + s.events() + " events"
                    + (s.backwardSteps() > 0 ? ", " + s.backwardSteps() + " backward timestamp step(s)" : "")
                    + (s.discarded() > 0 ? ", " + s.discarded() + " discarded by the tracer" : ""));
        }
        out.println("by name:");
        r.byName().entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(e -> out.printf("  %10d  %s%n", e.getValue(), e.getKey()));
        out.println("network:    " + r.network().sends() + " send, " + r.network().receives() + " receive events; layout: "
                + r.network().layoutDescription()
                + (r.network().unparsed() > 0 ? "; " + r.network().unparsed() + " without usable headers" : ""));
        String none = r.network().noEventsWarning();
        if (none != null) {
            out.println("            " + none);
        }
        out.println("addresses:  " + (r.network().addresses().isEmpty() ? "(none in the statedump)"
                : String.join(", ", r.network().addresses())));
        if (r.warnings().isEmpty()) {
            out.println("warnings:   none");
        } else {
            out.println("warnings:");
            for (String w : r.warnings()) {
                out.println("  " + w);
            }
        }
    }
}
