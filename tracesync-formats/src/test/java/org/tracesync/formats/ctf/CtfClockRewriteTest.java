package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.transform.ClockTransform;
import org.tracesync.core.transform.LinearSegment;
import org.tracesync.formats.ctf.CtfMetadata.ClockClass;

class CtfClockRewriteTest {

    @TempDir
    Path tmp;

    /** ref(t) exactly, as a BigDecimal. */
    static BigDecimal ref(ClockTransform t, long local) {
        LinearSegment s = t.linearSegment();
        return BigDecimal.valueOf(local).add(new BigDecimal(s.offset()))
                .add(new BigDecimal(s.drift()).multiply(BigDecimal.valueOf(local - s.origin())), MathContext.DECIMAL128);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void rewrittenClockIsExactAtMidTraceAndWithinTheBoundElsewhere(long seed) {
        Random rnd = new Random(seed);
        long[] freqs = {1_000_000_000L, 2_399_987_123L, 100_000_000L, 1_000_000L};
        long freq = freqs[rnd.nextInt(freqs.length)];
        long offsetS = 1_600_000_000L + rnd.nextInt(100_000_000);
        long offset = (long) (rnd.nextDouble() * freq);
        ClockClass clock = new ClockClass("monotonic", null, null, freq, offsetS, offset, 0, false);
        CtfClockConversion before = CtfClockConversion.of(clock);
        long c0 = (long) (rnd.nextDouble() * 1e6 * freq / 1000);      // up to ~1000 s of uptime
        long span = (long) ((10 + rnd.nextInt(3600)) * (double) freq);  // 10 s .. 1 h of trace
        long first = before.toNanos(c0);
        long last = before.toNanos(c0 + span);
        double drift = (rnd.nextDouble() - 0.5) * 2e-4;
        ClockTransform t = ClockTransform.linear(first + (last - first) / 3, (rnd.nextDouble() - 0.5) * 1e9, drift);
        long middle = first + (last - first) / 2;
        CtfClockRewrite.NewClock nc = CtfClockRewrite.newClock(clock, t, middle);
        CtfClockConversion after = new CtfClockConversion(nc.freq(), nc.offsetSeconds(), nc.offset());
        double bound = CtfClockRewrite.errorBound(freq, nc, drift, Math.max(middle - first, last - middle));
        // slope rounding: at most half a cycle of the new clock per freq' cycles
        assertThat(bound).isLessThanOrEqualTo(0.5e9 / nc.freq() * (3600 * 1.0001) + 1.5e9 / Math.min(freq, nc.freq()) + 1);
        for (int i = 0; i <= 100; i++) {
            long c = c0 + span / 100 * i;
            long local = before.toNanos(c);
            double err = BigDecimal.valueOf(after.toNanos(c)).subtract(ref(t, local)).doubleValue();
            assertThat(Math.abs(err)).as("cycle %d", c).isLessThanOrEqualTo(bound + 1);
        }
        // near mid-trace the error is the integer rounding only
        long cm = c0 + span / 2;
        double mid = BigDecimal.valueOf(after.toNanos(cm)).subtract(ref(t, before.toNanos(cm))).doubleValue();
        assertThat(Math.abs(mid)).isLessThanOrEqualTo(3.0 + 1e9 / freq);
    }

    @Test
    void copiesStreamsUntouchedAndRewritesOnlyTheClock() throws Exception {
        Path src = tmp.resolve("src");
        CtfTraceWriterTest.writeTrace(src, 3, 200);
        CtfTrace trace = CtfTrace.open(src);
        List<Long> before = new ArrayList<>();
        trace.read(e -> before.add(e.timestamp()));
        long first = before.get(0);
        long last = before.get(before.size() - 1);
        ClockTransform t = ClockTransform.linear(first, 80_123_456.7, 4e-5);
        CtfClockRewrite.Outcome o = CtfClockRewrite.write(trace, t, first, last, tmp.resolve("out"));
        assertThat(Files.readAllBytes(tmp.resolve("out/channel0_0"))).isEqualTo(Files.readAllBytes(src.resolve("channel0_0")));
        assertThat(Files.readString(tmp.resolve("out/metadata"))).startsWith("/* CTF 1.8 */");
        CtfTrace out = CtfTrace.open(tmp.resolve("out"));
        assertThat(out.metadata().clocks().get(0).freq()).isEqualTo(o.freq());
        assertThat(out.metadata().events()).isEqualTo(trace.metadata().events());
        List<Long> after = new ArrayList<>();
        out.read(e -> after.add(e.timestamp()));
        assertThat(after).hasSameSizeAs(before);
        for (int i = 0; i < before.size(); i++) {
            double err = BigDecimal.valueOf(after.get(i)).subtract(ref(t, before.get(i))).doubleValue();
            assertThat(Math.abs(err)).isLessThanOrEqualTo(o.errorBoundNs() + 1);
        }
    }

    @Test
    void piecewiseTransformsAreRefused() throws Exception {
        Path src = tmp.resolve("src");
        CtfTraceWriterTest.writeTrace(src, 3, 10);
        ClockTransform piecewise = new ClockTransform(List.of(new LinearSegment(null, 5L, 0, 1, 0),
                new LinearSegment(5L, null, 0, 2, 0)));
        assertThatThrownBy(() -> CtfClockRewrite.write(CtfTrace.open(src), piecewise, 0, 10, tmp.resolve("out")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("piecewise (2 segments)");
        assertThat(tmp.resolve("out")).doesNotExist();
    }
}
