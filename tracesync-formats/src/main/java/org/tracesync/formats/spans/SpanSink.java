package org.tracesync.formats.spans;

/** Receives the spans a reader streams; the record is reused after the call returns. */
@FunctionalInterface
public interface SpanSink {
    void span(SpanRecord span);
}
