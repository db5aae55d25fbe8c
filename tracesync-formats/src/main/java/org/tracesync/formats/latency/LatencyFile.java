package org.tracesync.formats.latency;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.tracesync.core.latency.LatencyAnalysis;
import org.tracesync.core.latency.LatencyBars;
import org.tracesync.core.latency.LatencyEvents;
import org.tracesync.core.latency.LatencyInstances;
import org.tracesync.core.latency.LatencyInstances.Kind;
import org.tracesync.core.latency.LatencyStatistics;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.AtomicFile;

/**
 * Writes {@code latency.json} (format {@code tracesync-latency/1}, docs/LATENCY.md) and the
 * {@code --instances} JSON lines, each atomically (a temporary file in the same directory, then a
 * move): a failed run never leaves a half-written file under the final name.
 */
public final class LatencyFile {

    public static final String FORMAT = "tracesync-latency/1";

    private LatencyFile() {
    }

    /** Everything latency.json reports. */
    public record Content(LatencyAnalysis analysis, SyncResult sync, long causalPairs, double rateError,
                          List<String> warnings) {
    }

    public static void write(Content c, Path file) throws IOException {
        AtomicFile.write(file, out -> write(c, out));
    }

    /** One JSON line per measurement (docs/LATENCY.md, "Instances"). */
    public static void writeInstances(LatencyAnalysis a, Path file) throws IOException {
        AtomicFile.write(file, out -> {
            LatencyInstances.Measurements m = a.instances().measurements();
            LatencyEvents ev = a.instances().events();
            List<String> nodes = ev.nodeNames();
            try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
                g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
                g.setRootValueSeparator(new com.fasterxml.jackson.core.io.SerializedString("\n"));
                for (int i = 0; i < m.size(); i++) {
                    g.writeStartObject();
                    g.writeStringField("event", ev.eventName(m.event(i)));
                    g.writeNumberField("seq", m.seq(i));
                    if (m.kind(i) == Kind.SIMPLE) {
                        g.writeStringField("node", nodes.get(m.fromNode(i)));
                    } else {
                        if (m.kind(i) == Kind.END_TO_END) {
                            g.writeBooleanField("end_to_end", true);
                        }
                        g.writeNumberField("from_step", m.fromStep(i));
                        g.writeNumberField("to_step", m.toStep(i));
                        g.writeStringField("from_node", nodes.get(m.fromNode(i)));
                        g.writeStringField("to_node", nodes.get(m.toNode(i)));
                    }
                    LatencyBars.Status s = a.status(i);
                    if (s == LatencyBars.Status.UNSYNCHRONIZED) {
                        g.writeNullField("latency_ns");
                        g.writeNullField("minus_ns");
                        g.writeNullField("plus_ns");
                    } else {
                        g.writeNumberField("latency_ns", a.latency(i));
                        if (s == LatencyBars.Status.BOUNDED) {
                            g.writeNumberField("minus_ns", a.minus(i));
                            g.writeNumberField("plus_ns", a.plus(i));
                        } else {
                            g.writeNullField("minus_ns");
                            g.writeNullField("plus_ns");
                        }
                    }
                    g.writeEndObject();
                }
                g.writeRaw('\n');
            }
        });
    }

    /** Writes latency.json to {@code out} (not closed). */
    public static void write(Content c, OutputStream out) throws IOException {
        LatencyAnalysis a = c.analysis();
        LatencyInstances inst = a.instances();
        LatencyEvents ev = inst.events();
        try (JsonGenerator g = new JsonFactory().createGenerator(out, JsonEncoding.UTF8)) {
            g.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeStringField("format", FORMAT);
            g.writeNumberField("rate_error", c.rateError());
            g.writeObjectFieldStart("measurements");
            for (Map.Entry<LatencyBars.Status, Long> e : a.statusCounts().entrySet()) {
                g.writeNumberField(e.getKey().name().toLowerCase(java.util.Locale.ROOT), e.getValue());
            }
            g.writeEndObject();

            g.writeArrayFieldStart("simple");
            for (int e = 0; e < ev.eventCount(); e++) {
                LatencyInstances.Anomalies an = inst.simpleAnomalies(e);
                if (an == null) {
                    continue;
                }
                g.writeStartObject();
                g.writeStringField("event", ev.eventName(e));
                g.writeNumberField("instances", an.instances);
                g.writeNumberField("measured", an.measured);
                anomalies(g, an);
                g.writeArrayFieldStart("nodes");
                for (LatencyAnalysis.Group gr : a.groups()) {
                    if (gr.kind() == Kind.SIMPLE && gr.event().equals(ev.eventName(e))) {
                        g.writeStartObject();
                        g.writeStringField("node", gr.fromNode());
                        statistics(g, gr);
                        g.writeEndObject();
                    }
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();

            g.writeArrayFieldStart("chained");
            for (int e = 0; e < ev.eventCount(); e++) {
                LatencyInstances.Anomalies an = inst.chainAnomalies(e);
                if (an == null) {
                    continue;
                }
                g.writeStartObject();
                g.writeStringField("event", ev.eventName(e));
                g.writeArrayFieldStart("steps");
                for (int s : inst.steps(e)) {
                    g.writeNumber(s);
                }
                g.writeEndArray();
                g.writeNumberField("instances", an.instances);
                g.writeNumberField("complete", an.measured);
                anomalies(g, an);
                for (Kind k : new Kind[] {Kind.TRANSITION, Kind.END_TO_END}) {
                    g.writeArrayFieldStart(k == Kind.TRANSITION ? "transitions" : "end_to_end");
                    for (LatencyAnalysis.Group gr : a.groups()) {
                        if (gr.kind() == k && gr.event().equals(ev.eventName(e))) {
                            g.writeStartObject();
                            g.writeNumberField("from_step", gr.fromStep());
                            g.writeNumberField("to_step", gr.toStep());
                            g.writeStringField("from_node", gr.fromNode());
                            g.writeStringField("to_node", gr.toNode());
                            g.writeBooleanField("cross_node", gr.crossNode());
                            statistics(g, gr);
                            g.writeEndObject();
                        }
                    }
                    g.writeEndArray();
                }
                g.writeEndObject();
            }
            g.writeEndArray();

            SyncResult r = c.sync();
            g.writeObjectFieldStart("synchronization");
            g.writeStringField("reference", r.reference());
            g.writeNumberField("causal_pairs", c.causalPairs());
            g.writeArrayFieldStart("nodes");
            for (NodeResult n : r.nodes()) {
                g.writeStartObject();
                g.writeStringField("name", n.name());
                g.writeStringField("source", n.source());
                g.writeStringField("reference", n.reference());
                g.writeStringField("quality", n.quality().label());
                g.writeStringField("note", n.note());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("pairs");
            for (PairResult p : r.pairs()) {
                g.writeStartObject();
                g.writeStringField("a", p.a());
                g.writeStringField("b", p.b());
                g.writeStringField("quality", p.quality().label());
                g.writeNumberField("messages_a_to_b", p.messagesAToB());
                g.writeNumberField("messages_b_to_a", p.messagesBToA());
                g.writeFieldName("mean_accuracy_ns");
                if (Double.isFinite(p.meanAccuracy())) {
                    g.writeNumber(p.meanAccuracy());
                } else {
                    g.writeNull();
                }
                g.writeStringField("note", p.note());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeArrayFieldStart("warnings");
            for (String w : c.warnings()) {
                g.writeString(w);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
    }

    private static void anomalies(JsonGenerator g, LatencyInstances.Anomalies an) throws IOException {
        g.writeObjectFieldStart("anomalies");
        g.writeNumberField("incomplete", an.incomplete);
        g.writeNumberField("duplicated_steps", an.duplicatedSteps);
        g.writeNumberField("stop_without_start", an.stopWithoutStart);
        g.writeNumberField("start_without_stop", an.startWithoutStop);
        g.writeNumberField("repeated_start_or_stop", an.repeated);
        g.writeNumberField("seq_out_of_order", an.seqOutOfOrder);
        g.writeNumberField("steps_backwards_in_time", an.stepsBackwardsInTime);
        g.writeEndObject();
    }

    private static void statistics(JsonGenerator g, LatencyAnalysis.Group gr) throws IOException {
        LatencyStatistics s = gr.statistics();
        g.writeNumberField("count", s.count());
        g.writeNumberField("unsynchronized", gr.unsynchronized());
        if (s.count() == 0) {
            return;
        }
        figure(g, "min", s.min());
        figure(g, "mean", s.mean());
        figure(g, "p50", s.p50());
        figure(g, "p90", s.p90());
        figure(g, "p99", s.p99());
        figure(g, "max", s.max());
    }

    private static void figure(JsonGenerator g, String name, LatencyStatistics.Figure f) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("ns", f.value());
        if (f.minus() == null) {
            g.writeNullField("minus_ns");
            g.writeNullField("plus_ns");
        } else {
            g.writeNumberField("minus_ns", f.minus());
            g.writeNumberField("plus_ns", f.plus());
        }
        g.writeEndObject();
    }
}
