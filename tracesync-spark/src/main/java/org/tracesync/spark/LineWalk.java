package org.tracesync.spark;

import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.jsonl.JsonLinesReader;

/**
 * The line pass over one part of a JSON-lines log that has several: counts its lines and finds its
 * largest time, so that the driver can give every part its first line number (error messages name
 * the line, as the one-machine reader does) and its carry (the merge order). Every line is parsed
 * and checked; the first bad one is reported, not thrown, with its line number within the part.
 *
 * @param errorLine   0 when every line was good; the bad line's number within the part; -1 for an
 *                    error without a line (not UTF-8)
 * @param errorDetail the error's message after "FILE:line N: " (the whole message when no line)
 */
record LineWalk(int file, int part, long lines, long maxTime, long errorLine, String errorDetail)
        implements Serializable {

    static LineWalk walk(TraceSpec s, Map<String, String> hadoopConf) {
        Configuration conf = new Configuration(false);
        hadoopConf.forEach(conf::set);
        Path name = Path.of(s.name());
        long lines = 0;
        long max = Long.MIN_VALUE;
        try (JsonLinesPart part = new JsonLinesPart(s.uri(), name, s.start(), s.end(), conf)) {
            String line;
            while ((line = part.next()) != null) {
                lines++;
                if (s.start() == 0 && lines == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                if (line.isBlank()) {
                    continue;
                }
                try {
                    max = Math.max(max, JsonLinesReader.parseLine(name, line, lines, s.node()).t() - s.offset());
                } catch (TraceFormatException e) {
                    String prefix = name + ":line " + lines + ": ";
                    String m = e.getMessage();
                    return new LineWalk(s.file(), s.part(), lines, max, lines,
                            m.startsWith(prefix) ? m.substring(prefix.length()) : m);
                }
            }
        } catch (TraceFormatException e) {
            return new LineWalk(s.file(), s.part(), lines, max, -1, e.getMessage());
        } catch (IOException e) {
            throw new CaptureInputError(TraceDecoder.message(e));
        }
        return new LineWalk(s.file(), s.part(), lines, max, 0, null);
    }
}
