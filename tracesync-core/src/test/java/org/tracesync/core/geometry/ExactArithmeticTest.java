package org.tracesync.core.geometry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Regression cases where 64-bit products overflow and double products get the sign wrong. */
class ExactArithmeticTest {

    @Test
    void productsThatOverflowLongAndRoundInDoubleKeepTheirSign() {
        long a = 10_000_000_001L;
        long b = 9_999_999_999L; // a·b = 1e20 − 1
        long c = 10_000_000_000L;
        long d = 10_000_000_000L; // c·d = 1e20
        // the naive answers are wrong:
        assertThat(Double.compare((double) a * b, (double) c * d)).isZero();
        assertThat(BigInteger.valueOf(a * b)).as("the long product wraps")
                .isNotEqualTo(BigInteger.valueOf(a).multiply(BigInteger.valueOf(b)));
        assertThat(ExactArithmetic.compareProducts(a, b, c, d)).isEqualTo(-1);
        assertThat(ExactArithmetic.compareProducts(c, d, a, b)).isEqualTo(1);
        assertThat(ExactArithmetic.compareProducts(a, b, a, b)).isZero();
    }

    @Test
    void orientationOfNearlyCollinearPointsIsExact() {
        // ten seconds of abscissa, clocks ten seconds apart: the two cross-product terms are
        // ~1e20 (beyond 64 bits) and differ by one unit.
        long u1 = 0, v1 = 0;
        long u2 = 10_000_000_001L, v2 = 10_000_000_000L;
        long u3 = 10_000_000_000L, v3 = 9_999_999_999L;
        assertThat(ExactArithmetic.orientation(u1, v1, u2, v2, u3, v3)).isEqualTo(-1);
        assertThat(ExactArithmetic.orientation(u1, v1, u3, v3, u2, v2)).isEqualTo(1);
        double naive = (double) (u2 - u1) * (v3 - v1) - (double) (v2 - v1) * (u3 - u1);
        assertThat(naive).as("a double cross product calls them collinear").isZero();
        long wrapped = (u2 - u1) * (v3 - v1) - (v2 - v1) * (u3 - u1);
        assertThat(wrapped).as("64-bit products overflow; the wrapped difference is luck, not exactness")
                .isEqualTo(-1L);
        // an hour apart at 1e-5 drift: one ns off the line is still seen
        assertThat(ExactArithmetic.orientation(0, 0, 3_600_000_000_000L, 36_000_000L,
                7_200_000_000_000L, 72_000_001L)).isEqualTo(1);
        assertThat(ExactArithmetic.orientation(0, 0, 3_600_000_000_000L, 36_000_000L,
                7_200_000_000_000L, 72_000_000L)).isZero();
    }

    @Test
    void matchesBigIntegerOnRandomLargeProducts() {
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 100_000; i++) {
            long a = r.nextLong();
            long b = r.nextLong();
            long c = r.nextLong();
            long d = i % 3 == 0 ? b : r.nextLong();
            int expected = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b))
                    .compareTo(BigInteger.valueOf(c).multiply(BigInteger.valueOf(d)));
            assertThat(ExactArithmetic.compareProducts(a, b, c, d)).isEqualTo(Integer.signum(expected));
        }
    }

    /** Factors of every bit length, so that both the 64-bit fast path and the 128-bit path, and the boundary, are exercised. */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(longs = {1, 2, 3})
    void matchesBigIntegerAtEveryMagnitude(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 200_000; i++) {
            long a = random(r);
            long b = random(r);
            long c = i % 5 == 0 ? b : random(r);
            long d = i % 5 == 0 ? a : random(r);
            int expected = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b))
                    .compareTo(BigInteger.valueOf(c).multiply(BigInteger.valueOf(d)));
            assertThat(ExactArithmetic.compareProducts(a, b, c, d)).as("%d·%d vs %d·%d", a, b, c, d)
                    .isEqualTo(Integer.signum(expected));
        }
        assertThat(ExactArithmetic.compareProducts(Long.MIN_VALUE, 1, 0, 0)).isEqualTo(-1);
        assertThat(ExactArithmetic.compareProducts(Long.MIN_VALUE, -1, Long.MAX_VALUE, 1)).isEqualTo(1);
        assertThat(ExactArithmetic.compareProducts(1L << 31, 1L << 31, (1L << 62) - 1, 1)).isEqualTo(1);
    }

    /** A long of random bit length (0–64) and sign. */
    private static long random(SplittableRandom r) {
        int bits = r.nextInt(65);
        long v = bits == 64 ? r.nextLong() : bits == 0 ? 0 : r.nextLong() >>> (64 - bits);
        return r.nextBoolean() ? -v : v;
    }

    @Test
    void differencesThatDoNotFitAreRefusedNotWrong() {
        assertThatThrownBy(() -> ExactArithmetic.orientation(Long.MIN_VALUE, 0, Long.MAX_VALUE, 0, 0, 1))
                .isInstanceOf(ArithmeticException.class);
    }

    @Test
    void slopesCompareExactly() {
        Slope s1 = Slope.of(203, 1677);
        Slope s2 = Slope.of(203_000_000_000L, 1_677_000_000_000L);
        assertThat(s1.compareTo(s2)).isZero();
        assertThat(Slope.of(1, 3).compareTo(Slope.of(333_333_333_333L, 1_000_000_000_000L))).isEqualTo(1);
        assertThat(Slope.NEGATIVE_INFINITY.compareTo(Slope.of(-1_000_000_000L, 1))).isEqualTo(-1);
        assertThat(Slope.POSITIVE_INFINITY.compareTo(Slope.POSITIVE_INFINITY)).isZero();
        assertThat(Slope.between(5, 10, 2, 4)).isEqualTo(Slope.of(6, 3)).extracting(Slope::toDouble).isEqualTo(2.0);
    }
}
