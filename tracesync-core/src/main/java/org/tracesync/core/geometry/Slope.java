package org.tracesync.core.geometry;

/**
 * An exact slope {@code num / den} (den &gt; 0) between two points with long coordinates, or ±∞.
 * Comparisons are exact ({@link ExactArithmetic#compareProducts}); {@link #toDouble()} is for
 * output only.
 */
public record Slope(long num, long den, int infinity) implements Comparable<Slope> {

    public static final Slope NEGATIVE_INFINITY = new Slope(-1, 0, -1);
    public static final Slope POSITIVE_INFINITY = new Slope(1, 0, 1);

    /** The slope from (u1, v1) to (u2, v2), u1 ≠ u2. */
    public static Slope between(long u1, long v1, long u2, long v2) {
        long du = Math.subtractExact(u2, u1);
        long dv = Math.subtractExact(v2, v1);
        if (du == 0) {
            throw new IllegalArgumentException("vertical slope");
        }
        return du > 0 ? new Slope(dv, du, 0) : new Slope(Math.negateExact(dv), Math.negateExact(du), 0);
    }

    public static Slope of(long num, long den) {
        if (den == 0) {
            throw new IllegalArgumentException("zero denominator");
        }
        return den > 0 ? new Slope(num, den, 0) : new Slope(Math.negateExact(num), Math.negateExact(den), 0);
    }

    public boolean isFinite() {
        return infinity == 0;
    }

    public double toDouble() {
        if (infinity != 0) {
            return infinity < 0 ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        return (double) num / (double) den;
    }

    @Override
    public int compareTo(Slope o) {
        if (infinity != 0 || o.infinity != 0) {
            return Integer.compare(infinity, o.infinity);
        }
        return ExactArithmetic.compareProducts(num, o.den, o.num, den);
    }

    /** Exact sign of {@code a − b·this} for finite slopes: the side of value a against b·slope. */
    public int signOfAMinusBTimes(long a, long b) {
        // a − b·num/den  has the sign of  a·den − b·num  (den > 0)
        return ExactArithmetic.compareProducts(a, den, b, num);
    }

    @Override
    public String toString() {
        return infinity != 0 ? (infinity < 0 ? "-inf" : "+inf") : num + "/" + den;
    }
}
