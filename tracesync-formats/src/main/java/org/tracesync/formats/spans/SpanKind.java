package org.tracesync.formats.spans;

/** OpenTelemetry span kinds (OTLP integers 0–5; Jaeger {@code span.kind} tags and Zipkin {@code kind} map onto them). */
public enum SpanKind {
    UNSPECIFIED, INTERNAL, SERVER, CLIENT, PRODUCER, CONSUMER;

    /** OTLP integer kind; out-of-range values are {@link #UNSPECIFIED}. */
    public static SpanKind ofOtlp(int k) {
        return k >= 0 && k < 6 ? values()[k] : UNSPECIFIED;
    }

    /** Jaeger/Zipkin kind names, any case ({@code client}, {@code SERVER}, ...); null or unknown is {@link #UNSPECIFIED}. */
    public static SpanKind ofName(String s) {
        if (s == null) {
            return UNSPECIFIED;
        }
        return switch (s.toLowerCase(java.util.Locale.ROOT)) {
            case "server" -> SERVER;
            case "client" -> CLIENT;
            case "producer" -> PRODUCER;
            case "consumer" -> CONSUMER;
            case "internal" -> INTERNAL;
            default -> UNSPECIFIED;
        };
    }

    /** CLIENT or PRODUCER: the sending side of a cross-host call. */
    public boolean isCaller() {
        return this == CLIENT || this == PRODUCER;
    }

    /** SERVER or CONSUMER: the receiving side of a cross-host call. */
    public boolean isCallee() {
        return this == SERVER || this == CONSUMER;
    }
}
