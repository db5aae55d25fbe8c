package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.formats.spans.SpanFiles;
import org.tracesync.formats.spans.SpanMessageInput;
import org.tracesync.formats.spans.SpanOptions;
import org.tracesync.formats.spans.SpanViolations;

/** sync, eval, apply and inspect on span files, end to end: real Zipkin data and simulated shops with truth. */
class SpanCommandsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The Zipkin UI test data kept in the formats module's test resources (see its README.md there). */
    static Path zipkin(String name) {
        return Path.of("../tracesync-formats/src/test/resources/spans/zipkin-lens", name);
    }

    private static String sha(Path f) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }

    /** Raw violations beyond one resolution step in a span file (what a UI would still show as skew). */
    private static long violationsBeyondResolution(Path file) throws Exception {
        SpanMessageInput in = new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults()));
        long[] n = {0};
        in.constraints((kind, from, to, fromTime, toTime, res, hi, lo) -> {
            if (toTime < fromTime - res) {
                n[0]++;
            }
        });
        return n[0];
    }

    @ParameterizedTest
    @CsvSource({"skew.json, 1, 2", "smartthings-mobile-web-install.json, 15, 136", "smartthings-oauth-authorization.json, 3, 41",
        "messaging-kafka.json, 0, 2"})
    void zipkinDataHasNoViolationLeftAfterCorrection(String name, long before, int hosts) throws Exception {
        Path in = zipkin(name);
        String hash = sha(in);
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", in.toString(), "-o", result.toString(), "-q");
        assertThat(sync.exitCode()).as(sync.err()).isIn(0, 1); // 1: some hosts have no cross-host span at all
        CommandRun eval = CommandRun.of("eval", result.toString(), in.toString(), "--json");
        assertThat(eval.exitCode()).as(eval.out() + eval.err()).isZero();
        JsonNode spans = JSON.readTree(eval.out()).get("span_causality");
        assertThat(spans.get("violations_before").asLong()).isEqualTo(before);
        assertThat(spans.get("violations_after").asLong()).isZero();
        assertThat(spans.get("not_comparable").asLong()).isZero(); // every host with a constraint is corrected
        JsonNode r = JSON.readTree(result.toFile());
        assertThat(r.get("nodes")).hasSize(hosts);
        // every host that was not synchronized has no constraint at all, and says so
        for (JsonNode n : r.get("nodes")) {
            if (n.get("reference").asText().equals(n.get("name").asText()) && !n.get("quality").asText().equals("reference")) {
                assertThat(n.get("note").asText()).contains("no messages with any other node");
            }
        }
        Path out = dir.resolve("out");
        CommandRun apply = CommandRun.of("apply", result.toString(), in.toString(), "--out", out.toString());
        assertThat(apply.exitCode()).as(apply.err()).isZero();
        Path corrected = out.resolve(in.getFileName());
        assertThat(sha(in)).isEqualTo(hash); // the input is never written
        assertThat(violationsBeyondResolution(corrected)).isZero();
        int annotated = 0;
        for (JsonNode span : JSON.readTree(corrected.toFile())) { // every span with a timestamp says how it was corrected
            if (span.has("timestamp")) {
                assertThat(span.path("tags").has("tracesync.shift_ns")).as(span.toString()).isTrue();
                assertThat(span.path("tags").path("tracesync.quality").asText()).isNotEmpty();
                annotated++;
            } else {
                assertThat(span.path("tags").has("tracesync.shift_ns")).isFalse();
            }
        }
        assertThat(annotated).isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"otlp", "otlp-proto", "jaeger", "zipkin"})
    void simulatedShopMatchesTheTruth(String format) throws Exception {
        CommandRun sim = CommandRun.of("simulate-spans", "-o", dir.toString(), "--traces", "1500", "--format", format, "--seed", "11");
        assertThat(sim.exitCode()).as(sim.err()).isZero();
        Path in = dir.resolve(switch (format) {
            case "otlp" -> "spans.otlp.jsonl";
            case "otlp-proto" -> "spans.otlp.binpb";
            case "jaeger" -> "spans.jaeger.json";
            default -> "spans.zipkin.json";
        });
        Path result = dir.resolve("result.json");
        assertThat(CommandRun.of("sync", in.toString(), "-o", result.toString(), "-q").exitCode()).isZero();
        CommandRun eval = CommandRun.of("eval", result.toString(), in.toString(), "--truth", dir.resolve("truth.json").toString(), "--json");
        assertThat(eval.exitCode()).as(eval.out() + eval.err()).isZero();
        JsonNode e = JSON.readTree(eval.out());
        JsonNode spans = e.get("span_causality");
        assertThat(spans.get("violations_before").asLong()).isGreaterThan(1000);
        assertThat(spans.get("violations_after").asLong()).isZero();
        assertThat(e.toString()).contains("truth");
        Path out = dir.resolve("out");
        assertThat(CommandRun.of("apply", result.toString(), in.toString(), "--out", out.toString()).exitCode()).isZero();
        assertThat(violationsBeyondResolution(out.resolve(in.getFileName()))).isZero();
        CommandRun inspect = CommandRun.of("inspect", out.resolve(in.getFileName()).toString(), "--json");
        JsonNode i = JSON.readTree(inspect.out());
        assertThat(i.get("spans").asLong()).isEqualTo(1500 * 9);
        assertThat(i.get("hosts")).hasSize(4);
    }

    @Test
    void reportHasTheSpanSectionAndTheWorstTrace() throws Exception {
        Path in = zipkin("skew.json");
        Path result = dir.resolve("result.json");
        assertThat(CommandRun.of("sync", in.toString(), "-o", result.toString(), "-q").exitCode()).isZero();
        Path html = dir.resolve("report.html");
        CommandRun r = CommandRun.of("report", result.toString(), in.toString(), "-o", html.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        String page = Files.readString(html);
        assertThat(page).contains("Spans: causality per host pair")
                .contains("violations as recorded: <b>1</b>; after correction: <b>0</b> beyond the timestamp resolution")
                .contains("Waterfall of trace 00000000000000001e223ff1f80f1c69 (worst violation as recorded: 65441.0 µs")
                .endsWith("</html>\n");
        // the shared server half is drawn red as recorded (it starts 65 ms before its client), not once corrected
        String recorded = page.substring(page.indexOf("aria-label=\"recorded\""), page.indexOf("aria-label=\"corrected\""));
        String corrected = page.substring(page.indexOf("aria-label=\"corrected\""));
        assertThat(recorded).contains("stroke=\"red\"");
        assertThat(corrected.substring(0, corrected.indexOf("</svg>"))).doesNotContain("stroke=\"red\"");
    }

    /**
     * A host tied one way only (a consumer that never answers) gets exactly the smallest shift that
     * removes the violation: the producer starts at 1,000,000 µs on A, the consumer at 999,900 µs on B
     * (100 µs too early); with the µs widening B needs a shift ≥ (1,000,000 − 1) − 999,900 µs = 99 µs,
     * and gets 99 µs, a lower bound only.
     */
    @Test
    void oneWayHostGetsTheSmallestShiftThatRemovesTheViolation() throws Exception {
        Path in = dir.resolve("one-way.json");
        Files.writeString(in, "[{\"traceId\":\"00000000000000aa\",\"id\":\"0000000000000001\",\"kind\":\"PRODUCER\","
                + "\"timestamp\":1000000,\"duration\":5,\"localEndpoint\":{\"serviceName\":\"a\",\"ipv4\":\"10.0.0.1\"}},"
                + "{\"traceId\":\"00000000000000aa\",\"parentId\":\"0000000000000001\",\"id\":\"0000000000000002\","
                + "\"kind\":\"CONSUMER\",\"timestamp\":999900,\"duration\":7,\"localEndpoint\":{\"serviceName\":\"b\",\"ipv4\":\"10.0.0.2\"}}]");
        Path result = dir.resolve("result.json");
        CommandRun sync = CommandRun.of("sync", in.toString(), "-o", result.toString(), "-q");
        assertThat(sync.exitCode()).as(sync.err()).isZero();
        JsonNode nodes = JSON.readTree(result.toFile()).get("nodes");
        JsonNode a = nodes.get(0);
        JsonNode b = nodes.get(1);
        assertThat(a.get("name").asText()).isEqualTo("10.0.0.1");
        assertThat(a.get("quality").asText()).isEqualTo("reference");
        assertThat(b.get("name").asText()).isEqualTo("10.0.0.2");
        assertThat(b.get("quality").asText()).isEqualTo("one-way");
        assertThat(b.get("reference").asText()).isEqualTo("10.0.0.1");
        assertThat(b.get("transform").get("segments").get(0).get("offset").asDouble()).isEqualTo(99_000.0);
        assertThat(b.get("transform").get("segments").get(0).get("drift").asDouble()).isZero();
        assertThat(b.get("note").asText()).contains("one-sided bound: shift >= 99000 ns")
                .contains("the smallest shift that removes every violation");
        JsonNode row = b.get("bounds").get(0);
        assertThat(row.get(1).asDouble()).isZero(); // minus: the shift cannot be smaller
        assertThat(row.get(2).isNull()).isTrue(); // plus: unbounded (written as null)
        Path out = dir.resolve("out");
        assertThat(CommandRun.of("apply", result.toString(), in.toString(), "--out", out.toString()).exitCode()).isZero();
        JsonNode consumer = JSON.readTree(out.resolve("one-way.json").toFile()).get(1);
        assertThat(consumer.get("timestamp").asLong()).isEqualTo(999_999); // one µs before the producer: order not recorded
        assertThat(consumer.get("duration").asLong()).isEqualTo(7);
        assertThat(consumer.get("tags").get("tracesync.shift_ns").asText()).isEqualTo("99000");
        assertThat(consumer.get("tags").get("tracesync.bound_minus_ns").asText()).isEqualTo("0");
        assertThat(consumer.get("tags").has("tracesync.bound_plus_ns")).isFalse();
        assertThat(consumer.get("tags").get("tracesync.quality").asText()).isEqualTo("one-way");
    }

    @Test
    void inspectNamesTheAttributeThatNamedEachHost() throws Exception {
        CommandRun r = CommandRun.of("inspect", zipkin("messaging-kafka.json").toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("format:     Zipkin v2 JSON").contains("servicea                 by serviceName");
        CommandRun byService = CommandRun.of("inspect", zipkin("skew.json").toString(), "--node-key", "serviceName", "--json");
        JsonNode j = JSON.readTree(byService.out());
        assertThat(j.get("hosts").get(0).get("host").asText()).isEqualTo("serviceb");
        assertThat(j.get("hosts").get(0).get("named_by").asText()).isEqualTo("serviceName");
    }

    @Test
    void truncatedSpanFileIsOneInputError() throws Exception {
        Path bad = dir.resolve("cut.json");
        String text = Files.readString(zipkin("skew.json"));
        Files.writeString(bad, text.substring(0, 300));
        CommandRun r = CommandRun.of("sync", bad.toString());
        assertThat(r.exitCode()).isEqualTo(3);
        assertThat(r.err().strip()).doesNotContain("\n").startsWith("tracesync: " + bad + ":line 15, column ")
                .contains("unexpected end of file (truncated?)");
    }

    @Test
    void otlpProtobufThroughInspectReportAndErrors() throws Exception {
        CommandRun sim = CommandRun.of("simulate-spans", "-o", dir.toString(), "--traces", "300", "--format", "otlp-proto", "--ns");
        assertThat(sim.exitCode()).as(sim.err()).isZero();
        Path in = dir.resolve("spans.otlp.binpb");
        CommandRun inspect = CommandRun.of("inspect", in.toString());
        assertThat(inspect.exitCode()).as(inspect.err()).isZero();
        assertThat(inspect.out()).contains("format:     OTLP protobuf").contains("10.0.1.1").contains("by host.name");
        Path result = dir.resolve("result.json");
        assertThat(CommandRun.of("sync", in.toString(), "-o", result.toString(), "-q").exitCode()).isZero();
        Path html = dir.resolve("report.html");
        CommandRun r = CommandRun.of("report", result.toString(), in.toString(), "-o", html.toString(), "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Files.readString(html)).contains("Spans: causality per host pair").contains("after correction: <b>0</b>");
        // a file cut inside its last message: one input error naming the file and the message's offset
        byte[] whole = Files.readAllBytes(in);
        long last = 0;
        for (long at = 0; at < whole.length; ) {
            last = at;
            at += 4 + java.nio.ByteBuffer.wrap(whole, (int) at, 4).getInt();
        }
        Path cut = dir.resolve("cut.binpb");
        Files.write(cut, java.util.Arrays.copyOf(whole, whole.length - 10));
        CommandRun bad = CommandRun.of("sync", cut.toString());
        assertThat(bad.exitCode()).isEqualTo(3);
        assertThat(bad.err().strip()).doesNotContain("\n").startsWith("tracesync: " + cut + ":offset " + last + ": message length ")
                .endsWith("goes beyond the end of the file (" + (whole.length - 10 - last - 4) + " bytes remain)");
        // the exporter's zstd compression: refused with what to do
        Path zst = dir.resolve("spans.binpb.zst");
        Files.write(zst, new byte[] {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x04, 0x58, 0x11, 0x22});
        CommandRun z = CommandRun.of("sync", zst.toString());
        assertThat(z.exitCode()).isEqualTo(3);
        assertThat(z.err().strip()).isEqualTo("tracesync: " + zst + ": a zstd-compressed file: decompress it first (zstd -d)");
        // without the native-compression gate: each message compressed behind its length prefix
        Path framed = dir.resolve("spans.framed.zst");
        Files.write(framed, new byte[] {0, 0, 0, 6, 0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0x04, 0x58});
        CommandRun f = CommandRun.of("sync", framed.toString());
        assertThat(f.exitCode()).isEqualTo(3);
        assertThat(f.err().strip()).isEqualTo("tracesync: " + framed + ": OpenTelemetry Collector file exporter output with"
                + " every message compressed (compression: zstd): not read; export without compression");
    }
}
