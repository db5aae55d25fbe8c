package org.tracesync.core.geometry;

/**
 * Exact sign tests on products of 64-bit integers (DESIGN §2).
 *
 * <p>Cross products of nanosecond differences overflow 64 bits after minutes of trace at WAN
 * latencies (1e13 ns × 1e7 ns = 1e20 &gt; 9.2e18), and a {@code double} product has only 53 bits:
 * either silently gives a wrong sign, and a wrong sign yields a wrong hull. Here every product is
 * formed as a full 128-bit value ({@link Math#multiplyHigh} for the high word, the wrapped
 * {@code long} product for the low word) and compared exactly.
 *
 * <p>Cost: a few nanoseconds per test (two multiplyHigh, two multiplications, a compare); there is
 * no fast path to fall out of, the exact path is the only path.
 */
public final class ExactArithmetic {

    private ExactArithmetic() {
    }

    /**
     * Exact sign of {@code a·b − c·d}: −1, 0 or +1. Fast path: when each product's factors have
     * at most 62 significant bits between them, both products fit in a long and compare directly
     * (the common case: ns spans of hours times latency differences); otherwise the 128-bit
     * products ({@link Math#multiplyHigh}, which only C2 turns into one instruction).
     */
    public static int compareProducts(long a, long b, long c, long d) {
        if (bits(a) + bits(b) <= 62 && bits(c) + bits(d) <= 62) {
            return Long.compare(a * b, c * d); // |a·b|, |c·d| < 2^62: exact
        }
        long hi1 = Math.multiplyHigh(a, b);
        long lo1 = a * b;
        long hi2 = Math.multiplyHigh(c, d);
        long lo2 = c * d;
        if (hi1 != hi2) {
            return hi1 < hi2 ? -1 : 1;
        }
        return Integer.signum(Long.compareUnsigned(lo1, lo2));
    }

    /** Significant bits of |x| (64 for Long.MIN_VALUE, whose absolute value does not fit). */
    private static int bits(long x) {
        return 64 - Long.numberOfLeadingZeros(Math.abs(x)); // Math.abs(MIN_VALUE) stays negative: 64
    }

    /**
     * Exact orientation of the triangle (p, q, r): +1 when r lies to the left of the directed line
     * p→q (counter-clockwise turn), −1 to the right, 0 when collinear. Coordinate differences must
     * fit in a long; {@link ArithmeticException} otherwise (never a wrong answer).
     */
    public static int orientation(long pu, long pv, long qu, long qv, long ru, long rv) {
        long du1 = Math.subtractExact(qu, pu);
        long dv1 = Math.subtractExact(qv, pv);
        long du2 = Math.subtractExact(ru, pu);
        long dv2 = Math.subtractExact(rv, pv);
        return compareProducts(du1, dv2, dv1, du2);
    }
}
