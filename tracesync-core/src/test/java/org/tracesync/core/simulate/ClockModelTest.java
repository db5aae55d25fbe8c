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

    /** local(t) of a clock with events, exactly (BigDecimal), rounded half-up. */
    private static long exactLocalWithEvents(ClockModel c, long t) {
        BigDecimal d = BigDecimal.valueOf(t - c.t0());
        BigDecimal smooth = new BigDecimal(c.beta()).multiply(d).add(new BigDecimal(c.delta()).multiply(d).multiply(d));
        BigDecimal exact = BigDecimal.valueOf(t).add(BigDecimal.valueOf(c.alpha())).add(smooth);
        for (ClockEvent e : c.events()) {
            if (t >= e.at()) {
                exact = exact.add(BigDecimal.valueOf(e.step()))
                        .add(new BigDecimal(e.rate()).multiply(BigDecimal.valueOf(t - e.at())));
            }
        }
        return exact.setScale(0, RoundingMode.HALF_UP).longValueExact();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 2026})
    void wanderingClockIsExactAndInvertible(long seed) {
        long start = T0;
        long duration = 12 * 3_600_000_000_000L;
        ClockWander wander = ClockWander.NONE.withWalk(10_000_000_000L, 0.01e-6).withNtp(1_024_000_000_000L, 1e-6)
                .withSlews(2, 500e-6);
        ClockModel c = wander.apply(java.util.List.of(new ClockModel("w", T0, 123_456_789L, 3e-5, 1e-21)),
                seed, start, duration).get(0);
        assertThat(c.events()).hasSizeGreaterThan(4_000);
        Random r = new Random(seed);
        for (int i = 0; i < 300; i++) {
            long t = start + (long) (r.nextDouble() * duration);
            long local = c.local(t);
            assertThat(local).isCloseTo(exactLocalWithEvents(c, t), org.assertj.core.data.Offset.offset(1L));
            assertThat(Math.abs(c.trueTime(local) - t)).as("at %d", t).isLessThanOrEqualTo(1L);
        }
    }

    @org.junit.jupiter.api.Test
    void stepsAndRateChangesHaveKnownValues() {
        ClockModel c = new ClockModel("s", T0, 0, 0.0, 0.0, java.util.List.of(
                ClockEvent.rateChange(T0 + 1_000_000_000L, 500e-6),
                ClockEvent.rateChange(T0 + 3_000_000_000L, -500e-6),
                ClockEvent.step(T0 + 10_000_000_000L, 5_000_000L),
                ClockEvent.step(T0 + 20_000_000_000L, -3_000_000L)));
        assertThat(c.local(T0 + 1_000_000_000L)).isEqualTo(T0 + 1_000_000_000L);
        // 2 s of a 500 ppm slew: 1 ms ahead, and it stays
        assertThat(c.local(T0 + 3_000_000_000L)).isEqualTo(T0 + 3_000_000_000L + 1_000_000L);
        assertThat(c.local(T0 + 9_999_999_999L)).isEqualTo(T0 + 9_999_999_999L + 1_000_000L);
        assertThat(c.local(T0 + 10_000_000_000L)).isEqualTo(T0 + 10_000_000_000L + 6_000_000L);
        assertThat(c.local(T0 + 20_000_000_000L)).isEqualTo(T0 + 20_000_000_000L + 3_000_000L);
        assertThat(c.driftAt(T0 + 2_000_000_000L)).isEqualTo(500e-6);
        assertThat(c.steps()).extracting(ClockEvent::step).containsExactly(5_000_000L, -3_000_000L);
        // a local time in the gap of the forward step maps to the step's instant
        assertThat(c.trueTime(T0 + 10_000_000_000L + 3_000_000L)).isEqualTo(T0 + 10_000_000_000L);
    }

    @org.junit.jupiter.api.Test
    void aTimeReadTwiceAfterABackwardStepHasBothInstantsAndAMessagePicksOne() {
        // 1 ms ahead, 20 ppm fast, stepping back 3 ms at T0 + 20 s
        long step = T0 + 20_000_000_000L;
        ClockModel c = new ClockModel("s", T0, 1_000_000L, 20e-6, 0.0, java.util.List.of(ClockEvent.step(step, -3_000_000L)));
        long local = c.local(step) + 1_000_000L; // read 1 ms after the step, and ~2 ms before it
        long[] both = c.trueTimes(local);
        assertThat(both).hasSize(2);
        assertThat(both[0]).isLessThan(step).isCloseTo(step - 2_000_000L, org.assertj.core.data.Offset.offset(100L));
        assertThat(both[1]).isGreaterThanOrEqualTo(step).isCloseTo(step + 1_000_000L, org.assertj.core.data.Offset.offset(100L));
        for (long t : both) {
            assertThat(Math.abs(c.local(t) - local)).isLessThanOrEqualTo(1L);
        }
        // a send takes the latest instant not after its receive, a receive the earliest not before its send
        assertThat(c.trueTimeOfEnd(local, step + 1_100_000L, true)).isEqualTo(both[1]);
        assertThat(c.trueTimeOfEnd(local, step - 1_000_000L, true)).isEqualTo(both[0]);
        assertThat(c.trueTimeOfEnd(local, step - 2_100_000L, false)).isEqualTo(both[0]);
        assertThat(c.trueTimeOfEnd(local, step, false)).isEqualTo(both[1]);
        // read once: away from the step, and in the gap of a forward step (the step's instant)
        assertThat(c.trueTimes(c.local(T0 + 5_000_000_000L))).containsExactly(T0 + 5_000_000_000L);
        ClockModel forward = new ClockModel("f", T0, 0, 0.0, 0.0, java.util.List.of(ClockEvent.step(step, 5_000_000L)));
        assertThat(forward.trueTimes(step + 2_000_000L)).containsExactly(step);
    }
}
