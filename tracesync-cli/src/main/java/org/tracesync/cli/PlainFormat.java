package org.tracesync.cli;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * What {@code String.format(Locale.ROOT, …)} prints for {@code %.Nf}, {@code %Ns} and {@code %-Ns},
 * without {@link java.util.Formatter}: a Formatter's first number loads the locale data
 * (DecimalFormatSymbols, the CLDR provider), which cost the summary of a 2-message {@code sync} 1.11×
 * its CPU (docs/PERFORMANCE.md, "Start").
 *
 * <p>Exact: {@link #fixed} rounds, half up, the shortest decimal that {@link Double#toString} gives,
 * as the Formatter rounds it (both read the digits of {@code FloatingDecimal} on this JDK);
 * {@code PlainFormatTest} compares both on seeded random values of every magnitude and on the
 * ties. O(digits) per call.
 */
final class PlainFormat {

    private PlainFormat() {
    }

    /** {@code String.format(Locale.ROOT, "%." + decimals + "f", v)}. */
    static String fixed(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.compare(v, 0.0) < 0) { // -0.0 and what rounds to 0 keep their sign, as in the Formatter
            return "-" + fixed(-v, decimals);
        }
        if (Double.isInfinite(v)) {
            return "Infinity";
        }
        return new BigDecimal(Double.toString(v)).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
    }

    /** {@code o} ({@code "null"} for null) padded with spaces on the left to {@code width} characters ({@code %Ns}). */
    static String right(Object o, int width) {
        String s = String.valueOf(o);
        return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
    }

    /** {@code o} ({@code "null"} for null) padded with spaces on the right to {@code width} characters ({@code %-Ns}). */
    static String left(Object o, int width) {
        String s = String.valueOf(o);
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}
