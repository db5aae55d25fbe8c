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
 * {@code double} anywhere (DESIGN §2). A result outside int64 ns (e.g. {@code offset_s} near 2⁶³ or
 * {@code freq = 1} with a large offset) is never wrapped: {@link #toNanos} throws
 * {@link ArithmeticException}, which the stream reader reports with the file and offset, as the
 * pcapng reader does for {@code if_tsoffset}.
 */
public final class CtfClockConversion {

    private static final long NS_PER_S = 1_000_000_000L;

    private final long freq;
    private final long offsetSeconds;
    private final long offsetCycles;
    /** offset_s·10⁹ + offset when it fits in int64 and freq = 10⁹ (the one-addition fast path), else unused. */
    private final long offsetNs;
    private final boolean ghz;

    public CtfClockConversion(long freq, long offsetSeconds, long offsetCycles) {
        if (freq <= 0) {
            throw new IllegalArgumentException("clock frequency must be positive: " + freq);
        }
        this.freq = freq;
        this.offsetSeconds = offsetSeconds;
        this.offsetCycles = offsetCycles;
        BigInteger offset = BigInteger.valueOf(offsetSeconds).multiply(BigInteger.valueOf(NS_PER_S))
                .add(BigInteger.valueOf(offsetCycles));
        this.ghz = freq == NS_PER_S && offset.bitLength() < 64;
        this.offsetNs = ghz ? offset.longValue() : 0;
    }

    public static CtfClockConversion of(ClockClass c) {
        return c == null ? new CtfClockConversion(NS_PER_S, 0, 0)
                : new CtfClockConversion(c.freq(), c.offsetSeconds(), c.offset());
    }

    /** ns from the clock's origin for an (unsigned) clock value. */
    public long toNanos(long cycles) {
        if (ghz && cycles >= 0) {
            long ns = offsetNs + cycles;
            if (((offsetNs ^ ns) & (cycles ^ ns)) < 0) {
                throw overflow(cycles);
            }
            return ns;
        }
        long c = offsetCycles + cycles;
        // negative: a huge unsigned cycle count, a negative offset, or an overflow — exact slow path
        if (c < 0 || cycles < 0 || freq > Long.MAX_VALUE / NS_PER_S) {
            return slow(cycles);
        }
        long q = c / freq;
        long r = c % freq;
        try {
            return Math.addExact(Math.addExact(Math.multiplyExact(offsetSeconds, NS_PER_S),
                    Math.multiplyExact(q, NS_PER_S)), r * NS_PER_S / freq);
        } catch (ArithmeticException e) {
            return slow(cycles); // exact; throws when the value itself is out of range
        }
    }

    private ArithmeticException overflow(long cycles) {
        return new ArithmeticException("clock value " + Long.toUnsignedString(cycles) + " (freq " + freq + ", offset_s "
                + offsetSeconds + ", offset " + offsetCycles + ") overflows int64 ns");
    }

    private long slow(long cycles) {
        BigInteger c = BigInteger.valueOf(offsetCycles).add(new BigInteger(Long.toUnsignedString(cycles)));
        BigInteger ns = c.multiply(BigInteger.valueOf(NS_PER_S));
        BigInteger[] qr = ns.divideAndRemainder(BigInteger.valueOf(freq));
        BigInteger fl = qr[1].signum() < 0 ? qr[0].subtract(BigInteger.ONE) : qr[0];
        BigInteger v = fl.add(BigInteger.valueOf(offsetSeconds).multiply(BigInteger.valueOf(NS_PER_S)));
        if (v.bitLength() >= 64) {
            throw overflow(cycles);
        }
        return v.longValue();
    }

    public long freq() {
        return freq;
    }
}
