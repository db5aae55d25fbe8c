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
import org.tracesync.formats.pcap.CaptureInspection;
import org.tracesync.formats.pcap.CaptureInterface;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.pcap.LinkTypes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tracesync inspect TRACE [--json]}: what a trace holds, before synchronizing it. */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Shows a trace's format, node name, clock, time range, event counts, network events "
                + "and warnings: a CTF trace directory, or a pcap/pcapng capture (interfaces, node name and own "
                + "addresses as sync would use them, time range, packets by kind), or a span file (OTLP JSON, Jaeger JSON, "
                + "Zipkin v2 JSON: the hosts found and which attribute named them, constraints, violations as recorded).")
public final class InspectCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TRACE", description = "A CTF trace directory, a pcap/pcapng capture or a span file.")
    Path trace;

    @Option(names = "--json", description = "Print the report as JSON.")
    boolean json;

    @picocli.CommandLine.Mixin
    SpanOptionsMixin spanOptions;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!java.nio.file.Files.exists(trace)) {
            throw new TraceFormatException(trace, "", "no such file or directory");
        }
        if (org.tracesync.formats.spans.SpanFormat.detect(trace) != null) {
            SpanInspectionReport r = SpanInspectionReport.of(trace, spanOptions.toOptions());
            print(out, r.toJson(), () -> r.printText(out));
            return 0;
        }
        if (CaptureReader.isCapture(trace)) {
            CaptureInspection c = CaptureInspection.of(trace);
            print(out, toJson(c), () -> printText(out, c));
            return 0;
        }
        if (!CtfTrace.isCtfTrace(trace)) {
            // reported by TracesyncCommand as one line, exit code 3
            TraceFormatException why = org.tracesync.formats.UnknownFormat.reason(trace);
            if (why != null) {
                throw why;
            }
            throw new TraceFormatException(trace, "", "neither a CTF trace directory (no metadata file), a "
                    + "pcap/pcapng capture nor a span file; inspect reads those");
        }
        CtfInspection r = CtfInspection.of(CtfTrace.open(trace));
        print(out, toJson(r), () -> printText(out, r));
        return 0;
    }

    /** The report as JSON with --json, else as text. */
    private void print(PrintWriter out, Map<String, Object> asJson, Runnable asText) throws Exception {
        if (json) {
            ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
            out.println(mapper.writeValueAsString(asJson));
        } else {
            asText.run();
        }
        out.flush();
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

    static Map<String, Object> toJson(CaptureInspection c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("format", c.format());
        m.put("trace", c.file().toString());
        m.put("node", c.node());
        m.put("node_source", "file stem");
        m.put("addresses", c.addresses());
        m.put("address_source", c.addressSource());
        List<Map<String, Object>> ifs = new ArrayList<>();
        for (CaptureInterface i : c.interfaces()) {
            Map<String, Object> im = new LinkedHashMap<>();
            im.put("id", i.id());
            im.put("link_type", i.linkType());
            im.put("link_type_name", LinkTypes.describe(i.linkType()));
            im.put("snap_length", i.snapLength());
            im.put("ticks_per_second", i.resolution().ticksPerSecond());
            im.put("offset_s", i.offsetSeconds());
            im.put("name", i.name());
            im.put("addresses", i.addresses());
            ifs.add(im);
        }
        m.put("interfaces", ifs);
        if (c.packets() > 0) {
            m.put("first", c.first());
            m.put("last", c.last());
            m.put("duration_ns", c.last() - c.first());
        }
        m.put("packets", c.packets());
        m.put("tcp", c.tcp());
        m.put("tcp_with_payload", c.tcpWithPayload());
        m.put("udp", c.udp());
        m.put("udp_broadcast_or_multicast", c.udpGroup());
        m.put("other_ip", c.otherIp());
        m.put("not_ip", c.notIp());
        m.put("backward_steps", c.backwardSteps());
        m.put("warnings", c.warnings());
        return m;
    }

    private static void printText(PrintWriter out, CaptureInspection c) {
        out.println("trace:      " + c.file());
        out.println("format:     " + c.format());
        out.println("node:       " + c.node() + " (from the file stem; sync --name changes it)");
        out.println("addresses:  " + (c.addresses().isEmpty() ? "(none)" : String.join(", ", c.addresses()))
                + " (" + c.addressSource() + ")");
        out.println("interfaces: " + c.interfaces().size());
        for (CaptureInterface i : c.interfaces()) {
            out.println("  " + i.id() + (i.name().isEmpty() ? "" : " (" + i.name() + ")") + ": link type " + i.linkType()
                    + " (" + LinkTypes.describe(i.linkType()) + ")"
                    + ", snap length " + (i.snapLength() == 0 ? "unlimited" : i.snapLength())
                    + ", " + i.resolution().ticksPerSecond() + " ticks/s"
                    + (i.offsetSeconds() != 0 ? ", offset " + i.offsetSeconds() + " s" : "")
                    + (i.addresses().isEmpty() ? "" : ", addresses " + String.join(", ", i.addresses())));
        }
        if (c.packets() > 0) {
            out.println("time range: " + c.first() + " .. " + c.last() + " ns ("
                    + Instant.ofEpochSecond(0, c.first()) + " .. " + Instant.ofEpochSecond(0, c.last())
                    + ", " + String.format("%.3f", (c.last() - c.first()) / 1e9) + " s)");
        }
        out.println("packets:    " + c.packets() + ": TCP " + c.tcp() + " (" + c.tcpWithPayload() + " with data), UDP "
                + c.udp() + " (" + c.udpGroup() + " broadcast/multicast), other IP " + c.otherIp() + ", not IP "
                + c.notIp());
        if (c.warnings().isEmpty()) {
            out.println("warnings:   none");
        } else {
            out.println("warnings:");
            for (String w : c.warnings()) {
                out.println("  " + w);
            }
        }
    }
}
