package org.tracesync.cli;

import java.math.BigDecimal;
import picocli.CommandLine;

/**
 * Parses a duration to int64 ns: a decimal number with an optional unit {@code ns}, {@code us},
 * {@code ms}, {@code s} (the default), {@code m}, {@code h}; e.g. {@code 10}, {@code 2.5s},
 * {@code 500ms}, {@code 2m}. Exact (decimal arithmetic), rounded to the nearest ns.
 */
public final class DurationConverter implements CommandLine.ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        String[][] units = {{"ns", "1"}, {"us", "1000"}, {"µs", "1000"}, {"ms", "1000000"}, {"s", "1000000000"},
            {"m", "60000000000"}, {"h", "3600000000000"}};
        String number = v;
        String factor = "1000000000";
        for (String[] u : units) {
            if (v.endsWith(u[0])) {
                String rest = v.substring(0, v.length() - u[0].length());
                if (!rest.isEmpty() && (Character.isDigit(rest.charAt(rest.length() - 1)) || rest.endsWith("."))) {
                    number = rest;
                    factor = u[1];
                    break;
                }
            }
        }
        try {
            BigDecimal ns = new BigDecimal(number.trim()).multiply(new BigDecimal(factor));
            if (ns.signum() < 0) {
                throw new CommandLine.TypeConversionException("'" + value + "' is negative; expected a duration like 10s or 500ms");
            }
            return ns.setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a duration like 10s, 500ms, 2m");
        }
    }
}
