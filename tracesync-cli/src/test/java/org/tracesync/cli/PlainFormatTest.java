package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PlainFormat} prints what {@code String.format(Locale.ROOT, …)} prints, the Formatter as the
 * oracle: on seeded random doubles of every magnitude and sign (random bits too), on the ties that
 * half-up rounding of the shortest decimal decides, and on the special values.
 */
class PlainFormatTest {

    private static final int[] DECIMALS = {0, 1, 2, 3, 4, 6};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 17, 2026})
    void fixed_is_the_formatters_f_conversion_on_random_doubles(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            double magnitude = Math.pow(10, random.nextInt(-12, 22));
            values.add((random.nextBoolean() ? -1 : 1) * random.nextDouble() * magnitude);
            values.add(Double.longBitsToDouble(random.nextLong())); // any bit pattern: subnormals, NaN, infinities
            values.add(random.nextLong(-5_000_000, 5_000_000) / 1e3 + 0.0005); // near the ties of %.3f
        }
        for (double v : values) {
            for (int d : DECIMALS) {
                assertThat(PlainFormat.fixed(v, d)).as("%s with %d decimals", v, d)
                        .isEqualTo(String.format(Locale.ROOT, "%." + d + "f", v));
            }
        }
    }

    @Test
    void fixed_rounds_ties_and_keeps_signs_as_the_formatter_does() {
        double[] values = {0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.05, 0.15, 0.25, 0.35, 1.0005, 1.0015, 2.675, 1.005, 0.125,
            -0.0001, -0.00049, 999.9995, 9.9999995, 1e-320, -4.9e-324, 1e21, 123456789.123456789, Double.MIN_VALUE,
            Double.MAX_VALUE, -Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double v : values) {
            for (int d : DECIMALS) {
                assertThat(PlainFormat.fixed(v, d)).as("%s with %d decimals", v, d)
                        .isEqualTo(String.format(Locale.ROOT, "%." + d + "f", v));
            }
        }
        assertThat(PlainFormat.fixed(-0.0001, 3)).isEqualTo("-0.000");
        assertThat(PlainFormat.fixed(1.0005, 3)).isEqualTo("1.001"); // the shortest decimal's tie, not the binary value's
    }

    @Test
    void pads_as_the_formatters_s_conversion() {
        for (String s : new String[] {"", "a", "µs", "twelve chars", "longer than twelve", null}) {
            for (int width : new int[] {1, 8, 12, 31}) {
                assertThat(PlainFormat.left(s, width)).isEqualTo(String.format(Locale.ROOT, "%-" + width + "s", s));
                assertThat(PlainFormat.right(s, width)).isEqualTo(String.format(Locale.ROOT, "%" + width + "s", s));
            }
        }
        assertThat(PlainFormat.right(42L, 8)).isEqualTo(String.format(Locale.ROOT, "%8d", 42L));
        assertThat(PlainFormat.right(-42L, 8)).isEqualTo(String.format(Locale.ROOT, "%8d", -42L));
    }
}
