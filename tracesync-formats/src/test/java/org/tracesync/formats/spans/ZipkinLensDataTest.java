package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Zipkin's UI test data (openzipkin/zipkin zipkin-lens/testdata at 878ce2a, Apache-2.0, copied into
 * test resources with its licence): real traces with real clock skew. What the reader and the
 * constraint finder see: spans, hosts (by localEndpoint.ipv4, else serviceName), cross-host
 * constraints and raw violations (the smartthings install trace is the one with 15 real
 * client/server violations). Correction is checked end to end in the CLI tests.
 */
class ZipkinLensDataTest {

    static Path resource(String name) throws Exception {
        return Path.of(ZipkinLensDataTest.class.getResource("/spans/zipkin-lens/" + name).toURI());
    }

    @ParameterizedTest
    @CsvSource({
        // file, spans, hosts, pairs, same host, constraints, raw violations, server ends skipped, unmatched callees
        "skew.json, 4, 2, 1, 0, 2, 1, 0, 0",
        "messaging.json, 4, 1, 1, 1, 0, 0, 0, 0",
        "messaging2.json, 11, 4, 0, 0, 0, 0, 0, 2",
        "messaging-kafka.json, 28, 2, 6, 3, 3, 0, 0, 0",
        "smartthings-mobile-web-install.json, 1041, 136, 295, 0, 583, 15, 7, 30",
        "smartthings-oauth-authorization.json, 175, 41, 64, 0, 98, 3, 30, 12"})
    void spansHostsConstraintsAndViolations(String name, long spans, int hosts, long pairs, long sameHost, long constraints,
                                            long violations, long endsSkipped, long unmatched) throws Exception {
        Path file = resource(name);
        assertThat(SpanFormat.detect(file)).isEqualTo(SpanFormat.ZIPKIN_JSON);
        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults()));
        assertThat(input.nodes()).hasSize(hosts);
        SpanViolations v = new SpanViolations(input.nodes().stream().map(n -> n.name()).toList(), null);
        input.constraints(v);
        SpanConstraints.Counts c = input.counts();
        assertThat(c.spans()).isEqualTo(spans);
        assertThat(c.pairs()).isEqualTo(pairs);
        assertThat(c.sameHost()).isEqualTo(sameHost);
        assertThat(c.constraints()).isEqualTo(constraints);
        assertThat(c.endsSkipped()).isEqualTo(endsSkipped);
        assertThat(c.unmatchedCallees()).isEqualTo(unmatched);
        assertThat(c.droppedCallees()).isZero();
        assertThat(v.totalBefore()).isEqualTo(violations);
        for (int h = 0; h < hosts; h++) {
            assertThat(input.hosts().observedResolution(h)).isGreaterThanOrEqualTo(1000); // Zipkin is µs
        }
    }

    @org.junit.jupiter.api.Test
    void skewIsOneServerStartingBeforeItsClient() throws Exception {
        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(resource("skew.json")), SpanOptions.defaults()));
        List<String> names = input.nodes().stream().map(n -> n.name()).toList();
        assertThat(names).containsExactly("192.0.0.0", "127.0.0.0");
        assertThat(input.hosts().hosts().get(0).namedBy()).isEqualTo("ipv4");
        assertThat(input.hosts().hosts().get(0).services()).containsExactly("serviceb");
        List<long[]> seen = new java.util.ArrayList<>();
        input.constraints((kind, from, to, fromTime, toTime, res, hi, lo) ->
                seen.add(new long[] {kind.ordinal(), from, to, fromTime, toTime, res}));
        // the client (servicea, 127.0.0.0) calls at ...4074202 us; the shared server half starts at ...4008761 us
        assertThat(seen).hasSize(2);
        assertThat(seen.get(0)).containsExactly(ConstraintSink.Kind.CALL_START.ordinal(), 1, 0,
                1470150004074202000L, 1470150004008761000L, 1000);
        assertThat(seen.get(1)).containsExactly(ConstraintSink.Kind.CALL_END.ordinal(), 0, 1,
                1470150004008761000L + 93577000L, 1470150004074202000L + 94539000L, 1000);
    }
}
