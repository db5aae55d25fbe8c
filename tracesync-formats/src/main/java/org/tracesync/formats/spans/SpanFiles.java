package org.tracesync.formats.spans;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.formats.TraceFormatException;

/**
 * A set of span files read as one: hosts are shared across files (a host may appear in several),
 * and parent/child pairs are found across files within the pending tables' capacity. Each file is
 * read with the reader of its own detected format.
 */
public final class SpanFiles {

    private final List<Path> paths;
    private final List<SpanFormat> formats;
    private final SpanOptions options;

    private SpanFiles(List<Path> paths, List<SpanFormat> formats, SpanOptions options) {
        this.paths = List.copyOf(paths);
        this.formats = List.copyOf(formats);
        this.options = options;
    }

    /** True when every path is a span file (of any of the span formats). */
    public static boolean all(List<Path> paths) throws IOException {
        if (paths.isEmpty()) {
            return false;
        }
        for (Path p : paths) {
            if (SpanFormat.detect(p) == null) {
                return false;
            }
        }
        return true;
    }

    public static SpanFiles open(List<Path> paths, SpanOptions options) throws IOException {
        List<SpanFormat> formats = new ArrayList<>();
        for (Path p : paths) {
            SpanFormat f = SpanFormat.detect(p);
            if (f == null) {
                throw new TraceFormatException(p, "", "not a span file (expected OTLP JSON lines, OTLP protobuf, Jaeger JSON or Zipkin v2 JSON)");
            }
            formats.add(f);
        }
        return new SpanFiles(paths, formats, options);
    }

    public List<Path> paths() {
        return paths;
    }

    public List<SpanFormat> formats() {
        return formats;
    }

    public SpanOptions options() {
        return options;
    }

    /** Streams every span of every file into {@code sink}, naming hosts in {@code hosts}. */
    public void read(SpanHosts hosts, SpanSink sink) throws IOException {
        read(hosts, sink, null);
    }

    /** As {@link #read(SpanHosts, SpanSink)}, reporting each file's byte counter to {@code progress} as it starts. */
    public void read(SpanHosts hosts, SpanSink sink, java.util.function.Consumer<java.util.function.LongSupplier> progress)
            throws IOException {
        for (int i = 0; i < paths.size(); i++) {
            SpanReader r = SpanReader.open(paths.get(i), formats.get(i), options, hosts);
            if (progress != null) {
                progress.accept(r::bytesRead);
            }
            r.read(sink);
        }
    }

    /** The {@code source} recorded for every host of these files: the paths, joined by the path separator. */
    public String source() {
        List<String> s = new ArrayList<>();
        for (Path p : paths) {
            s.add(p.toString());
        }
        return String.join(java.io.File.pathSeparator, s);
    }
}
