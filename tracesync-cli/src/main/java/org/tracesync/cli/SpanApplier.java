package org.tracesync.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.spans.SpanCorrection;
import org.tracesync.formats.spans.SpanFiles;
import org.tracesync.formats.spans.SpanFormat;
import org.tracesync.formats.spans.SpanOptions;
import org.tracesync.formats.spans.SpanRewriter;

/**
 * {@code apply} for span files: one file holds many hosts, so each file is rewritten once with the
 * whole result ({@link SpanRewriter}: every timestamp corrected per host, spans annotated), in its
 * own format, under the same file name in the output directory.
 */
final class SpanApplier {

    private SpanApplier() {
    }

    /**
     * The span files to rewrite: the TRACE paths when all are span files, else the sources the
     * result records (span sources are the file paths joined by the path separator); empty when
     * these are not span files.
     */
    static List<Path> spanFiles(List<Path> traces, SyncResult result) throws IOException {
        List<Path> candidates = new ArrayList<>();
        if (!traces.isEmpty()) {
            candidates.addAll(traces);
        } else {
            LinkedHashSet<String> sources = new LinkedHashSet<>();
            for (NodeResult n : result.nodes()) {
                for (String s : n.source().split(java.io.File.pathSeparator)) {
                    if (!s.isEmpty()) {
                        sources.add(s);
                    }
                }
            }
            for (String s : sources) {
                candidates.add(Path.of(s));
            }
        }
        for (Path p : candidates) {
            if (SpanFormat.detect(p) == null) {
                return List.of();
            }
        }
        return candidates;
    }

    static void apply(List<Path> files, SyncResult result, SpanOptions options, Path outDir, PrintWriter out)
            throws IOException {
        // around a host's clock step, its constrained events are placed by their other ends: one
        // more reading of the files, only when some host has a step
        Function<String, SpanCorrection> corrections = SpanCorrection.forResult(result, SpanFiles.open(files, options));
        Files.createDirectories(outDir);
        for (Path f : files) {
            Path target = outDir.resolve(f.getFileName());
            SpanRewriter.Outcome o = new SpanRewriter(f, options, corrections).write(target);
            out.println(f + " -> " + target + " (" + SpanFormat.detect(f).label() + ": " + o.spans() + " spans, "
                    + o.corrected() + " on hosts of the result, annotated tracesync.*)");
        }
    }
}
