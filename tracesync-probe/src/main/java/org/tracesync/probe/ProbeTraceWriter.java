package org.tracesync.probe;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Writes one process's probe records as a CTF 1.8 trace (babeltrace2 reads it; ProbeTraceTest
 * checks every record through it): a {@code metadata} file, one stream file per thread
 * ({@code thread_N}) and a {@code process} stream for the epoch-offset samples and the event names. The clock is
 * {@code monotonic} at 1 GHz (raw {@code System.nanoTime()} values) with the epoch offset sampled at
 * start as its {@code offset_s}/{@code offset}; later samples are {@code clock_offset} events.
 * The environment names the machine ({@code hostname}), the process ({@code vpid},
 * {@code procname}) and the tracer ({@code tracer_name = "tracesync-probe"}).
 *
 * <p>Layout (little-endian): packet header {magic, uuid, stream_id}, packet context
 * {timestamp_begin, timestamp_end, content_size, packet_size, packet_seq_num, events_discarded,
 * thread_id}, packets exactly as long as their content; event header {uint64 timestamp, uint16 id};
 * every field byte-aligned (TSDL alignments are in bits), so records are packed: 18–26 bytes. Called by the background writer thread only.
 */
final class ProbeTraceWriter implements Closeable {

    static final int ID_START = 0;
    static final int ID_STOP = 1;
    static final int ID_STEP = 2;
    static final int ID_SEND = 3;
    static final int ID_RECEIVE = 4;
    static final int ID_EVENT_NAME = 5;
    static final int ID_CLOCK_OFFSET = 6;
    private static final int PACKET_MAGIC = 0xC1FC1FC1;
    private static final int HEADER_AND_CONTEXT = 24 + 7 * 8;
    private static final int PACKET_BYTES = 1 << 16;

    private final Path dir;
    private final UUID uuid = UUID.randomUUID();
    private final Map<Long, Stream> streams = new HashMap<>();
    private final Stream process;

    /** One stream file, one packet buffer. */
    final class Stream {
        final OutputStream out;
        final long threadId;
        final ByteBuffer packet = ByteBuffer.allocate(PACKET_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        long seq;
        long first;
        long last;
        long discarded;
        /** The events_discarded of the last packet written: a larger count is written even without events. */
        long discardedWritten;
        int events;

        Stream(String file, long threadId) throws IOException {
            this.out = Files.newOutputStream(dir.resolve(file));
            this.threadId = threadId;
            packet.position(HEADER_AND_CONTEXT);
        }

        /** Makes room for an event of at most {@code bytes}, flushing the packet if needed. */
        void begin(long t, int bytes) throws IOException {
            if (packet.position() + bytes + 8 > PACKET_BYTES) {
                flush();
            }
            if (events == 0) {
                first = t;
            }
            last = t;
            events++;
        }

        void flush() throws IOException {
            if (events == 0) {
                if (discarded == discardedWritten) {
                    return;
                }
                first = last; // a packet of losses only: it begins and ends where the last one ended
            }
            int content = packet.position();
            packet.putInt(0, PACKET_MAGIC);
            packet.order(ByteOrder.BIG_ENDIAN);
            packet.putLong(4, uuid.getMostSignificantBits()).putLong(12, uuid.getLeastSignificantBits());
            packet.order(ByteOrder.LITTLE_ENDIAN);
            packet.putInt(20, 0);
            packet.putLong(24, first);
            packet.putLong(32, last);
            packet.putLong(40, content * 8L);
            packet.putLong(48, content * 8L);
            packet.putLong(56, seq++);
            packet.putLong(64, discarded);
            discardedWritten = discarded;
            packet.putLong(72, threadId);
            out.write(packet.array(), 0, content);
            out.flush();
            packet.clear();
            packet.position(HEADER_AND_CONTEXT);
            events = 0;
        }
    }

    /**
     * Creates {@code dir} (which must not exist or be empty) with its metadata.
     *
     * @param initial the epoch offset sampled at start: the clock's offset in the metadata
     */
    ProbeTraceWriter(Path dir, String node, long pid, String procname, EpochOffset initial) throws IOException {
        this.dir = dir;
        Files.createDirectories(dir);
        if (Files.exists(dir.resolve("metadata"))) {
            throw new IOException(dir + " already holds a trace");
        }
        Files.writeString(dir.resolve("metadata"), metadata(node, pid, procname, initial.offset()), StandardCharsets.UTF_8);
        this.process = new Stream("process", 0);
    }

    void clockOffset(EpochOffset sample) throws IOException {
        Stream s = process;
        s.begin(sample.monotonic(), 32);
        header(s.packet, sample.monotonic(), ID_CLOCK_OFFSET);
        s.packet.putLong(sample.offset());
        s.packet.putLong(sample.uncertainty());
    }

    void eventName(long t, int id, String name) throws IOException {
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        Stream s = process;
        s.begin(t, 24 + bytes.length + 1);
        header(s.packet, t, ID_EVENT_NAME);
        s.packet.putInt(id);
        s.packet.put(bytes);
        s.packet.put((byte) 0);
    }

    /** The stream of thread {@code threadId} (created on first use); {@code discarded}: its lost count so far. */
    Stream stream(long threadId, long discarded) throws IOException {
        Stream s = streams.get(threadId);
        if (s == null) {
            s = new Stream("thread_" + threadId, threadId);
            streams.put(threadId, s);
        }
        s.discarded = discarded;
        return s;
    }

    /** One record (see {@link Probe}: t, kind&lt;&lt;32 | event, seq, arg) at {@code r[i..i+3]}. */
    void record(Stream s, long[] r, int i) throws IOException {
        long t = r[i];
        int kind = (int) (r[i + 1] >>> 32);
        int event = (int) r[i + 1];
        s.begin(t, 32);
        ByteBuffer p = s.packet;
        header(p, t, kind);
        switch (kind) {
            case ID_START, ID_STOP -> {
                p.putLong(r[i + 2]);
                p.putInt(event);
            }
            case ID_STEP -> {
                p.putLong(r[i + 2]);
                p.putInt(event);
                p.putInt((int) r[i + 3]);
            }
            case ID_SEND, ID_RECEIVE -> p.putLong(r[i + 3]);
            default -> throw new IllegalStateException("unknown record kind " + kind);
        }
    }

    /** Writes every open packet (content so far) to its file. */
    void flush() throws IOException {
        process.flush();
        for (Stream s : streams.values()) {
            s.flush();
        }
    }

    /** Closes the stream file of a thread that ended (after its last records were written). */
    void endThread(long threadId) throws IOException {
        Stream s = streams.remove(threadId);
        if (s != null) {
            s.flush();
            s.out.close();
        }
    }

    @Override
    public void close() throws IOException {
        flush();
        process.out.close();
        for (Stream s : streams.values()) {
            s.out.close();
        }
        streams.clear();
    }

    private static void header(ByteBuffer p, long t, int id) {
        p.putLong(t);
        p.putShort((short) id);
    }

    private String metadata(String node, long pid, String procname, long offset) {
        long offS = Math.floorDiv(offset, 1_000_000_000L);
        long offC = Math.floorMod(offset, 1_000_000_000L);
        return "/* CTF 1.8 */\n\n"
                + "typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
                + "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
                + "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
                + "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
                + "typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n"
                + "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"" + uuid + "\";\n\tbyte_order = le;\n"
                + "\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t  uuid[16];\n\t\tuint32_t stream_id;\n\t};\n};\n\n"
                + "env {\n\thostname = \"" + escape(node) + "\";\n\tdomain = \"ust\";\n"
                + "\ttracer_name = \"tracesync-probe\";\n\ttracer_major = 1;\n\ttracer_minor = 0;\n"
                + "\tvpid = " + pid + ";\n\tprocname = \"" + escape(procname) + "\";\n};\n\n"
                + "clock {\n\tname = \"monotonic\";\n\tuuid = \"" + UUID.nameUUIDFromBytes(uuid.toString().getBytes(StandardCharsets.UTF_8)) + "\";\n"
                + "\tdescription = \"CLOCK_MONOTONIC (System.nanoTime)\";\n\tfreq = 1000000000;\n\tprecision = 0;\n"
                + "\toffset_s = " + offS + ";\n\toffset = " + offC + ";\n\tabsolute = FALSE;\n};\n\n"
                + "typealias integer {\n\tsize = 64; align = 8; signed = false;\n\tmap = clock.monotonic.value;\n} := uint64_clock_monotonic_t;\n\n"
                + "struct packet_context {\n\tuint64_clock_monotonic_t timestamp_begin;\n\tuint64_clock_monotonic_t timestamp_end;\n"
                + "\tuint64_t content_size;\n\tuint64_t packet_size;\n\tuint64_t packet_seq_num;\n"
                + "\tuint64_t events_discarded;\n\tuint64_t thread_id;\n};\n\n"
                + "struct event_header {\n\tuint64_clock_monotonic_t timestamp;\n\tuint16_t id;\n} align(8);\n\n"
                + "stream {\n\tid = 0;\n\tevent.header := struct event_header;\n\tpacket.context := struct packet_context;\n};\n\n"
                + event("simple_start", ID_START, "uint64_t _seq;\n\t\tuint32_t _event_id;")
                + event("simple_stop", ID_STOP, "uint64_t _seq;\n\t\tuint32_t _event_id;")
                + event("step", ID_STEP, "uint64_t _seq;\n\t\tuint32_t _event_id;\n\t\tuint32_t _step;")
                + event("msg_send", ID_SEND, "uint64_t _msg;")
                + event("msg_recv", ID_RECEIVE, "uint64_t _msg;")
                + event("event_name", ID_EVENT_NAME, "uint32_t _event_id;\n\t\tstring _name;")
                + event("clock_offset", ID_CLOCK_OFFSET, "int64_t _realtime_minus_monotonic;\n\t\tuint64_t _uncertainty;");
    }

    private static String event(String name, int id, String fields) {
        return "event {\n\tname = \"" + name + "\";\n\tid = " + id + ";\n\tstream_id = 0;\n"
                + "\tfields := struct {\n\t\t" + fields + "\n\t};\n};\n\n";
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
