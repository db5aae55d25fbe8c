package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The array length check of the decoding programs ({@link CtfStreamReader#exceeds}: n·each > bits,
 * without a division) against the decoder trees' check ({@code n > bits / each}), on seeded random
 * operands of every magnitude, products that overflow included.
 */
class ArrayLengthCheckTest {

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void multiplicationAgreesWithTheDivision(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int k = 0; k < 200_000; k++) {
            long n = operand(r);
            long each = Math.max(1, operand(r));
            long bits = operand(r);
            assertThat(CtfStreamReader.exceeds(n, each, bits)).as("%d · %d > %d", n, each, bits)
                    .isEqualTo(Long.compareUnsigned(n, bits / each) > 0);
            long exact = bits / each; // the boundary: n = bits / each fits, one more does not
            assertThat(CtfStreamReader.exceeds(exact, each, bits)).isFalse();
            if (exact < Long.MAX_VALUE) {
                assertThat(CtfStreamReader.exceeds(exact + 1, each, bits)).isTrue();
            }
        }
    }

    /** A non-negative long of a random magnitude (0 to 63 bits). */
    private static long operand(SplittableRandom r) {
        int bits = r.nextInt(64);
        return bits == 0 ? 0 : r.nextLong() >>> (64 - bits);
    }
}
