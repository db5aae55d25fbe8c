package org.tracesync.formats.lttv;

/**
 * Exact parsing of decimal seconds ("1700000000.123456789", "-3.5", "48.85") into int64
 * nanoseconds, digit by digit: never through a double (a double has a 256 ns step at epoch
 * magnitudes). More than 9 decimals round to the nearest nanosecond, half away from zero.
 */
public final class DecimalSeconds {

    /** Returned for text that is not a decimal number. */
    public static final long INVALID = Long.MIN_VALUE;
    /** Returned for a number whose nanoseconds do not fit in an int64. */
    public static final long OUT_OF_RANGE = Long.MIN_VALUE + 1;

    private static final long MAX_SECONDS = Long.MAX_VALUE / 1_000_000_000L;

    private DecimalSeconds() {
    }

    public static long parse(String s) {
        byte[] b = s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        return parse(b, 0, b.length);
    }

    public static long parse(byte[] buf, int from, int to) {
        int i = from;
        boolean negative = false;
        if (i < to && (buf[i] == '-' || buf[i] == '+')) {
            negative = buf[i] == '-';
            i++;
        }
        long seconds = 0;
        int intDigits = 0;
        while (i < to && buf[i] >= '0' && buf[i] <= '9') {
            if (seconds > MAX_SECONDS) {
                return OUT_OF_RANGE;
            }
            seconds = seconds * 10 + (buf[i] - '0');
            intDigits++;
            i++;
        }
        long frac = 0;
        int fracDigits = 0;
        boolean roundUp = false;
        if (i < to && buf[i] == '.') {
            i++;
            while (i < to && buf[i] >= '0' && buf[i] <= '9') {
                if (fracDigits < 9) {
                    frac = frac * 10 + (buf[i] - '0');
                } else if (fracDigits == 9) {
                    roundUp = buf[i] >= '5';
                }
                fracDigits++;
                i++;
            }
        }
        if (i != to || (intDigits == 0 && fracDigits == 0)) {
            return INVALID;
        }
        for (int k = fracDigits; k < 9; k++) {
            frac *= 10;
        }
        if (seconds > MAX_SECONDS) {
            return OUT_OF_RANGE;
        }
        long ns;
        try {
            ns = Math.addExact(Math.multiplyExact(seconds, 1_000_000_000L), frac + (roundUp ? 1 : 0));
        } catch (ArithmeticException e) {
            return OUT_OF_RANGE;
        }
        return negative ? -ns : ns;
    }

    /** Formats ns as decimal seconds with exactly 9 decimals, exactly. */
    public static String format(long ns) {
        boolean negative = ns < 0;
        long abs = negative ? -ns : ns; // Long.MIN_VALUE never comes from a parse
        String frac = Long.toString(abs % 1_000_000_000L);
        return (negative ? "-" : "") + (abs / 1_000_000_000L) + "." + "0".repeat(9 - frac.length()) + frac;
    }
}
