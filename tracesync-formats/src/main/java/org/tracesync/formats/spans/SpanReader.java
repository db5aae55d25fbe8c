package org.tracesync.formats.spans;

import java.io.IOException;
import java.nio.file.Path;

/** Reads one span file, streaming each span once into a sink, in file order. */
interface SpanReader {

    /** Streams every span of the file into {@code sink}. */
    void read(SpanSink sink) throws IOException;

    /** Bytes read so far (for progress displays). */
    long bytesRead();

    /** The reader for {@code file}'s format. */
    static SpanReader open(Path file, SpanFormat format, SpanOptions options, SpanHosts hosts) {
        return switch (format) {
            case OTLP_JSON -> new OtlpJsonReader(file, options, hosts);
            case JAEGER_JSON -> new JaegerJsonReader(file, options, hosts);
            case ZIPKIN_JSON -> new ZipkinJsonReader(file, options, hosts);
            case OTLP_PROTO -> new OtlpProtoReader(file, options, hosts);
        };
    }
}
