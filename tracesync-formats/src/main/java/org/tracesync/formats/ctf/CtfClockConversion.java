package org.tracesync.formats.ctf;

import java.math.BigInteger;

import org.tracesync.formats.ctf.CtfMetadata.ClockClass;

/**
 * Converts clock values (cycles) to ns from the clock's origin, exactly:
 * {@code ns = offset_s·10⁹ + ⌊(offset + cycles)·10⁹ / freq⌋}.
 *
 * <p>Fast path for {@code freq = 10⁹} (LTTng's default): one addition. Otherwise the cycle count
 * is split as {@code q·freq + r} so that {@code q·10⁹ + ⌊r·10⁹/freq⌋} stays in 64-bit arithmetic
 * for every frequency below 9.2 GHz; above that, a 128-bit {@link BigInteger} fallback. No
 * {@code double} anywhere (DESIGN §2).
 */
public final class CtfClockConversion {

    private static final long NS_PER_S = 1_000_000_000L;

    private final long freq;
    private final long offsetSeconds;
    private final long offsetCycles;
    private final long offsetNs;
    private final boolean ghz;

    public CtfClockConversion(long freq, long offsetSeconds, long offsetCycles) {
        if (freq <= 0) {
            throw new IllegalArgumentException("clock frequency must be positive: " + freq);
        }
        this.freq = freq;
        this.offsetSeconds = offsetSeconds;
        this.offsetCycles = offsetCycles;
        this.ghz = freq == NS_PER_S;
        this.offsetNs = offsetSeconds * NS_PER_S + offsetCycles;
    }

    public static CtfClockConversion of(ClockClass c) {
        return c == null ? new CtfClockConversion(NS_PER_S, 0, 0)
                : new CtfClockConversion(c.freq(), c.offsetSeconds(), c.offset());
    }

    /** ns from the clock's origin for an (unsigned) clock value. */
    public long toNanos(long cycles) {
        if (ghz) {
            return offsetNs + cycles;
        }
        long c = offsetCycles + cycles;
        // negative: a huge unsigned cycle count, a negative offset, or an overflow — exact slow path
        if (c < 0 || cycles < 0 || freq > Long.MAX_VALUE / NS_PER_S) {
            return slow(cycles);
        }
        long q = c / freq;
        long r = c % freq;
        return offsetSeconds * NS_PER_S + q * NS_PER_S + r * NS_PER_S / freq;
    }

    private long slow(long cycles) {
        BigInteger c = BigInteger.valueOf(offsetCycles).add(new BigInteger(Long.toUnsignedString(cycles)));
        BigInteger ns = c.multiply(BigInteger.valueOf(NS_PER_S));
        BigInteger[] qr = ns.divideAndRemainder(BigInteger.valueOf(freq));
        BigInteger fl = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
        return fl.add(BigInteger.valueOf(offsetSeconds).multiply(BigInteger.valueOf(NS_PER_S))).longValue();
    }

    public long freq() {
        return freq;
    }
}
