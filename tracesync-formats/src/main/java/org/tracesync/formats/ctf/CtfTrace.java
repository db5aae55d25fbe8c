package org.tracesync.formats.ctf;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import org.tracesync.core.model.NetEventSink;
import org.tracesync.core.model.NetEventSource;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.TraceFormatException;

/**
 * A CTF 1.8 trace directory (LTTng kernel or user-space): metadata plus one file per stream.
 *
 * <p>{@link #read} streams every event of every stream merged in timestamp order ({@link StreamMerge}:
 * O(log s) per event for s streams; ties go to the lower stream index). Packets are read in file order within a stream. Timestamps that go backwards inside a
 * stream do not stop reading (babeltrace2's muxer stops there): they are counted and reported in
 * {@link #warnings}. Memory is independent of the trace size (see {@link CtfStreamReader}).
 *
 * <p>As a {@link NetEventSource}, it emits the network events {@link CtfNetworkEvents} recognizes;
 * as an {@link EventTrace}, its {@link #cursor} pulls the same events one at a time for the
 * matching pipeline.
 */
public final class CtfTrace implements NetEventSource, EventTrace {

    private final Path dir;
    private final CtfMetadata metadata;
    private final List<Path> streamFiles;
    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    private NodeInfo node;
    private volatile List<StreamStats> lastStats = List.of();
    private CtfNetworkEvents.Summary netSummary;

    private CtfTrace(Path dir, CtfMetadata metadata, List<Path> streamFiles) {
        this.dir = dir;
        this.metadata = metadata;
        this.streamFiles = streamFiles;
    }

    /**
     * True when {@code path} is a CTF trace directory (has a metadata file), or an LTTng session
     * directory holding exactly one kernel trace ({@code kernel/metadata}).
     */
    public static boolean isCtfTrace(Path path) {
        return traceDirectory(path) != null;
    }

    /** The CTF trace directory {@code path} names: itself, or its {@code kernel} sub-directory; else null. */
    static Path traceDirectory(Path path) {
        if (Files.isDirectory(path) && Files.isRegularFile(path.resolve("metadata"))) {
            return path;
        }
        Path kernel = path.resolve("kernel");
        if (Files.isDirectory(path) && Files.isRegularFile(kernel.resolve("metadata"))) {
            return kernel;
        }
        return null;
    }

    /**
     * Opens a trace directory (or an LTTng session directory, whose {@code kernel} trace is read):
     * reads and parses the metadata, lists the stream files.
     */
    public static CtfTrace open(Path path) throws IOException {
        Path found = traceDirectory(path);
        Path dir = found != null ? found : path;
        if (!Files.isDirectory(dir)) {
            throw new TraceFormatException(dir, "", Files.exists(dir) ? "not a directory (a CTF trace is a directory)"
                    : "no such trace directory");
        }
        CtfMetadata meta = CtfMetadataFile.read(dir.resolve("metadata"));
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().equals("metadata"))
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .forEach(files::add);
        }
        if (files.isEmpty()) {
            throw new TraceFormatException(dir, "", "CTF trace has metadata but no stream file");
        }
        return new CtfTrace(dir, meta, files);
    }

    /** A trace whose metadata is already parsed (tests and fuzzing reuse one parse). */
    static CtfTrace of(Path dir, CtfMetadata metadata, List<Path> streamFiles) {
        return new CtfTrace(dir, metadata, List.copyOf(streamFiles));
    }

    public Path directory() {
        return dir;
    }

    public CtfMetadata metadata() {
        return metadata;
    }

    public List<Path> streamFiles() {
        return List.copyOf(streamFiles);
    }

    /** Node name: the trace environment's hostname, else the directory name. */
    public String nodeName() {
        String h = metadata.hostname();
        if (h != null && !h.isBlank()) {
            return h;
        }
        Path d = dir.toAbsolutePath().normalize();
        if (d.getFileName() != null && d.getFileName().toString().equals("kernel") && d.getParent() != null) {
            d = d.getParent();   // an LTTng session: name the node after the session directory
        }
        Path name = d.getFileName();
        return name == null ? dir.toString() : name.toString();
    }

    /**
     * Reads every event, merged across streams in timestamp order.
     *
     * @throws TraceFormatException on corrupt data (naming the stream file and the byte offset)
     */
    public void read(CtfEventHandler handler) throws IOException {
        List<CtfStreamReader> readers = new ArrayList<>();
        warnings.clear();
        try {
            for (int i = 0; i < streamFiles.size(); i++) {
                Path f = streamFiles.get(i);
                if (!Files.exists(f)) {
                    throw new TraceFormatException(f, "", "stream file missing");
                }
                readers.add(new CtfStreamReader(f, i, metadata, warnings));
            }
            StreamMerge merge = new StreamMerge(readers);
            for (CtfStreamReader r = merge.head(); r != null; r = merge.head()) {
                handler.event(r);
                merge.next();
            }
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(Path.of(e.getFile()), "", "stream file missing");
        } finally {
            List<StreamStats> stats = new ArrayList<>();
            for (CtfStreamReader r : readers) {
                stats.add(new StreamStats(r.file(), r.streamClassId(), r.eventCount(), r.backwardsCount(),
                        r.discardedEvents()));
                r.close();
            }
            lastStats = List.copyOf(stats);
        }
    }

    /** Per-stream figures of a read: events decoded, backward timestamp steps, events the tracer discarded. */
    public record StreamStats(Path file, long streamClassId, long events, long backwardSteps, long discarded) {
    }

    /** Per-stream figures of the last {@link #read} (empty before the first). */
    public List<StreamStats> lastReadStats() {
        return lastStats;
    }

    /** Reads one stream file alone, in file order. */
    public void readStream(int index, CtfEventHandler handler) throws IOException {
        CtfStreamReader r = new CtfStreamReader(streamFiles.get(index), index, metadata, warnings);
        try {
            while (r.advance()) {
                handler.event(r);
            }
        } finally {
            r.close();
        }
    }

    /** What reading found: timestamps going backwards, truncated packets, UUID mismatches. */
    @Override
    public List<String> warnings() {
        synchronized (warnings) {
            return List.copyOf(warnings);
        }
    }

    /**
     * The coarsest step of the trace's clocks, ns: 1 for clocks of 1 GHz or more (LTTng's), else
     * the clock period {@code 10⁹ / freq}; when the period is not a whole number of ns, its floor
     * plus 2 (the conversion to ns floors, so a timestamp t then stands for an instant in
     * (t − period, t + period + 1)). Every clock of the metadata counts (conservative: a stream
     * maps its timestamps to one of them). O(clocks), no I/O.
     */
    @Override
    public long timestampResolution() {
        long r = 1;
        for (CtfMetadata.ClockClass c : metadata.clocks()) {
            long f = c.freq();
            if (f > 0 && f < 1_000_000_000L) {
                long period = 1_000_000_000L / f;
                r = Math.max(r, 1_000_000_000L % f == 0 ? period : period + 2);
            }
        }
        return r;
    }

    @Override
    public NodeInfo node() {
        if (node == null) {
            List<String> addresses = List.of();
            try {
                addresses = statedumpAddresses();
            } catch (IOException e) {
                warnings.add(dir + ": could not read the statedump for addresses: " + e.getMessage());
            }
            node = new NodeInfo(nodeName(), dir.toString(), addresses);
        }
        return node;
    }

    /** Own addresses from the statedump, reading only up to its end (see {@link CtfNetworkEvents#untilStatedumpEnd()}). */
    private List<String> statedumpAddresses() throws IOException {
        if (netSummary != null) {
            return netSummary.addresses();
        }
        if (metadata.events().stream().noneMatch(e -> e.name().equals("lttng_statedump_network_interface"))) {
            return List.of(); // no such event in the metadata (user-space traces): nothing to read
        }
        CtfNetworkEvents net = CtfNetworkEvents.untilStatedumpEnd();
        try {
            read(net);
        } catch (CtfNetworkEvents.StatedumpEnd end) {
            // read far enough: the rest of the trace holds no statedump
        }
        return net.summary().addresses();
    }

    @Override
    public EventCursor cursor(int index, AddressTable addresses) throws IOException {
        warnings.clear();
        return new CtfEventCursor(this, warnings, addresses);
    }

    /**
     * A pass over one stream file's network events alone, in that file's order (a cluster job reads
     * the streams of a trace in parallel; within a trace, the merge by time interleaves them without
     * changing any stream's own order). The stream's warnings go to {@code warnings}.
     */
    public EventCursor streamCursor(int stream, AddressTable addresses, List<String> warnings) throws IOException {
        return new CtfEventCursor(this, warnings, addresses, stream);
    }

    /** Called by a cursor at the end of its pass: the same bookkeeping as {@link #stream}. */
    void passEnded(CtfNetworkEvents.Summary summary, List<CtfStreamReader> readers) {
        List<StreamStats> stats = new ArrayList<>();
        for (CtfStreamReader r : readers) {
            stats.add(new StreamStats(r.file(), r.streamClassId(), r.eventCount(), r.backwardsCount(),
                    r.discardedEvents()));
        }
        lastStats = List.copyOf(stats);
        netSummary = summary;
        String w = summary.noEventsWarning();
        if (w != null) {
            warnings.add(dir + ": " + w);
        }
    }

    @Override
    public void stream(NetEventSink sink) throws IOException {
        CtfNetworkEvents net = new CtfNetworkEvents(sink);
        read(net);
        netSummary = net.summary();
        String w = netSummary.noEventsWarning();
        if (w != null) {
            warnings.add(dir + ": " + w);
        }
        if (node == null) {
            node = new NodeInfo(nodeName(), dir.toString(), netSummary.addresses());
        }
    }
}
