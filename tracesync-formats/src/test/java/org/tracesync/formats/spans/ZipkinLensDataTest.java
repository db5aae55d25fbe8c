package org.tracesync.formats.spans;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.reduce.Synchronizer;

/**
 * Zipkin's UI test data (openzipkin/zipkin zipkin-lens/testdata, Apache-2.0, copied into test
 * resources with its licence): real traces with real clock skew.
 */
class ZipkinLensDataTest {

    static Path resource(String name) throws Exception {
        return Path.of(ZipkinLensDataTest.class.getResource("/spans/zipkin-lens/" + name).toURI());
    }

    @ParameterizedTest
    @ValueSource(strings = {"skew.json", "messaging.json", "messaging2.json", "messaging-kafka.json",
        "smartthings-mobile-web-install.json", "smartthings-oauth-authorization.json"})
    void report(String name) throws Exception {
        Path file = resource(name);
        assertThat(SpanFormat.detect(file)).isEqualTo(SpanFormat.ZIPKIN_JSON);
        SpanMessageInput input = new SpanMessageInput(SpanFiles.open(List.of(file), SpanOptions.defaults()));
        List<String> names = input.nodes().stream().map(NodeInfo::name).toList();
        SyncResult result = Synchronizer.synchronize(input, Synchronizer.Options.defaults()).result();
        SpanViolations v = new SpanViolations(names, result);
        input.constraints(v);
        System.out.println(name + ": hosts " + names.size() + " " + input.counts());
        for (NodeResult n : result.nodes()) {
            System.out.println("  " + n.name() + " " + n.quality() + " ref " + n.reference() + " " + n.note());
        }
        for (SpanViolations.PairCount p : v.pairs()) {
            System.out.println("  " + p.a + " " + p.b + " c=" + p.constraints + " before=" + p.before + " after=" + p.after
                    + " within=" + p.withinResolution + " nc=" + p.notComparable + " worst=" + p.worstBefore);
        }
    }
}
