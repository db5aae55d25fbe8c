package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.TracesData;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;
import org.tracesync.formats.SharedData;
import org.tracesync.formats.TraceFormatException;

/**
 * The OpenTelemetry Collector file exporter's {@code format: proto}: files written with the official
 * generated classes (opentelemetry-proto) and the exporter's framing (4-byte big-endian length, then
 * the message), read as the same spans as their OTLP JSON form; detection that takes no capture or
 * text file for it; truncated and corrupt files reported with the file and the byte offset; and
 * corrected copies in the same framing.
 */
class OtlpProtoSpansTest {

    @TempDir
    Path dir;

    static final long T0 = 1_700_000_000_000_000_000L;

    static ByteString id(long... words) {
        ByteBuffer b = ByteBuffer.allocate(8 * words.length);
        for (long w : words) {
            b.putLong(w);
        }
        return ByteString.copyFrom(b.array());
    }

    static KeyValue attr(String key, AnyValue value) {
        return KeyValue.newBuilder().setKey(key).setValue(value).build();
    }

    static AnyValue str(String s) {
        return AnyValue.newBuilder().setStringValue(s).build();
    }

    static Span span(long traceLo, long spanId, long parent, Span.SpanKind kind, long start, long end) {
        Span.Builder s = Span.newBuilder().setTraceId(id(0x0123456789abcdefL, traceLo)).setSpanId(id(spanId))
                .setName("op-" + spanId).setKind(kind).setStartTimeUnixNano(start).setEndTimeUnixNano(end);
        if (parent != 0) {
            s.setParentSpanId(id(parent));
        }
        return s.build();
    }

    static ResourceSpans resource(List<KeyValue> attributes, Span... spans) {
        return ResourceSpans.newBuilder().setResource(Resource.newBuilder().addAllAttributes(attributes))
                .addScopeSpans(ScopeSpans.newBuilder().addAllSpans(List.of(spans))).build();
    }

    static byte[] framed(byte[]... messages) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] m : messages) {
            out.write(ByteBuffer.allocate(4).putInt(m.length).array());
            out.write(m);
        }
        return out.toByteArray();
    }

    /** Two messages, three hosts: a client on h-a calling a server on h-b, which produces to a consumer on h-c. */
    static byte[][] twoMessages() {
        TracesData first = TracesData.newBuilder()
                .addResourceSpans(resource(List.of(attr("service.name", str("front")), attr("host.name", str("h-a"))),
                        span(1, 0x11, 0, Span.SpanKind.SPAN_KIND_CLIENT, T0 + 1_001, T0 + 9_003)))
                .addResourceSpans(resource(List.of(attr("service.name", str("back")), attr("host.id", str("h-b")),
                                attr("host.name", str("pod-b")), attr("shard", AnyValue.newBuilder().setIntValue(7).build())),
                        span(1, 0x22, 0x11, Span.SpanKind.SPAN_KIND_SERVER, T0 + 3_007, T0 + 7_011),
                        span(1, 0x23, 0x22, Span.SpanKind.SPAN_KIND_PRODUCER, T0 + 4_013, T0 + 4_517)))
                .build();
        // the collector writes ExportTraceServiceRequest: wire-identical to TracesData
        ExportTraceServiceRequest second = ExportTraceServiceRequest.newBuilder()
                .addResourceSpans(resource(List.of(attr("service.name", str("worker")), attr("host.name", str("h-c"))),
                        span(1, 0x33, 0x23, Span.SpanKind.SPAN_KIND_CONSUMER, T0 + 5_023, 0)))
                .build();
        return new byte[][] {first.toByteArray(), second.toByteArray()};
    }

    private static List<String> records(Path f, SpanOptions options) throws IOException {
        SpanFiles files = SpanFiles.open(List.of(f), options);
        SpanHosts hosts = new SpanHosts();
        List<String> out = new ArrayList<>();
        files.read(hosts, r -> out.add(hosts.name(r.host) + " " + Long.toHexString(r.traceHi) + ":" + Long.toHexString(r.traceLo)
                + " " + Long.toHexString(r.spanId) + " " + (r.hasParent ? Long.toHexString(r.parentId) : "-") + " " + r.kind
                + " " + (r.start - T0) + " " + (r.end == SpanRecord.MISSING ? "missing" : Long.toString(r.end - T0))
                + " #" + r.line));
        return out;
    }

    @Test
    void readsFilesWrittenByTheOfficialClasses() throws Exception {
        byte[][] m = twoMessages();
        Path f = dir.resolve("traces.pb");
        Files.write(f, framed(m));
        assertThat(SpanFormat.detect(f)).isEqualTo(SpanFormat.OTLP_PROTO);
        assertThat(records(f, SpanOptions.defaults())).containsExactly(
                "h-a 123456789abcdef:1 11 - CLIENT 1001 9003 #1",
                "h-b 123456789abcdef:1 22 11 SERVER 3007 7011 #1",
                "h-b 123456789abcdef:1 23 22 PRODUCER 4013 4517 #1",
                "h-c 123456789abcdef:1 33 23 CONSUMER 5023 missing #2");
        assertThat(records(f, SpanOptions.defaults().withNodeKey("shard")).get(1)).startsWith("7 ");

        SpanMessageInput in = new SpanMessageInput(SpanFiles.open(List.of(f), SpanOptions.defaults()));
        assertThat(in.hosts().hosts().stream().map(h -> h.name() + "/" + h.namedBy()).toList())
                .containsExactly("h-a/host.name", "h-b/host.id", "h-c/host.name");
        List<long[]> msgs = new ArrayList<>();
        in.readMessages((s, r, ts, tr) -> msgs.add(new long[] {s, r, ts - T0, tr - T0}));
        // client start → server start, server end → client end (the client's duration is the longer),
        // producer start → consumer start; each sender time widened by the ns resolution
        assertThat(msgs).containsExactlyInAnyOrder(
                new long[] {0, 1, 1_000, 3_007}, new long[] {1, 0, 7_010, 9_003}, new long[] {1, 2, 4_012, 5_023});
    }

    @ParameterizedTest
    @ValueSource(longs = {11, 12})
    void theSameSpansAsTheirOtlpJsonForm(long seed) throws Exception {
        Path json = SpanSimulationTest.simulate(dir, SpanFormat.OTLP_JSON, seed, 1, 500);
        Path proto = SpanSimulationTest.simulate(dir, SpanFormat.OTLP_PROTO, seed, 1, 500);
        assertThat(SpanFormat.detect(proto)).isEqualTo(SpanFormat.OTLP_PROTO);
        List<String> a = records(json, SpanOptions.defaults());
        List<String> b = records(proto, SpanOptions.defaults());
        assertThat(a).hasSize(500 * 9);
        // the same spans; the JSON form spreads a batch over one line per service, the proto form
        // writes one message per batch, so only the position differs
        assertThat(strip(b)).containsExactlyInAnyOrderElementsOf(strip(a));
        SyncResult rj = Synchronizer.synchronize(new SpanMessageInput(SpanFiles.open(List.of(json), SpanOptions.defaults())),
                Synchronizer.Options.defaults()).result();
        SyncResult rp = Synchronizer.synchronize(new SpanMessageInput(SpanFiles.open(List.of(proto), SpanOptions.defaults())),
                Synchronizer.Options.defaults()).result();
        Map<String, NodeResult> byName = new HashMap<>();
        rj.nodes().forEach(n -> byName.put(n.name(), n));
        assertThat(rp.nodes()).hasSize(4);
        for (NodeResult n : rp.nodes()) {
            NodeResult j = byName.get(n.name());
            assertThat(n.quality()).isEqualTo(j.quality());
            assertThat(n.reference()).isEqualTo(j.reference());
            assertThat(n.transform().apply(T0)).isEqualTo(j.transform().apply(T0));
        }
    }

    private static List<String> strip(List<String> records) {
        return records.stream().map(s -> s.substring(0, s.lastIndexOf(" #"))).toList();
    }

    @Test
    void sharedCapturesAndTextAreNotTakenForProtobuf() throws Exception {
        for (String c : List.of("pcap/three-hosts/h1.pcap", "pcap/three-hosts/h2.pcap", "pcap/three-hosts/h3.pcap",
                "lttv-text/test1.txt", "pcap/three-hosts/messages.txt", "README.md")) {
            assertThat(SpanFormat.detect(SharedData.file(c))).as(c).isNull();
        }
    }

    @Test
    void jsonLinesAndRandomBytesAreNotTakenForProtobuf() throws Exception {
        Path jsonl = dir.resolve("events.jsonl");
        Files.writeString(jsonl, "{\"node\":\"a\",\"t\":1700000000123456789,\"dir\":\"send\",\"msg\":\"req-42\"}\n");
        assertThat(SpanFormat.detect(jsonl)).isNull();
        // seeded random bytes, and random bytes behind a plausible length prefix
        Random rnd = new Random(15);
        int detected = 0;
        for (int i = 0; i < 2000; i++) {
            byte[] b = new byte[64 + rnd.nextInt(4000)];
            rnd.nextBytes(b);
            if (i % 2 == 1) {
                ByteBuffer.wrap(b).putInt(b.length - 4);
            }
            Path f = dir.resolve("random.bin");
            Files.write(f, b);
            if (SpanFormat.detect(f) != null) {
                detected++;
            }
        }
        assertThat(detected).isZero();
    }

    private String error(Path f) {
        assertThatThrownBy(() -> new SpanMessageInput(SpanFiles.open(List.of(f), SpanOptions.defaults())).hosts())
                .isInstanceOf(TraceFormatException.class);
        try {
            new SpanMessageInput(SpanFiles.open(List.of(f), SpanOptions.defaults())).hosts();
        } catch (IOException e) {
            assertThat(((TraceFormatException) e).file()).isEqualTo(f);
            return e.getMessage();
        }
        throw new AssertionError();
    }

    @Test
    void malformedFilesNameTheFileAndTheOffset() throws Exception {
        byte[][] m = twoMessages();
        byte[] whole = framed(m);
        int second = 4 + m[0].length; // offset of the second length prefix

        Path truncatedLength = dir.resolve("truncated-length.pb");
        Files.write(truncatedLength, Arrays.copyOf(whole, second + 2));
        assertThat(SpanFormat.detect(truncatedLength)).isEqualTo(SpanFormat.OTLP_PROTO);
        assertThat(error(truncatedLength)).isEqualTo(truncatedLength + ":offset " + second
                + ": truncated length prefix: 2 of 4 bytes before the end of the file (an OTLP protobuf file is a sequence"
                + " of 4-byte big-endian lengths, each followed by a TracesData message)");

        Path truncatedMessage = dir.resolve("truncated-message.pb");
        Files.write(truncatedMessage, Arrays.copyOf(whole, whole.length - 5));
        assertThat(error(truncatedMessage)).isEqualTo(truncatedMessage + ":offset " + second + ": message length "
                + m[1].length + " goes beyond the end of the file (" + (m[1].length - 5) + " bytes remain)");

        // the first message cut short: still recognised (a length below 128 MiB), and reported
        Path cutFirst = dir.resolve("cut-first.pb");
        Files.write(cutFirst, Arrays.copyOf(whole, 40));
        assertThat(SpanFormat.detect(cutFirst)).isEqualTo(SpanFormat.OTLP_PROTO);
        assertThat(error(cutFirst)).isEqualTo(cutFirst + ":offset 0: message length " + m[0].length
                + " goes beyond the end of the file (36 bytes remain)");

        Path beyond = dir.resolve("beyond.pb");
        byte[] b = whole.clone();
        ByteBuffer.wrap(b).putInt(second, 0x7FFFFFF0);
        Files.write(beyond, b);
        assertThat(error(beyond)).isEqualTo(beyond + ":offset " + second + ": message length " + 0x7FFFFFF0L
                + " goes beyond the end of the file (" + m[1].length + " bytes remain)");

        Path corrupt = dir.resolve("corrupt.pb");
        byte[] c = whole.clone();
        Arrays.fill(c, second + 4, second + 4 + m[1].length, (byte) 0xFF);
        Files.write(corrupt, c);
        assertThat(error(corrupt)).startsWith(corrupt + ":offset " + second + ": not an OTLP TracesData message ("
                + m[1].length + " bytes): ");

        Path shortId = dir.resolve("short-id.pb");
        TracesData bad = TracesData.newBuilder().addResourceSpans(resource(List.of(attr("host.name", str("h-x"))),
                span(1, 0x11, 0, Span.SpanKind.SPAN_KIND_CLIENT, T0, T0 + 5),
                span(1, 0x12, 0, Span.SpanKind.SPAN_KIND_CLIENT, T0, T0 + 5).toBuilder().setSpanId(id(1).substring(0, 5)).build()))
                .build();
        Files.write(shortId, framed(m[0], bad.toByteArray()));
        assertThat(error(shortId)).isEqualTo(shortId + ":offset " + second + ": span 2 of resource 'h-x': span_id has 5 bytes (expected 8)");

        Path noStart = dir.resolve("no-start.pb");
        TracesData missing = TracesData.newBuilder().addResourceSpans(resource(List.of(attr("host.name", str("h-x"))),
                span(1, 0x11, 0, Span.SpanKind.SPAN_KIND_CLIENT, 0, T0 + 5))).build();
        Files.write(noStart, framed(missing.toByteArray()));
        assertThat(error(noStart)).isEqualTo(noStart + ":offset 0: span 1 of resource 'h-x': span without start_time_unix_nano");
    }

    @Test
    void correctedCopyKeepsTheFramingAndAnnotatesEveryCorrectedSpan() throws Exception {
        Path f = dir.resolve("traces.pb");
        Files.write(f, framed(twoMessages()));
        byte[] before = Files.readAllBytes(f);
        // h-b is 1 µs ahead: shift it back; h-a and h-c are left alone (unknown to the result)
        org.tracesync.core.transform.ClockTransform minus1us = org.tracesync.core.transform.ClockTransform.linear(T0, -1_000.0, 0.0);
        NodeResult hb = new NodeResult("h-b", f.toString(), "h-a", org.tracesync.core.model.Quality.ACCURATE, minus1us,
                org.tracesync.core.transform.NodeBounds.ofRows(List.of(new org.tracesync.core.transform.BoundRow(T0, 200.0, 300.0))),
                List.of("h-b", "h-a"), T0, T0 + 9_000, "");
        Path out = dir.resolve("corrected.pb");
        SpanRewriter.Outcome o = new SpanRewriter(f, SpanOptions.defaults(),
                host -> new SpanCorrection(host.equals("h-b") ? hb : null)).write(out);
        assertThat(o.spans()).isEqualTo(4);
        assertThat(o.corrected()).isEqualTo(2);
        assertThat(Files.readAllBytes(f)).isEqualTo(before);
        assertThat(SpanFormat.detect(out)).isEqualTo(SpanFormat.OTLP_PROTO);
        assertThat(records(out, SpanOptions.defaults())).containsExactly(
                "h-a 123456789abcdef:1 11 - CLIENT 1001 9003 #1",
                "h-b 123456789abcdef:1 22 11 SERVER 2007 6011 #1",
                "h-b 123456789abcdef:1 23 22 PRODUCER 3013 3517 #1",
                "h-c 123456789abcdef:1 33 23 CONSUMER 5023 missing #2");
        // frame by frame with the official classes: the same number of messages, the annotations on h-b's spans
        ByteBuffer bb = ByteBuffer.wrap(Files.readAllBytes(out));
        List<TracesData> messages = new ArrayList<>();
        while (bb.hasRemaining()) {
            byte[] msg = new byte[bb.getInt()];
            bb.get(msg);
            messages.add(TracesData.parseFrom(msg));
        }
        assertThat(messages).hasSize(2);
        Span server = messages.get(0).getResourceSpans(1).getScopeSpans(0).getSpans(0);
        Map<String, AnyValue> a = new HashMap<>();
        server.getAttributesList().forEach(kv -> a.put(kv.getKey(), kv.getValue()));
        assertThat(a.get("tracesync.shift_ns").getIntValue()).isEqualTo(-1_000);
        assertThat(a.get("tracesync.bound_minus_ns").getIntValue()).isEqualTo(200);
        assertThat(a.get("tracesync.bound_plus_ns").getIntValue()).isEqualTo(300);
        assertThat(a.get("tracesync.quality").getStringValue()).isEqualTo("accurate");
        assertThat(a.get("tracesync.reference").getStringValue()).isEqualTo("h-a");
        assertThat(messages.get(0).getResourceSpans(0).getScopeSpans(0).getSpans(0).getAttributesCount()).isZero();
        assertThat(server.getName()).isEqualTo("op-34");
    }
}
