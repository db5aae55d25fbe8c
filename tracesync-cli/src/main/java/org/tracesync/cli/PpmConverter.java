package org.tracesync.cli;

import picocli.CommandLine;

/**
 * Parses a rate in parts per million to a double of ppm: a decimal number with an optional
 * {@code ppm} suffix, e.g. {@code 500} or {@code 500ppm}. Range checks are the option's.
 */
public final class PpmConverter implements CommandLine.ITypeConverter<Double> {

    @Override
    public Double convert(String value) {
        String v = value.trim().toLowerCase(java.util.Locale.ROOT);
        if (v.endsWith("ppm")) {
            v = v.substring(0, v.length() - 3).trim();
        }
        try {
            double ppm = Double.parseDouble(v);
            if (Double.isFinite(ppm) && !v.isEmpty() && Character.isDigit(v.charAt(v.length() - 1))) {
                return ppm;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new CommandLine.TypeConversionException("'" + value + "' is not a rate in ppm like 500 or 500ppm");
    }
}
