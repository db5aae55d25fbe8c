package org.tracesync.formats.pcap;

/**
 * A timestamp unit: 10^-exponent s (decimal) or 2^-exponent s (binary), as pcapng's
 * {@code if_tsresol} encodes it. Conversion to ns is exact integer arithmetic: multiplication
 * for units of at least 1 ns, floor division otherwise (sub-ns digits are truncated), a 128-bit
 * product for binary units. Never a double.
 */
public record TimestampResolution(boolean binary, int exponent) {

    public static final TimestampResolution MICROSECONDS = new TimestampResolution(false, 6);
    public static final TimestampResolution NANOSECONDS = new TimestampResolution(false, 9);

    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /** Decodes the {@code if_tsresol} byte; null when the unit cannot be represented. */
    public static TimestampResolution fromOption(int value) {
        TimestampResolution r = new TimestampResolution((value & 0x80) != 0, value & 0x7f);
        return r.supported() ? r : null;
    }

    public boolean supported() {
        return binary ? exponent <= 100 : exponent <= 18;
    }

    /** The {@code if_tsresol} byte. */
    public int optionValue() {
        return (binary ? 0x80 : 0) | exponent;
    }

    /** Ticks per second, for decimal units up to 10^18; binary units answer -1. */
    public long ticksPerSecond() {
        return binary ? -1 : POW10[exponent];
    }

    /**
     * Converts {@code ticks} (an unsigned 64-bit tick count, less than 2^63 in practice) to ns,
     * exactly (floor for sub-ns units). Throws ArithmeticException on overflow.
     */
    public long toNanos(long ticks) {
        if (!binary) {
            if (exponent <= 9) {
                return Math.multiplyExact(ticks, POW10[9 - exponent]);
            }
            return Long.divideUnsigned(ticks, POW10[exponent - 9]);
        }
        if (ticks < 0) {
            throw new ArithmeticException("timestamp beyond 2^63 ticks");
        }
        long hi = Math.multiplyHigh(ticks, 1_000_000_000L);
        long lo = ticks * 1_000_000_000L;
        if (exponent == 0) {
            if (hi != 0 || lo < 0) {
                throw new ArithmeticException("timestamp overflows int64 ns");
            }
            return lo;
        }
        if (exponent >= 64) {
            return exponent >= 127 ? 0 : hi >>> (exponent - 64);
        }
        long q = (hi << (64 - exponent)) | (lo >>> exponent);
        if ((hi >>> exponent) != 0 || q < 0) {
            throw new ArithmeticException("timestamp overflows int64 ns");
        }
        return q;
    }

    /** Converts ns to ticks of this unit (floor); inverse of {@link #toNanos} for ns-or-coarser units. */
    public long fromNanos(long ns) {
        if (binary) {
            throw new UnsupportedOperationException("binary units are read-only");
        }
        if (exponent <= 9) {
            return Math.floorDiv(ns, POW10[9 - exponent]);
        }
        return Math.multiplyExact(ns, POW10[exponent - 9]);
    }
}
