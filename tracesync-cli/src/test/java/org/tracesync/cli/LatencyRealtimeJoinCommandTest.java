package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.TracesData;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.probe.Probe;

/**
 * {@code tracesync latency} on probe traces of two "machines" whose chains only go h1 → h2, plus the
 * OTLP protobuf span file the collector would have written for them (host.name = the probes' node
 * names, CLOCK_REALTIME): the spans' SERVER ends on h1 give the other direction, so every measurement
 * gets a bar, through the probe's epoch-offset samples; the true latencies (one JVM, one clock) lie
 * inside.
 */
class LatencyRealtimeJoinCommandTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private static ByteString id(long hi, long lo, int bytes) {
        ByteBuffer b = ByteBuffer.allocate(16).putLong(hi).putLong(lo);
        return ByteString.copyFrom(b.array(), 16 - bytes, bytes);
    }

    private static ResourceSpans host(String name, Span span) {
        return ResourceSpans.newBuilder()
                .setResource(Resource.newBuilder().addAttributes(KeyValue.newBuilder().setKey("host.name")
                        .setValue(AnyValue.newBuilder().setStringValue(name))))
                .addScopeSpans(ScopeSpans.newBuilder().addSpans(span)).build();
    }

    @Test
    void protobufSpansOfProbedMachinesBoundTheOneWayChains() throws Exception {
        Path probes = tmp.resolve("probe");
        int n = 25;
        long[] before1 = new long[n];
        long[] after1 = new long[n];
        long[] before2 = new long[n];
        long[] after2 = new long[n];
        long[] raw = new long[n];
        try (Probe h1 = Probe.open(probes, "h1"); Probe h2 = Probe.open(probes, "h2")) {
            int e1 = h1.event("order");
            int e2 = h2.event("order");
            for (int s = 0; s < n; s++) {
                before1[s] = System.nanoTime();
                h1.step(e1, s, 1);
                after1[s] = System.nanoTime();
                Thread.sleep(1);
                before2[s] = System.nanoTime();
                h2.step(e2, s, 2);
                after2[s] = System.nanoTime();
                raw[s] = System.nanoTime();
                Thread.sleep(1);
            }
        }
        // the machine's epoch offset as the probe of h1 sampled it at start (its trace's clock offset)
        long epoch;
        try (Stream<Path> dirs = Files.list(probes)) {
            Path h1 = dirs.filter(d -> d.getFileName().toString().startsWith("h1-")).findFirst().orElseThrow();
            String meta = Files.readString(h1.resolve("metadata"));
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("offset_s = (-?\\d+);\\s*offset = (-?\\d+);").matcher(meta);
            assertThat(m.find()).as(meta).isTrue();
            epoch = Long.parseLong(m.group(1)) * 1_000_000_000L + Long.parseLong(m.group(2));
        }
        // one message per trace, as the collector's file exporter writes them: a CLIENT on h2 calls a SERVER on h1
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        for (int s = 0; s < n; s++) {
            long c0 = epoch + raw[s] + 1_000;
            long c1 = c0 + 300_000;
            TracesData d = TracesData.newBuilder()
                    .addResourceSpans(host("h2", Span.newBuilder().setTraceId(id(7, s + 1, 16)).setSpanId(id(0, 2L * s + 1, 8))
                            .setKind(Span.SpanKind.SPAN_KIND_CLIENT).setStartTimeUnixNano(c0).setEndTimeUnixNano(c1).build()))
                    .addResourceSpans(host("h1", Span.newBuilder().setTraceId(id(7, s + 1, 16)).setSpanId(id(0, 2L * s + 2, 8))
                            .setParentSpanId(id(0, 2L * s + 1, 8)).setKind(Span.SpanKind.SPAN_KIND_SERVER)
                            .setStartTimeUnixNano(c0 + 50_000).setEndTimeUnixNano(c1 - 50_000).build()))
                    .build();
            byte[] m = d.toByteArray();
            file.write(ByteBuffer.allocate(4).putInt(m.length).array());
            file.write(m);
        }
        Path spans = tmp.resolve("traces.binpb");
        Files.write(spans, file.toByteArray());
        // the probes alone: one-way chains, no bar (exit code 1)
        assertThat(CommandRun.of("latency", probes.toString(), "-q").exitCode()).isEqualTo(1);
        Path out = tmp.resolve("latency.json");
        Path inst = tmp.resolve("instances.jsonl");
        CommandRun run = CommandRun.of("latency", probes.toString(), spans.toString(), "-o", out.toString(),
                "--instances", inst.toString());
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).contains("warning: traces.binpb joins probed node 'h1' through its epoch-offset samples");
        JsonNode doc = JSON.readTree(out.toFile());
        assertThat(doc.get("measurements").get("bounded").asLong()).isEqualTo(2L * n); // each 1 -> 2, and as end to end
        assertThat(doc.get("synchronization").get("nodes")).hasSize(2);
        int checked = 0;
        for (String line : Files.readAllLines(inst)) {
            JsonNode m = JSON.readTree(line);
            int s = m.get("seq").asInt();
            long latency = m.get("latency_ns").asLong();
            // the true latency lies between the brackets of the two steps (one clock), and inside the bar
            long lo = before2[s] - after1[s];
            long hi = after2[s] - before1[s];
            assertThat(latency - m.get("minus_ns").asLong()).isLessThanOrEqualTo(hi);
            assertThat(latency + m.get("plus_ns").asLong()).isGreaterThanOrEqualTo(lo);
            checked++;
        }
        assertThat(checked).isEqualTo(2 * n);
    }
}
