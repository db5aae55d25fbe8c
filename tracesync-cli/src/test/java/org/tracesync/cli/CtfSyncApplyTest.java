package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracesync.core.model.Quality;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.PairResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.formats.ctf.CtfTrace;
import org.tracesync.formats.result.ResultFile;

/** {@code sync} and {@code apply} on the scp CTF traces, checked with babeltrace2 reading the output. */
class CtfSyncApplyTest {

    @TempDir
    Path tmp;

    static List<String> babeltrace(Path dir, Path tmp) throws Exception {
        Path out = Files.createTempFile(tmp, "bt", ".txt");
        Process p = new ProcessBuilder("babeltrace2", "run", "--component=src:source.ctf.fs",
                "--params=inputs=[\"" + dir + "\"]", "--component=sink:sink.text.pretty",
                "--params=clock-seconds=true,no-delta=true", "--connect=src:sink")
                .redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).isZero();
        List<String> ts = new ArrayList<>();
        for (String line : Files.readAllLines(out)) {
            if (line.startsWith("[")) {
                ts.add(line.substring(1, line.indexOf(']')));
            }
        }
        return ts;
    }

    static boolean babeltraceInstalled() {
        try {
            return new ProcessBuilder("babeltrace2", "--version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void syncOnScpTracesFindsFortySixMessagesAndApplyShiftsTheClock() throws Exception {
        Path src = InspectCommandTest.sharedTrace("scp_src");
        Path dest = InspectCommandTest.sharedTrace("scp_dest");
        Path result = tmp.resolve("result.json");
        InspectCommandTest.Run r = InspectCommandTest.run("sync", src.toString(), dest.toString(), "-o", result.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).contains("2 nodes, 46 messages");
        // issue #12 item 13: 46 messages within 0.2 s of a ~20 s trace is said, with what it means at the trace's ends
        assertThat(r.out()).containsPattern("VM3: its messages cover 0\\.[0-9]+ s of its [0-9.]+ s trace \\([0-9.]+ %\\):"
                + " away from them the bounds widen linearly, to -?[0-9.]+ [mµ]?s / -?[0-9.]+ [mµ]?s at the trace's start and"
                + " -?[0-9.]+ [mµ]?s / -?[0-9.]+ [mµ]?s at its end");
        SyncResult res = ResultFile.read(result);
        assertThat(res.warnings()).anyMatch(w -> w.startsWith("VM3: its messages cover"));
        PairResult pair = res.pairs().get(0);
        assertThat(pair.quality()).isEqualTo(Quality.ACCURATE);
        assertThat(List.of(pair.messagesAToB(), pair.messagesBToA())).containsExactlyInAnyOrder(24L, 22L);
        NodeResult vm3 = res.node("VM3");
        assertThat(vm3.reference()).isEqualTo("VM1");
        assertThat(vm3.transform().linearSegment().offset()).isBetween(70e6, 90e6);

        if (!babeltraceInstalled()) {
            if ("1".equals(System.getenv("TRACESYNC_REQUIRE_SHARED_DATA"))) {
                fail("babeltrace2 not installed");
            }
            assumeTrue(false, "babeltrace2 not installed: apply check skipped");
        }
        Path out = tmp.resolve("synced");
        InspectCommandTest.Run a = InspectCommandTest.run("apply", result.toString(), "--out", out.toString());
        assertThat(a.code()).as(a.err()).isZero();
        assertThat(a.out()).contains("VM3: ").contains("reference VM1");
        // issue #12 item 13: the clock's rounding error is not presented as the synchronization's accuracy
        assertThat(a.out()).containsPattern("VM3: .*clock rounding error at most [0-9.]+ ns; synchronization"
                + " uncertainty -?[0-9.]+ [mµ]?s / -?[0-9.]+ [mµ]?s at the trace's first event, -?[0-9.]+ [mµ]?s / -?[0-9.]+"
                + " [mµ]?s at its last");
        String metadata = Files.readString(out.resolve("VM3/metadata"));
        assertThat(metadata).contains("synchronization uncertainty (tracesync bounds, -/+)");
        // the bound is recorded in the rewritten metadata's clock comment
        Matcher m = Pattern.compile("clock rounding error at most ([0-9.]+) ns").matcher(metadata);
        assertThat(m.find()).isTrue();
        double bound = Double.parseDouble(m.group(1));
        assertThat(bound).isLessThan(10);

        // babeltrace2 reads the rewritten trace; every event's time is ref(original time) within the bound
        List<Long> original = new ArrayList<>();
        CtfTrace.open(dest).readStream(0, e -> original.add(e.timestamp()));
        List<String> shown = babeltrace(out.resolve("VM3"), tmp);
        assertThat(shown).hasSameSizeAs(original);
        LinearSegment s = vm3.transform().linearSegment();
        double worst = 0;
        for (int i = 0; i < original.size(); i++) {
            long t = original.get(i);
            BigDecimal ref = BigDecimal.valueOf(t).add(new BigDecimal(s.offset()))
                    .add(new BigDecimal(s.drift()).multiply(BigDecimal.valueOf(t - s.origin())), MathContext.DECIMAL128);
            BigDecimal got = new BigDecimal(shown.get(i)).movePointRight(9);
            worst = Math.max(worst, got.subtract(ref).abs().doubleValue());
        }
        assertThat(worst).isLessThanOrEqualTo(bound + 1);
        // the reference keeps its times
        List<Long> vm1 = new ArrayList<>();
        CtfTrace.open(src).readStream(0, e -> vm1.add(e.timestamp()));
        List<String> vm1shown = babeltrace(out.resolve("VM1"), tmp);
        assertThat(new BigDecimal(vm1shown.get(0)).movePointRight(9).longValueExact()).isEqualTo(vm1.get(0));
    }

    @Test
    void applyRefusesPiecewiseTransformsWithoutWritingAnything() throws Exception {
        Path src = InspectCommandTest.sharedTrace("scp_src");
        ClockTransform piecewise = new ClockTransform(List.of(new LinearSegment(null, 5L, 0, 1, 0),
                new LinearSegment(5L, null, 0, 2, 0)));
        SyncResult res = new SyncResult("other", List.of(new NodeResult("VM1", src.toString(), "other",
                Quality.PIECEWISE, piecewise, org.tracesync.core.transform.NodeBounds.NONE, List.of("VM1", "other"), 0, 10, "")), List.of(), Map.of(), List.of());
        Path result = tmp.resolve("pw.json");
        ResultFile.write(res, result);
        InspectCommandTest.Run a = InspectCommandTest.run("apply", result.toString(), "--out", tmp.resolve("o").toString());
        assertThat(a.code()).isNotZero();
        assertThat(a.err()).contains("VM1").contains("piecewise").contains("(2 segments)");
        assertThat(tmp.resolve("o/VM1")).doesNotExist();
    }
}
