package org.tracesync.spark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.ctf.CtfTrace;
import org.tracesync.formats.jsonl.JsonLinesReader;
import scala.Tuple2;

/**
 * The decoding task of a CTF stream file or a part of a JSON-lines log. CTF: the one-machine
 * reader's cursor over that one stream ({@code CtfTrace.streamCursor}), each network event packed by
 * {@link EventBlock} exactly as the one-machine pipeline packs it (segments with or without
 * addresses, unicast datagrams); the merge order is the stream's running maximum of (coarsely
 * corrected) time, the offset (stream, index) — the one-machine merge of a trace's streams by time
 * is the order of those keys. JSON lines: the part's lines ({@link JsonLinesPart}) parsed and
 * checked by the one-machine parser, message ids packed by {@link EventBlock#addMessageId}; the
 * merge order starts from the part's carry, the offset is the line's byte offset. Rows are
 * {@link SegmentEvent}s, yielded lazily.
 *
 * <p>Addresses: the task's {@link AddressTable} holds the traced hosts' addresses, numbered as in
 * every other task, then {@code seed} (addresses other tasks named, when the driver had to number
 * them), then whatever this trace names besides; the latter go to the driver in the
 * {@link TraceReport}, which checks that no two tasks numbered one address differently.
 *
 * <p>Cost: the reader's, plus O(1) per event; one small object per event.
 */
final class TraceDecoder implements Iterator<Tuple2<SegmentEvent, Object>> {

    private final TraceSpec spec;
    /** A CTF stream's cursor, or null for a JSON-lines part. */
    private final EventCursor cursor;
    /** A JSON-lines part, or null. */
    private final JsonLinesPart lines;
    private final Path name;
    private long lineNumber;
    private final List<String> warnings = new ArrayList<>();
    /** Stop after this many events (the coarse-offset sample), else Long.MAX_VALUE. */
    private final long limit;
    /** A CTF stream reader's own notes, filled while reading. */
    private List<String> streamWarnings = List.of();
    private final AddressTable table;
    private final int firstForeign;
    private final Consumer<TraceReport> reports;
    private final EventBlock block = new EventBlock(1);
    private SegmentEvent next;
    private boolean done;
    private long order = Long.MIN_VALUE;
    private long last = Long.MIN_VALUE;
    private long firstTime = Long.MIN_VALUE;
    private long maxTime = Long.MIN_VALUE;
    private long events;
    private long keyEvents;
    private long otherEvents;
    private long backward;

    private TraceDecoder(TraceSpec spec, EventCursor cursor, JsonLinesPart lines, AddressTable table, int firstForeign,
                         Consumer<TraceReport> reports, long limit) {
        this.limit = limit;
        this.spec = spec;
        this.cursor = cursor;
        this.lines = lines;
        this.name = Path.of(spec.name());
        this.lineNumber = spec.firstLine() - 1;
        this.order = spec.carry();
        this.table = table;
        this.firstForeign = firstForeign;
        this.reports = reports;
    }

    /** The traced hosts' addresses (per node, in node order), then the seed (hi, lo pairs). */
    static AddressTable table(List<List<String>> nodeAddresses, long[] seed) {
        AddressTable t = new AddressTable();
        for (int i = 0; i < nodeAddresses.size(); i++) {
            for (String a : nodeAddresses.get(i)) {
                t.add(a, i);
            }
        }
        for (int i = 0; i + 1 < seed.length; i += 2) {
            t.add(seed[i], seed[i + 1], -1);
        }
        return t;
    }

    /** The whole trace, opened with its one-machine reader (the driver learns the node from it). */
    static EventTrace openTrace(int kind, Path local) throws IOException {
        return kind == TraceSpec.CTF ? CtfTrace.open(local) : new JsonLinesReader(local);
    }

    static Iterator<Tuple2<SegmentEvent, Object>> open(TraceSpec spec, List<List<String>> nodeAddresses, long[] seed,
                                                      Map<String, String> hadoopConf, Consumer<TraceReport> reports) {
        return open(spec, nodeAddresses, seed, hadoopConf, reports, Long.MAX_VALUE);
    }

    /**
     * As above, stopping after {@code limit} events (the coarse-offset sample); a CTF spec of stream
     * -1 reads the whole trace, its streams merged by time (the one-machine reader's order).
     */
    static Iterator<Tuple2<SegmentEvent, Object>> open(TraceSpec spec, List<List<String>> nodeAddresses, long[] seed,
                                                      Map<String, String> hadoopConf, Consumer<TraceReport> reports,
                                                      long limit) {
        AddressTable table = table(nodeAddresses, seed);
        int traced = table(nodeAddresses, new long[0]).size();
        try {
            if (spec.kind() == TraceSpec.CTF) {
                List<String> warnings = new ArrayList<>();
                CtfTrace trace = CtfTrace.open(Path.of(spec.local()));
                EventCursor c = spec.stream() < 0 ? trace.cursor(spec.file(), table)
                        : trace.streamCursor(spec.stream(), table, warnings);
                TraceDecoder d = new TraceDecoder(spec, c, null, table, traced, reports, limit);
                d.streamWarnings = warnings; // what the stream reader finds (truncated packets, ...)
                return d;
            }
            Configuration conf = new Configuration(false);
            hadoopConf.forEach(conf::set);
            JsonLinesPart part = new JsonLinesPart(spec.uri(), Path.of(spec.name()), spec.start(), spec.end(), conf);
            return new TraceDecoder(spec, null, part, table, traced, reports, limit);
        } catch (IOException e) {
            throw new CaptureInputError(message(e));
        }
    }

    static String message(IOException e) {
        return e instanceof java.nio.file.NoSuchFileException n ? n.getFile() + ": no such file"
                : e.getMessage();
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (done) {
            return false;
        }
        try {
            next = advance();
        } catch (IOException e) {
            done = true;
            closeQuietly();
            throw new CaptureInputError(message(e));
        }
        return next != null;
    }

    @Override
    public Tuple2<SegmentEvent, Object> next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        SegmentEvent e = next;
        next = null;
        return new Tuple2<>(e, null);
    }

    private SegmentEvent advance() throws IOException {
        if (lines != null) {
            return nextLine();
        }
        while (events < limit && cursor.advance()) {
            long t = cursor.time();
            if (events == 0) {
                firstTime = t;
            } else if (t < last) {
                backward++;
            }
            last = t;
            maxTime = Math.max(maxTime, t);
            long index = events++;
            long time = t - spec.offset();
            order = Math.max(order, time);
            block.clear();
            int kind = cursor.emit(block, spec.file(), time);
            if (kind == EventCursor.OTHER || block.size() == 0) {
                otherEvents++;
                continue;
            }
            SegmentEvent e = new SegmentEvent(spec.file(), block.isSend(0), block.time(0), order,
                    (long) Math.max(0, spec.stream()) << 40 | index, block.keyA(0), block.keyB(0), block.keyC(0));
            e.datagram = block.isDatagram(0);
            keyEvents++;
            return e;
        }
        warnings.addAll(cursor.warnings());
        synchronized (streamWarnings) {
            warnings.addAll(streamWarnings);
        }
        cursor.close();
        return end();
    }

    /** The next event of a JSON-lines part: parsed and checked as the one-machine reader does. */
    private SegmentEvent nextLine() throws IOException {
        String line;
        while (events < limit && (line = lines.next()) != null) {
            lineNumber++;
            if (lineNumber == 1 && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            if (line.isBlank()) {
                continue;
            }
            JsonLinesReader.LineEvent l = JsonLinesReader.parseLine(name, line, lineNumber, spec.node());
            if (events == 0) {
                firstTime = l.t();
            } else if (l.t() < last) {
                backward++;
            }
            last = l.t();
            maxTime = Math.max(maxTime, l.t());
            events++;
            keyEvents++;
            long time = l.t() - spec.offset();
            order = Math.max(order, time);
            block.clear();
            block.addMessageId(spec.file(), l.send(), time, l.msg());
            return new SegmentEvent(spec.file(), l.send(), time, order, lines.lineStart(), block.keyA(0),
                    block.keyB(0), block.keyC(0));
        }
        lines.close();
        return end();
    }

    private SegmentEvent end() {
        done = true;
        int n = table.size() - firstForeign;
        long[] foreign = new long[Math.max(0, n) * 2];
        for (int i = 0; i < n; i++) {
            foreign[2 * i] = table.hiOf(firstForeign + i);
            foreign[2 * i + 1] = table.loOf(firstForeign + i);
        }
        reports.accept(new TraceReport(spec.file(), spec.stream(), spec.part(), events, keyEvents, otherEvents, backward,
                firstTime, last, maxTime, firstForeign, foreign, List.copyOf(warnings)));
        return null;
    }

    private void closeQuietly() {
        try {
            if (cursor != null) {
                cursor.close();
            } else {
                lines.close();
            }
        } catch (IOException ignored) {
            // the read error is the one reported
        }
    }
}
