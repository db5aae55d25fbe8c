package org.tracesync.core.simulate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ClockModelTest {

    private static final long T0 = 1_795_276_271_412_493_002L;

    /** local(t) computed exactly with BigDecimal, rounded half-up. */
    private static long exactLocal(ClockModel c, long t) {
        BigDecimal d = BigDecimal.valueOf(t - c.t0());
        BigDecimal v = BigDecimal.valueOf(t).add(BigDecimal.valueOf(c.alpha()))
                .add(new BigDecimal(c.beta()).multiply(d))
                .add(new BigDecimal(c.delta()).multiply(d).multiply(d));
        return v.setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 2026})
    void localIsExactToTheNanosecondOnEpochTimes(long seed) {
        Random r = new Random(seed);
        ClockModel c = new ClockModel("x", T0, 675_342_405L, (r.nextDouble() - 0.5) * 1e-4,
                (r.nextDouble() - 0.5) * 1e-17);
        for (int i = 0; i < 2000; i++) {
            long t = T0 + (long) ((r.nextDouble() - 0.5) * 7_200e9); // ± one hour around T0
            assertThat(c.local(t)).isCloseTo(exactLocal(c, t), org.assertj.core.data.Offset.offset(1L));
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 2026})
    void trueTimeInvertsLocal(long seed) {
        Random r = new Random(seed);
        ClockModel linear = new ClockModel("l", T0, -965_446_622L, (r.nextDouble() - 0.5) * 1e-4, 0.0);
        ClockModel quadratic = new ClockModel("q", T0, 12_345L, (r.nextDouble() - 0.5) * 1e-4,
                (r.nextDouble() - 0.5) * 1e-16);
        for (int i = 0; i < 2000; i++) {
            long t = T0 + (long) ((r.nextDouble() - 0.5) * 7_200e9);
            for (ClockModel c : new ClockModel[] {linear, quadratic}) {
                long local = c.local(t);
                long back = c.trueTime(local);
                // local() rounds to 1 ns and has slope ~1: the inverse lands within 1 ns
                assertThat(Math.abs(back - t)).as("%s at %d", c, t).isLessThanOrEqualTo(1L);
                assertThat(Math.abs(c.local(back) - local)).isLessThanOrEqualTo(1L);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void knownValues() {
        ClockModel c = new ClockModel("h2", T0, 675_342_405L, -2.9346598021578506e-05, 0.0);
        assertThat(c.local(T0)).isEqualTo(T0 + 675_342_405L);
        // 10 s later the clock has lost 293,466 ns (−29.35 ppm)
        assertThat(c.local(T0 + 10_000_000_000L)).isEqualTo(T0 + 10_000_000_000L + 675_342_405L - 293_466L);
        assertThat(c.trueTime(T0 + 675_342_405L)).isEqualTo(T0);
    }
}
