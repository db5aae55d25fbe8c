package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cycles → ns against a BigInteger oracle: ns = offset_s·10⁹ + ⌊(offset + cycles)·10⁹ / freq⌋. */
class CtfClockConversionTest {

    static BigInteger oracle(long freq, long offsetS, long offset, long cycles) {
        BigInteger c = BigInteger.valueOf(offset).add(new BigInteger(Long.toUnsignedString(cycles)));
        BigInteger[] qr = c.multiply(BigInteger.valueOf(1_000_000_000L)).divideAndRemainder(BigInteger.valueOf(freq));
        BigInteger floor = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
        return floor.add(BigInteger.valueOf(offsetS).multiply(BigInteger.valueOf(1_000_000_000L)));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void exactForAnyFrequencyOffsetAndCycleCount(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        long[] freqs = {1_000_000_000L, 1, 1000, 32_768, 2_399_987_123L, 3_000_000_000L, 19_200_000L,
                10_000_000_000L, 999_999_999L};
        for (int i = 0; i < 2000; i++) {
            long freq = i % 3 == 0 ? freqs[r.nextInt(freqs.length)] : 1 + r.nextLong(20_000_000_000L);
            long offsetS = r.nextLong(2_000_000_000L) - (i % 7 == 0 ? 1_000_000_000L : 0);
            long offset = i % 5 == 0 ? -r.nextLong(freq) : r.nextLong(Math.max(1, Math.min(freq * 4, Long.MAX_VALUE / 4)));
            // uptimes from 0 to about a year of cycles, sometimes near the 64-bit limits
            long cycles = i % 11 == 0 ? Long.MAX_VALUE - r.nextLong(1_000_000) : r.nextLong(Math.max(1, freq) * 31_536_000L > 0
                    ? Math.min(Long.MAX_VALUE, freq * 31_536_000L) : Long.MAX_VALUE);
            BigInteger expected = oracle(freq, offsetS, offset, cycles);
            CtfClockConversion conversion = new CtfClockConversion(freq, offsetS, offset);
            String as = String.format("freq %d offset_s %d offset %d cycles %d", freq, offsetS, offset, cycles);
            if (expected.bitLength() < 64) {
                assertThat(conversion.toNanos(cycles)).as(as).isEqualTo(expected.longValueExact());
            } else {
                assertThatThrownBy(() -> conversion.toNanos(cycles)).as(as).isInstanceOf(ArithmeticException.class);
            }
        }
    }

    /** Issue #12 item 10: freq = 1 and offset_s = 2^63 − 1 overflowed silently (a 2 s trace shown as 2146–2210). */
    @ParameterizedTest
    @ValueSource(longs = {1, 1000, 1_000_000_000L})
    void anOverflowingClockIsRefusedNotWrapped(long freq) {
        CtfClockConversion c = new CtfClockConversion(freq, Long.MAX_VALUE, 0);
        assertThatThrownBy(() -> c.toNanos(2)).isInstanceOf(ArithmeticException.class)
                .hasMessageContaining("overflows int64 ns");
        CtfClockConversion huge = new CtfClockConversion(freq, 10_000_000_000L, 0);
        assertThatThrownBy(() -> huge.toNanos(0)).isInstanceOf(ArithmeticException.class);
        // the largest representable instant still converts
        CtfClockConversion edge = new CtfClockConversion(1_000_000_000L, 9_223_372_036L, 0);
        assertThat(edge.toNanos(854_775_807L)).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> edge.toNanos(854_775_808L)).isInstanceOf(ArithmeticException.class);
    }
}
