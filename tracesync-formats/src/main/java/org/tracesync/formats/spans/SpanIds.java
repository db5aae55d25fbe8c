package org.tracesync.formats.spans;

/**
 * Trace and span ids: lower- or upper-case hex (OTLP JSON, Jaeger, Zipkin), or base64 (Tempo's
 * variant of OTLP JSON, 24 or 12 characters). Exact: 128-bit trace ids as two longs.
 */
final class SpanIds {

    private SpanIds() {
    }

    /** Parses up to 16 hex digits; returns null-equivalent via exception message. */
    static long hex(String s, int from, int to) {
        long v = 0;
        for (int i = from; i < to; i++) {
            int d = Character.digit(s.charAt(i), 16);
            if (d < 0) {
                throw new IllegalArgumentException("'" + s + "' is not hexadecimal");
            }
            v = (v << 4) | d;
        }
        return v;
    }

    /**
     * A trace id as {hi, lo}. {@code minHex}: the shortest hex form accepted (Jaeger drops leading
     * zeros: 1; OTLP and Zipkin: 16 or 32 exactly). Base64 of 16 bytes (24 chars) is accepted when
     * {@code base64} is true.
     */
    static void traceId(String s, boolean lenient, boolean base64, long[] out) {
        int n = s.length();
        if (base64 && n == 24 && !isHex(s)) {
            byte[] b = java.util.Base64.getDecoder().decode(s);
            out[0] = bytesToLong(b, 0);
            out[1] = bytesToLong(b, 8);
            return;
        }
        if (!(n == 32 || n == 16 || (lenient && n >= 1 && n <= 32))) {
            throw new IllegalArgumentException("trace id '" + abbreviate(s) + "' has " + n
                    + " characters (expected 32 hex digits" + (lenient ? " or fewer" : " or 16") + ")");
        }
        int split = Math.max(0, n - 16);
        out[0] = split == 0 ? 0 : hex(s, 0, split);
        out[1] = hex(s, split, n);
    }

    /** A span id (16 hex digits; {@code lenient}: 1 to 16; base64 of 8 bytes: 12 chars). */
    static long spanId(String s, boolean lenient, boolean base64) {
        int n = s.length();
        if (base64 && n == 12 && !isHex(s)) {
            return bytesToLong(java.util.Base64.getDecoder().decode(s), 0);
        }
        if (!(n == 16 || (lenient && n >= 1 && n <= 16))) {
            throw new IllegalArgumentException("span id '" + abbreviate(s) + "' has " + n
                    + " characters (expected 16 hex digits)");
        }
        return hex(s, 0, n);
    }

    private static boolean isHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static long bytesToLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }

    static String hex16(long v) {
        String h = Long.toHexString(v);
        return "0".repeat(16 - h.length()) + h;
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }
}
