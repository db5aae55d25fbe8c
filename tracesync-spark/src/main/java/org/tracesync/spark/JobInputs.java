package org.tracesync.spark;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.InputOptions;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.TraceSetException;
import org.tracesync.formats.ctf.CtfTrace;
import org.tracesync.formats.pcap.CaptureInterface;
import org.tracesync.formats.pcap.CaptureNodes;
import org.tracesync.formats.pcap.CaptureReader;

/**
 * The job's inputs as the driver resolves them before any task runs: each input's kind (a
 * pcap/pcapng capture or a JSON-lines log on any Hadoop file system; a CTF trace directory on a
 * local or shared file system), the nodes in input order with the names and own addresses the
 * one-machine command gives them (captures resolved together, as {@code TraceInputs} does), and
 * the directed broadcast addresses of the captures' pcapng interfaces.
 *
 * <p>Cost: the first packets of each capture, the metadata and statedump of each CTF trace, the
 * first event of each JSON-lines log.
 */
final class JobInputs {

    static final int CAPTURE = 0;

    /** One input: its kind, as given, its size (captures) and its local path (other kinds). */
    record Input(int kind, String uri, Path name, long size, Path local) {
    }

    final List<Input> inputs;
    final List<NodeInfo> nodes;
    final List<Long> directed;
    /** Each input's first event time (local ns), {@link Long#MIN_VALUE} for an input without events. */
    final long[] firstTimes;
    /**
     * Each input's timestamp resolution (ns; {@code EventTrace.timestampResolution}): a capture's
     * coarsest interface, a CTF trace's coarsest clock period (1 at 1 GHz), 1 for JSON lines.
     * Messages are widened by it, as {@code sync} widens them.
     */
    final long[] resolutions;

    private JobInputs(List<Input> inputs, List<NodeInfo> nodes, List<Long> directed, long[] firstTimes,
                      long[] resolutions) {
        this.resolutions = resolutions;
        this.inputs = inputs;
        this.nodes = nodes;
        this.directed = directed;
        this.firstTimes = firstTimes;
    }

    boolean isCapture(int i) {
        return inputs.get(i).kind() == CAPTURE;
    }

    static JobInputs resolve(List<String> uris, InputOptions options, Configuration conf) throws IOException {
        List<Input> inputs = new ArrayList<>();
        for (String in : uris) {
            inputs.add(classify(in, conf));
        }
        List<Path> captureNames = new ArrayList<>();
        List<String> captureUris = new ArrayList<>();
        for (Input i : inputs) {
            if (i.kind() == CAPTURE) {
                captureNames.add(i.name());
                captureUris.add(i.uri());
            }
        }
        List<NodeInfo> captureNodes = captureNames.isEmpty() ? List.of() : CaptureNodes.resolve(captureNames, options,
                k -> CaptureReader.open(captureNames.get(k), new HadoopFileChannel(captureUris.get(k), conf)));
        List<NodeInfo> nodes = new ArrayList<>();
        List<Long> directed = new ArrayList<>();
        int c = 0;
        long[] firstTimes = new long[inputs.size()];
        long[] resolutions = new long[inputs.size()];
        java.util.Arrays.fill(resolutions, 1);
        java.util.Arrays.fill(firstTimes, Long.MIN_VALUE);
        for (int k = 0; k < inputs.size(); k++) {
            Input i = inputs.get(k);
            if (i.kind() == CAPTURE) {
                nodes.add(captureNodes.get(c++));
                try (CaptureReader r = CaptureReader.open(i.name(), new HadoopFileChannel(i.uri(), conf))) {
                    if (r.next()) { // pcapng interfaces are known once the first packet is read
                        firstTimes[k] = r.timestamp();
                    }
                    for (CaptureInterface ci : r.interfaces()) {
                        long ticks = ci.resolution().ticksPerSecond();
                        resolutions[k] = Math.max(resolutions[k],
                                ticks >= 1_000_000_000L ? 1 : (1_000_000_000L + ticks - 1) / ticks);
                        for (Long b : ci.ipv4Broadcasts()) {
                            if (!directed.contains(b)) {
                                directed.add(b);
                            }
                        }
                    }
                }
            } else if (i.kind() == TraceSpec.CTF) {
                org.tracesync.formats.EventTrace t = TraceDecoder.openTrace(TraceSpec.CTF, i.local());
                nodes.add(t.node());
                resolutions[k] = t.timestampResolution(); // clocks below 1 GHz, as sync widens them
                try (org.tracesync.formats.EventCursor cursor = t.cursor(k, new org.tracesync.formats.AddressTable())) {
                    if (cursor.advance()) {
                        firstTimes[k] = cursor.time();
                    }
                }
            } else {
                org.tracesync.formats.jsonl.JsonLinesReader.LineEvent first = firstEvent(i, conf);
                nodes.add(new NodeInfo(first != null ? first.node()
                        : i.name().getFileName().toString().replaceFirst("\\.(jsonl|ndjson|json)$", ""),
                        i.name().toString()));
                if (first != null) {
                    firstTimes[k] = first.t();
                }
            }
        }
        Map<String, NodeInfo> seen = new HashMap<>();
        for (NodeInfo n : nodes) {
            NodeInfo before = seen.putIfAbsent(n.name(), n);
            if (before != null) {
                throw new TraceSetException("traces " + before.source() + " and " + n.source()
                        + " both have the node name '" + n.name() + "': give each node's trace once"
                        + " (captures can be renamed with --name)");
            }
        }
        return new JobInputs(List.copyOf(inputs), List.copyOf(nodes), directed, firstTimes, resolutions);
    }

    private static Input classify(String in, Configuration conf) throws IOException {
        long size = HadoopFileChannel.size(in, conf);
        Path name = Path.of(in);
        Path local = localPath(in);
        if (size < 0) {
            if (!new org.apache.hadoop.fs.Path(in).getFileSystem(conf).exists(new org.apache.hadoop.fs.Path(in))) {
                throw new NoSuchFileException(in, null, "no such file or directory");
            }
            if (local == null) {
                throw new TraceFormatException(name, "", "a directory on a file system that is not local: tracesync-spark"
                        + " reads CTF traces from a local or shared file system (see docs/SPARK.md)");
            }
            if (!CtfTrace.isCtfTrace(local)) {
                throw new TraceFormatException(name, "", "a directory that is not a CTF trace (no metadata file)");
            }
            return new Input(TraceSpec.CTF, in, name, -1, local);
        }
        if (isCapture(in, conf)) {
            return new Input(CAPTURE, in, name, size, null);
        }
        if (isJsonLines(in, name, conf)) {
            return new Input(TraceSpec.JSON_LINES, in, name, size, local);
        }
        throw new TraceFormatException(name, "offset 0", "not a pcap/pcapng capture, CTF trace or JSON-lines log:"
                + " tracesync-spark reads those (LTTV text and span files: tracesync sync, see docs/SPARK.md)");
    }

    /**
     * As {@code JsonLinesFormat}: the first non-blank byte of the first 64 KiB (after a UTF-8 byte
     * order mark) is '{', or the file is blank and named .jsonl/.ndjson.
     */
    private static boolean isJsonLines(String in, Path name, Configuration conf) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1 << 16);
        try (HadoopFileChannel ch = new HadoopFileChannel(in, conf)) {
            while (b.hasRemaining() && ch.read(b) > 0) {
                // fill
            }
        }
        int n = b.position();
        int i = n >= 3 && (b.get(0) & 0xff) == 0xef && (b.get(1) & 0xff) == 0xbb && (b.get(2) & 0xff) == 0xbf ? 3 : 0;
        for (; i < n; i++) {
            byte c = b.get(i);
            if (c != ' ' && c != '\t' && c != '\r' && c != '\n') {
                return c == '{';
            }
        }
        return org.tracesync.formats.jsonl.JsonLinesReader.looksLikeJsonLines(name);
    }

    /** A JSON-lines log's first event (its node names the log's node, as in {@code JsonLinesReader}), or null. */
    private static org.tracesync.formats.jsonl.JsonLinesReader.LineEvent firstEvent(Input i, Configuration conf)
            throws IOException {
        try (JsonLinesPart part = new JsonLinesPart(i.uri(), i.name(), 0, Long.MAX_VALUE, conf)) {
            String line;
            long number = 0;
            while ((line = part.next()) != null) {
                number++;
                if (number == 1 && line.startsWith("\uFEFF")) {
                    line = line.substring(1);
                }
                if (!line.isBlank()) {
                    return org.tracesync.formats.jsonl.JsonLinesReader.parseLine(i.name(), line, number, null);
                }
            }
        }
        return null;
    }

    private static boolean isCapture(String in, Configuration conf) throws IOException {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4);
        try (HadoopFileChannel ch = new HadoopFileChannel(in, conf)) {
            while (b.hasRemaining() && ch.read(b) > 0) {
                // fill
            }
        }
        int m = b.getInt(0);
        return b.position() == 4 && (m == 0x0a0d0d0a || m == 0xa1b2c3d4 || m == 0xa1b23c4d
                || m == 0xd4c3b2a1 || m == 0x4d3cb2a1);
    }

    /** The input as a local path (a plain path or a file: URI), or null when it names another file system. */
    static Path localPath(String in) {
        if (in.startsWith("file:")) {
            try {
                return Path.of(java.net.URI.create(in));
            } catch (IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
                return null;
            }
        }
        return in.matches("^[A-Za-z][A-Za-z0-9+.-]*:.*") ? null : Path.of(in);
    }
}
