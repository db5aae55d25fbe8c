package org.tracesync.formats.ctf;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfFieldRef.Scope;
import org.tracesync.formats.ctf.CtfMetadata.ClockClass;
import org.tracesync.formats.ctf.CtfMetadata.EventClass;
import org.tracesync.formats.ctf.CtfMetadata.StreamClass;
import org.tracesync.formats.ctf.CtfType.EnumType;
import org.tracesync.formats.ctf.CtfType.FloatType;
import org.tracesync.formats.ctf.CtfType.IntegerType;
import org.tracesync.formats.ctf.CtfType.StringType;

/**
 * Reads the events of one CTF stream file, packet after packet in file order, and exposes the
 * current event as a {@link CtfEvent} flyweight.
 *
 * <p>Memory: the file is memory-mapped (whole when under 1 GiB, else in windows that each hold
 * whole packets), and the events are decoded from a heap copy of the current packet's content, made
 * {@value #CHUNK} bytes at a time ({@link #load}): a heap array read through byte-array views costs
 * a bounds check per field, where the mapped buffer's reads cost a scope check, an index check and
 * a byte-order conversion each. The copy holds at least one whole event; a larger event grows it to
 * twice what that event needed (bounded by the packet), so memory per stream is {@value #CHUNK} bytes
 * plus the largest event, whatever the packet size. Decoded values go to one preallocated
 * {@code long[]} slot array, so reading or skipping an event allocates nothing. Cost: linear in
 * the stream size, plus one copy of the content; one instruction of a {@link DecodeProgram} per
 * field read, run by {@link #run} (a reader that wants some fields only runs programs of the
 * pruned decoder trees, see {@link #readOnly}, whose runs step over the fields it does not want);
 * a program that has run {@value #COMPILE_AFTER} times runs as bytecode generated for it
 * ({@link CompiledDecodeProgram}: no dispatch), the interpreter decoding whatever it gives up on.
 *
 * <p>Exactness of the copy: positions are relative to the copy's first byte, which lies a multiple
 * of {@link #quantum} bytes (4 KiB, or a multiple of it that every alignment of the metadata divides)
 * after the packet's start, so alignments fall where they fall in the packet. A read that does not
 * fit in the copy checks against the copy's end, not the content's: when the copy stops before the
 * content's end, the failure is not an error but {@link Refill}: the event is decoded again from
 * its start after a larger copy (the clock and event id as before it), so values, positions and
 * error messages are those of decoding the packet in place.
 *
 * <p>Clock values are reconstructed as babeltrace2 does: an n-bit timestamp updates the low n bits
 * of the current clock value and, when the new low bits are smaller than the old ones, carries one
 * wrap (2ⁿ); a packet's {@code timestamp_begin} resets the clock.
 */
final class CtfStreamReader implements CtfEvent {

    static final long MAX_WINDOW = 1L << 30;
    /** Bytes copied to the heap at a time (a whole packet when it is no larger). */
    static final int CHUNK = 1 << 16;
    /** Bytes of an event's start that a copy must hold, else the copy moves there first (larger events restart, see {@link Refill}). */
    private static final int MARGIN = 1 << 11;
    /** Bytes past the content a read may load (never as values): one 8-byte load holds any field of at most 57 bits. */
    private static final int PAD = 8;
    static final VarHandle SHORT_LE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle SHORT_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    static final long PACKET_MAGIC = 0xC1FC1FC1L;
    private static final int MAX_WARNINGS_PER_KIND = 5;

    private final Path file;
    private final int index;
    private final FileChannel channel;
    private final long fileSize;
    private final List<String> warnings;

    private MappedByteBuffer window;
    private long windowStart;
    private long windowBytes;

    /** The heap copy: {@code bufBytes} bytes of the file from {@code bufStart}, then {@link #PAD} bytes. */
    private byte[] buf;
    private final int chunk;
    private final int margin;
    private long bufStart;
    private int bufBytes;
    /** File offset (bytes) where the current packet's content ends, rounded up: copies stop there. */
    private long contentEndByte;
    /** The copy stops before the content's end: a read past {@link #limit} asks for a larger copy. */
    private boolean partial;
    /** Copies start a multiple of this many bytes after the packet's start (of every alignment; Long.MAX_VALUE: at its start). */
    private final long quantum;

    /** Bit positions relative to {@code buf[0]}: the next field, and the end of what may be read (content or copy). */
    private long pos;
    private long limit;
    private long packetStart = -1;
    private long packetBits;
    private boolean truncated;
    private boolean finished;

    private final long[] slots;
    private final FieldDecoder packetHeader;
    private final FieldDecoder packetContext;
    private final FieldDecoder eventHeader;
    private final FieldDecoder streamEventContext;
    private final DecodeProgram packetHeaderProgram;
    private final DecodeProgram packetContextProgram;
    private final DecodeProgram eventHeaderProgram;
    /** Decode with the decoder trees instead of their programs: the reference in tests. */
    private boolean byTrees;
    private final CtfEventClass[] byId;
    private final Map<Long, CtfEventClass> byIdSparse;
    private final CtfFieldRef magicRef;
    private final CtfFieldRef streamIdRef;
    private final CtfFieldRef contentSizeRef;
    private final CtfFieldRef packetSizeRef;
    private final CtfFieldRef uuidRef;
    private final CtfFieldRef beginRef;
    private final CtfFieldRef discardedRef;
    private long discarded;
    private int discardWarnings;
    private final CtfFieldRef endRef;
    private long previousPacketEnd = Long.MIN_VALUE;
    private long overlaps;
    private final byte[] traceUuid;
    private final long streamClassId;
    private final boolean hasEventId;
    private final CtfClockConversion clockConversion;

    private long clock;
    private long eventId;
    private CtfEventClass current;
    private long currentOffset;
    private long currentTimestamp;
    private long currentCycles;
    private long lastTimestamp = Long.MIN_VALUE;
    private long backwards;
    private long events;
    private int uuidWarnings;

    CtfStreamReader(Path file, int index, CtfMetadata meta, List<String> warnings) throws IOException {
        this(file, index, meta, warnings, CHUNK);
    }

    /** A reader whose heap copies hold {@code chunk} bytes at a time (tests use small ones to make events cross them). */
    CtfStreamReader(Path file, int index, CtfMetadata meta, List<String> warnings, int chunk) throws IOException {
        this.chunk = Math.max(1, chunk);
        this.margin = Math.min(MARGIN, Math.max(1, chunk / 4));
        this.buf = new byte[this.chunk + PAD];
        this.file = file;
        this.index = index;
        this.warnings = warnings;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.fileSize = channel.size();
        boolean big = meta.trace().bigEndian();
        DecoderCompiler c = new DecoderCompiler(file, big);
        packetHeader = c.compileScope(meta.trace().packetHeader(), Scope.PACKET_HEADER);
        Map<String, CtfFieldRef> hdr = c.fields(Scope.PACKET_HEADER);
        magicRef = hdr.get("magic");
        streamIdRef = hdr.get("stream_id");
        uuidRef = hdr.get("uuid");
        traceUuid = parseUuid(meta.trace().uuid());
        // The stream class is the one named by the first packet's header (or the only one).
        long sid;
        if (meta.streams().size() == 1 && streamIdRef == null) {
            sid = meta.streams().keySet().iterator().next();
        } else if (streamIdRef != null && fileSize > 0) {
            long[] tmp = new long[c.slotCount()];
            packetStart = 0;
            contentEndByte = fileSize;
            load(0, Math.min(fileSize, 4096));
            pos = 0;
            decodePacketScope(packetHeader, null, tmp);
            sid = tmp[streamIdRef.slot()];
            packetStart = -1;
        } else {
            sid = meta.streams().isEmpty() ? 0 : meta.streams().keySet().iterator().next();
        }
        StreamClass sc = meta.streams().get(sid);
        if (sc == null && meta.streams().isEmpty()) {
            sc = new StreamClass(0, null, null, null);
        }
        if (sc == null) {
            throw TraceFormatException.atOffset(file, 0, "packet header names stream class " + sid
                    + ", which the metadata does not declare");
        }
        streamClassId = sid;
        packetContext = c.compileScope(sc.packetContext(), Scope.PACKET_CONTEXT);
        Map<String, CtfFieldRef> ctx = c.fields(Scope.PACKET_CONTEXT);
        contentSizeRef = ctx.get("content_size");
        packetSizeRef = ctx.get("packet_size");
        beginRef = ctx.get("timestamp_begin");
        discardedRef = ctx.get("events_discarded");
        endRef = ctx.get("timestamp_end");
        eventHeader = c.compileScope(sc.eventHeader(), Scope.EVENT_HEADER);
        hasEventId = c.fields(Scope.EVENT_HEADER).keySet().stream().anyMatch(p -> p.equals("id") || p.endsWith(".id"));
        String clockName = null;
        for (CtfFieldRef r : c.fields(Scope.EVENT_HEADER).values()) {
            if (r.type() instanceof IntegerType it && it.clock() != null) {
                clockName = it.clock();
            }
        }
        ClockClass clk = clockName != null ? meta.clock(clockName) : meta.clocks().isEmpty() ? null : meta.clocks().get(0);
        clockConversion = CtfClockConversion.of(clk);
        streamEventContext = c.compileScope(sc.eventContext(), Scope.STREAM_EVENT_CONTEXT);
        packetHeaderProgram = DecodeProgram.of(packetHeader);
        packetContextProgram = DecodeProgram.of(packetContext);
        eventHeaderProgram = DecodeProgram.of(eventHeader);
        int maxSlots = c.slotCount();
        long maxId = -1;
        Map<Long, CtfEventClass> compiled = new HashMap<>();
        for (EventClass ec : meta.events()) {
            if (ec.streamId() != sid && !(meta.streams().size() <= 1)) {
                continue;
            }
            DecoderCompiler ecc = c.fork();
            FieldDecoder ectx = ecc.compileScope(ec.context(), Scope.EVENT_CONTEXT);
            FieldDecoder ef = ecc.compileScope(ec.fields(), Scope.EVENT_FIELDS);
            maxSlots = Math.max(maxSlots, ecc.slotCount());
            compiled.put(ec.id(), new CtfEventClass(ec, streamEventContext, ectx, ef, ecc));
            maxId = Math.max(maxId, ec.id());
        }
        slots = new long[Math.max(1, maxSlots)];
        long bits = FieldDecoder.alignmentMultiple(4096 * 8, packetHeader, packetContext, eventHeader, streamEventContext);
        for (CtfEventClass ec : compiled.values()) {
            bits = FieldDecoder.alignmentMultiple(bits, ec.context, ec.fields);
        }
        quantum = bits == Long.MAX_VALUE ? Long.MAX_VALUE : bits / 8;
        if (maxId < (1 << 20)) {
            byId = new CtfEventClass[(int) maxId + 1];
            compiled.forEach((id, ec) -> {
                if (id >= 0) {
                    byId[(int) (long) id] = ec;
                }
            });
            byIdSparse = null;
        } else {
            byId = null;
            byIdSparse = compiled;
        }
    }

    private static byte[] parseUuid(String uuid) {
        if (uuid == null) {
            return null;
        }
        String hex = uuid.replace("-", "");
        if (hex.length() != 32) {
            return null;
        }
        byte[] b = new byte[16];
        try {
            for (int i = 0; i < 16; i++) {
                b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return b;
    }

    Path file() {
        return file;
    }

    /**
     * Reads of each event class only the context and payload fields whose slots {@code wanted}
     * gives for it (see {@link CtfEventClass#readOnly}); call before the first {@link #advance}.
     */
    void readOnly(java.util.function.Function<CtfEventClass, java.util.BitSet> wanted) {
        for (CtfEventClass ec : byId != null ? java.util.Arrays.asList(byId) : byIdSparse.values()) {
            if (ec != null) {
                ec.readOnly(wanted.apply(ec));
            }
        }
    }

    /** From now on, decodes with the decoder trees, field by field: the reference the programs are tested against. */
    void decodeByTrees() {
        byTrees = true;
    }

    private void decode(FieldDecoder tree, DecodeProgram program) throws TraceFormatException {
        if (byTrees) {
            tree.decode(this, slots);
        } else {
            run(program, slots);
        }
    }

    /** The event header's program (tests look at whether it was compiled). */
    DecodeProgram eventHeaderProgram() {
        return eventHeaderProgram;
    }

    /** The stream's event classes, for tests. */
    java.util.Collection<CtfEventClass> eventClasses() {
        return byId != null ? java.util.Arrays.stream(byId).filter(java.util.Objects::nonNull).toList() : byIdSparse.values();
    }

    /** The decoded values of the current event (and stale ones of fields it did not have), for tests. */
    long[] slots() {
        return slots;
    }

    long streamClassId() {
        return streamClassId;
    }

    long eventCount() {
        return events;
    }

    /** Events the tracer reported as discarded (the last packet's running count). */
    long discardedEvents() {
        return discarded;
    }

    /** Events whose timestamp is before the previous event's, plus packets beginning before the previous one ended. */
    long backwardsCount() {
        return backwards + overlaps;
    }

    void close() throws IOException {
        channel.close();
        window = null;
        buf = null;
    }

    // ------------------------------------------------------------------ mapping

    private void map(long offset) throws IOException {
        long size = Math.min(fileSize - offset, MAX_WINDOW);
        if (fileSize <= MAX_WINDOW) {
            offset = 0;
            size = fileSize;
        }
        if (window != null && offset == windowStart && size == windowBytes) {
            return;
        }
        window = channel.map(FileChannel.MapMode.READ_ONLY, offset, size);
        windowStart = offset;
        windowBytes = size;
    }

    private void ensureWindow(long offset, long bytes) throws IOException {
        if (window == null || offset < windowStart || offset + bytes > windowStart + windowBytes) {
            if (bytes > MAX_WINDOW) {
                throw TraceFormatException.atOffset(file, offset, "packet larger than 1 GiB");
            }
            map(offset);
        }
    }

    /**
     * Copies {@code bytes} bytes of the file from {@code offset} (inside the current packet, or the
     * packet's start) to the heap buffer, which then starts there; {@link #limit} becomes the end of
     * the copy or of the content, whichever is first. Positions held before are the caller's to move.
     */
    private void load(long offset, long bytes) throws IOException {
        ensureWindow(offset, bytes);
        if (bytes + PAD > buf.length) {
            buf = new byte[(int) bytes + PAD];
        }
        window.get((int) (offset - windowStart), buf, 0, (int) bytes);
        bufStart = offset;
        bufBytes = (int) bytes;
        partial = offset + bytes < contentEndByte;
        limit = partial ? bytes * 8 : Math.min(bytes * 8, (contentEndByte - offset) * 8 - contentTailBits);
    }

    /** Bits of the last content byte past the content's end (content sizes need not be whole bytes). */
    private long contentTailBits;

    /**
     * Moves the copy to start at or before bit {@code p} (relative to the copy) with at least
     * {@code bytes} bytes from there (fewer at the content's end); returns {@code p} relative to the
     * new copy.
     */
    private long moveCopy(long p, long bytes) throws IOException {
        long at = bufStart + (p >>> 3);
        long from = packetStart + (at - packetStart) / quantum * quantum;
        long n = Math.min(contentEndByte - from, Math.max(chunk, at - from + bytes));
        long shift = (from - bufStart) * 8;
        load(from, n);
        return p - shift;
    }

    /**
     * Thrown instead of an error while the copy stops before the content's end (one instance, no
     * stack trace): the event, or packet scope, is decoded again from its start after a larger copy.
     */
    private static final class Refill extends RuntimeException {
        private static final long serialVersionUID = 1L;
        static final Refill INSTANCE = new Refill();

        private Refill() {
            super("the heap copy ends before the content", null, false, false);
        }
    }

    /**
     * Decodes a packet header or context (the copy starts at the packet's start), with a larger copy
     * whenever it does not fit in the present one.
     */
    private void decodePacketScope(FieldDecoder tree, DecodeProgram program, long[] into) throws IOException {
        long start = pos;
        while (true) {
            try {
                if (program == null) {
                    tree.decode(this, into);
                } else {
                    decode(tree, program);
                }
                return;
            } catch (Refill r) {
                pos = start;
                load(packetStart, Math.min(contentEndByte - packetStart, 2L * bufBytes));
            }
        }
    }

    // ------------------------------------------------------------------ packets

    private boolean openPacket(long offset) throws IOException {
        if (offset >= fileSize) {
            return false;
        }
        // header and context from a small copy of the packet's start (until the sizes are known, the content is the file)
        packetStart = offset;
        contentEndByte = fileSize;
        contentTailBits = 0;
        load(offset, Math.min(fileSize - offset, 512));
        pos = 0;
        if (packetHeader != null) {
            decodePacketScope(packetHeader, packetHeaderProgram, slots);
            if (magicRef != null && slots[magicRef.slot()] != PACKET_MAGIC) {
                throw TraceFormatException.atOffset(file, offset, String.format(
                        "bad packet magic 0x%08x (expected 0x%08x)", slots[magicRef.slot()], PACKET_MAGIC));
            }
            if (streamIdRef != null && slots[streamIdRef.slot()] != streamClassId) {
                throw TraceFormatException.atOffset(file, offset, "packet of stream class " + slots[streamIdRef.slot()]
                        + " in a stream of class " + streamClassId);
            }
            if (uuidRef != null && traceUuid != null && uuidWarnings == 0) {
                int p = (int) ((slots[uuidRef.slot()] - positionBase()) >>> 3);
                for (int i = 0; i < 16; i++) {
                    if (buf[p + i] != traceUuid[i]) {
                        uuidWarnings++;
                        warn(offset, "packet UUID differs from the metadata's trace UUID");
                        break;
                    }
                }
            }
        }
        if (packetContext != null) {
            decodePacketScope(packetContext, packetContextProgram, slots);
            if (discardedRef != null) {
                // a running count in LTTng: it grows when the ring buffer was full (lost events = lost messages)
                long d = slots[discardedRef.slot()];
                if (Long.compareUnsigned(d, discarded) > 0) {
                    if (discardWarnings++ < MAX_WARNINGS_PER_KIND) {
                        warn(offset, "the tracer discarded " + Long.toUnsignedString(d - discarded)
                                + " events before this packet (buffers full)");
                    }
                    discarded = d;
                }
            }
            if (beginRef != null && endRef != null) {
                long begin = nanos(slots[beginRef.slot()], offset);
                if (begin < previousPacketEnd && overlaps++ < MAX_WARNINGS_PER_KIND) {
                    warn(offset, "timestamp goes backwards: packet begins at " + begin + " ns, "
                            + (previousPacketEnd - begin) + " ns before the previous packet's end");
                }
                previousPacketEnd = nanos(slots[endRef.slot()], offset);
            }
        }
        long avail = (fileSize - offset) * 8;
        long psize = packetSizeRef != null ? slots[packetSizeRef.slot()] : avail;
        long csize = contentSizeRef != null ? slots[contentSizeRef.slot()] : psize;
        long headerBits = pos;
        if (psize <= 0 || psize % 8 != 0 || Long.compareUnsigned(csize, psize) > 0 || csize < headerBits) {
            throw TraceFormatException.atOffset(file, offset, "bad packet sizes: content_size " + Long.toUnsignedString(csize)
                    + " bits, packet_size " + Long.toUnsignedString(psize) + " bits, header+context " + headerBits + " bits");
        }
        truncated = false;
        if (psize > avail) {
            truncated = true;
            warn(offset, "truncated packet: packet_size says " + psize / 8 + " bytes, only " + avail / 8
                    + " left in the file; reading the events that are complete");
            psize = avail;
            csize = Math.min(csize, avail);
        }
        packetBits = psize;
        ensureWindow(offset, psize / 8);
        contentEndByte = offset + (csize + 7) / 8;
        contentTailBits = contentEndByte * 8 - (offset * 8 + csize);
        load(offset, Math.min(contentEndByte - offset, Math.max(chunk, bufBytes)));
        return true;
    }

    /** Moves to the next event; false at the end of the stream. */
    boolean advance() throws IOException {
        if (finished) {
            return false;
        }
        while (true) {
            if (packetStart >= 0) {
                if (partial && limit - pos < margin * 8L) {
                    pos = moveCopy(pos, margin);
                }
                if (pos < limit) {
                    break;
                }
            }
            long next = packetStart < 0 ? 0 : packetStart + packetBits / 8;
            if ((packetStart >= 0 && truncated) || !openPacket(next)) {
                finished = true;
                current = null;
                return false;
            }
        }
        long start = pos;
        long clockBefore = clock;
        currentOffset = bufStart + (pos >>> 3);
        try {
            while (true) {
                try {
                    decodeEvent(start);
                    break;
                } catch (Refill r) {
                    // the event goes past the copy: again from its start, with twice what the copy held of it
                    clock = clockBefore;
                    start = moveCopy(start, Math.max(chunk, 2L * (bufBytes - (start >>> 3))));
                    pos = start;
                }
            }
        } catch (TraceFormatException e) {
            if (truncated) {
                warn(currentOffset, "stopped at the end of the truncated packet");
                finished = true;
                current = null;
                return false;
            }
            throw e;
        }
        currentCycles = clock;
        currentTimestamp = nanos(clock, currentOffset);
        if (currentTimestamp < lastTimestamp) {
            if (backwards++ < MAX_WARNINGS_PER_KIND) {
                warn(currentOffset, "timestamp goes backwards by " + (lastTimestamp - currentTimestamp)
                        + " ns inside the stream (event " + current.name() + ")");
            }
        }
        lastTimestamp = currentTimestamp;
        events++;
        return true;
    }

    /** Decodes the event at {@code start} (= {@link #pos}): header, then its class's scopes; sets {@link #current}. */
    private void decodeEvent(long start) throws TraceFormatException {
        {
            eventId = -1;
            if (eventHeader != null) {
                decode(eventHeader, eventHeaderProgram);
            }
            long id = hasEventId ? eventId : 0;
            CtfEventClass ec = byId != null ? (id >= 0 && id < byId.length ? byId[(int) id] : null) : byIdSparse.get(id);
            if (ec == null) {
                throw TraceFormatException.atOffset(file, currentOffset, "unknown event id " + id
                        + " (stream class " + streamClassId + ")");
            }
            if (byTrees) {
                if (streamEventContext != null) {
                    streamEventContext.decode(this, slots);
                }
                if (ec.context != null) {
                    ec.context.decode(this, slots);
                }
                if (ec.fields != null) {
                    ec.fields.decode(this, slots);
                }
            } else {
                run(ec.program, slots);
            }
            if (pos == start) {
                throw TraceFormatException.atOffset(file, currentOffset, "event of size zero");
            }
            current = ec;
        }
    }

    private void warn(long offset, String msg) {
        synchronized (warnings) {
            warnings.add(file + ":offset " + offset + ": " + msg);
        }
    }

    // ------------------------------------------------------------------ primitive reads (FieldDecoder)

    /**
     * The error {@code msg} at the current position; but while the copy stops before the content's
     * end, {@link Refill} is thrown instead (the read may fit in a larger copy).
     */
    TraceFormatException error(String msg) {
        if (partial) {
            throw Refill.INSTANCE;
        }
        return TraceFormatException.atOffset(file, bufStart + (pos >>> 3), msg);
    }

    void align(int bits) {
        if (bits > 1) {
            pos = (pos + bits - 1) & -(long) bits;
        }
    }

    long bitPosition() {
        return pos;
    }

    /**
     * Add to a position in the copy to get the position in the packet, which is what slots hold for
     * strings (bytes) and arrays (bits): a multiple of 8 bits, so that a slot does not depend on
     * where the copy starts.
     */
    long positionBase() {
        return (bufStart - packetStart) << 3;
    }

    long bitsLeft() {
        return Math.max(0, limit - pos);
    }

    int bytePosition() {
        return (int) (pos >>> 3);
    }

    void skipBits(long n) throws TraceFormatException {
        if (n < 0 || n > limit - pos) {
            throw error("field extends past the end of the packet content");
        }
        pos += n;
    }

    void role(int role, long v, int size) {
        switch (role) {
            case FieldDecoder.ROLE_EVENT_ID -> eventId = v;
            case FieldDecoder.ROLE_TIMESTAMP -> {
                if (size >= 64) {
                    clock = v;
                } else {
                    long mask = (1L << size) - 1;
                    long low = clock & mask;
                    long nv = (clock & ~mask) | v;
                    if (v < low) {
                        nv += 1L << size;
                    }
                    clock = nv;
                }
            }
            case FieldDecoder.ROLE_PACKET_BEGIN -> clock = v;
            default -> {
            }
        }
    }

    // ------------------------------------------------------------------ programs (DecodeProgram)

    private static final String PAST_END = "field extends past the end of the packet content";

    private static long up(long p, int align) {
        return (p + align - 1) & -(long) align;
    }

    /**
     * Runs {@code prog} from the current position, as its tree's decoders would (see {@link
     * DecodeProgram}): by its {@link CompiledDecodeProgram} once it has one, else by {@link
     * #interpret}. A program is compiled after it has run {@link #compileAfter} times (never when
     * that is negative). The compiled code decodes only what fits and is well formed; otherwise it
     * gives up (−1) and the interpreter decodes the same bits again from the same position, with
     * the clock and event id restored, so that errors and larger copies ({@link Refill}) are those
     * of the interpreter.
     */
    void run(DecodeProgram prog, long[] slots) throws TraceFormatException {
        CompiledDecodeProgram compiled = prog.compiled;
        if (compiled != null) {
            long clockBefore = clock;
            long idBefore = eventId;
            long p = compiled.run(this, buf, pos, limit, slots, positionBase());
            if (p >= 0) {
                pos = p;
                return;
            }
            clock = clockBefore;
            eventId = idBefore;
        } else if (compileAfter >= 0 && prog.runs++ >= compileAfter) {
            prog.compiled = CompiledDecodeProgram.of(prog);
            prog.runs = Integer.MIN_VALUE; // tried: never again
        }
        interpret(prog, slots);
    }

    /**
     * Programs are compiled after this many runs (system property {@code tracesync.ctf.compileAfter},
     * default {@value #COMPILE_AFTER}; negative: never).
     */
    private int compileAfter = Integer.getInteger("tracesync.ctf.compileAfter", COMPILE_AFTER);
    static final int COMPILE_AFTER = 1000;

    /** Compiles each program after {@code runs} runs (0: at once; negative: never); tests compare both ways. */
    void compileAfter(int runs) {
        compileAfter = runs;
    }

    /** Runs {@code prog} by its instructions, one dispatch each. */
    private void interpret(DecodeProgram prog, long[] slots) throws TraceFormatException {
        final int[] c = prog.code;
        final byte[] b = buf;
        final long lim = limit;
        long p = pos;
        long base = 0; // the current run's start
        final long toPacket = positionBase();
        int i = 0;
        while (i < c.length) {
            switch (c[i]) {
                case DecodeProgram.RUN -> {
                    p = up(p, c[i + 2]);
                    if (c[i + 3] > lim - p) {
                        pos = p;
                        run(prog.subs[c[i + 4]], slots); // fails where field-by-field decoding fails
                        p = pos;
                        i += c[i + 5] * DecodeProgram.WIDTH;
                    } else {
                        base = p;
                        p += c[i + 3];
                        if (c[i + 1] >= 0) {
                            readPlan(prog.plans[c[i + 1]], b, base, slots);
                        }
                    }
                }
                case DecodeProgram.RUN8 -> {
                    p = up(p, c[i + 2]);
                    if (c[i + 3] > lim - p) {
                        pos = p;
                        run(prog.subs[c[i + 4]], slots); // fails where field-by-field decoding fails
                        p = pos;
                        i += c[i + 5] * DecodeProgram.WIDTH;
                    } else {
                        base = p;
                        p += c[i + 3];
                        if (c[i + 1] >= 0) {
                            readBytePlan(prog.plans[c[i + 1]], b, (int) (base >>> 3), slots);
                        }
                    }
                }
                case DecodeProgram.A8 -> {
                    int s = c[i + 4];
                    slots[c[i + 1]] = ((b[(int) ((base + c[i + 2]) >>> 3)] & 0xFFL) << s) >> s;
                }
                case DecodeProgram.A16L -> {
                    int s = c[i + 4];
                    slots[c[i + 1]] = (((short) SHORT_LE.get(b, (int) ((base + c[i + 2]) >>> 3)) & 0xFFFFL) << s) >> s;
                }
                case DecodeProgram.A16B -> {
                    int s = c[i + 4];
                    slots[c[i + 1]] = (((short) SHORT_BE.get(b, (int) ((base + c[i + 2]) >>> 3)) & 0xFFFFL) << s) >> s;
                }
                case DecodeProgram.A32L -> {
                    int s = c[i + 4];
                    slots[c[i + 1]] = (((int) INT_LE.get(b, (int) ((base + c[i + 2]) >>> 3)) & 0xFFFFFFFFL) << s) >> s;
                }
                case DecodeProgram.A32B -> {
                    int s = c[i + 4];
                    slots[c[i + 1]] = (((int) INT_BE.get(b, (int) ((base + c[i + 2]) >>> 3)) & 0xFFFFFFFFL) << s) >> s;
                }
                case DecodeProgram.A64L -> slots[c[i + 1]] = (long) LONG_LE.get(b, (int) ((base + c[i + 2]) >>> 3));
                case DecodeProgram.A64B -> slots[c[i + 1]] = (long) LONG_BE.get(b, (int) ((base + c[i + 2]) >>> 3));
                case DecodeProgram.ABITS_L, DecodeProgram.ABITS_B -> {
                    int s = c[i + 4];
                    slots[c[i + 1]] = (unalignedBitsAt(base + c[i + 2], c[i + 3], c[i] == DecodeProgram.ABITS_B) << s) >> s;
                }
                case DecodeProgram.AROLE -> {
                    int size = c[i + 3];
                    long v = bitsAt(base + c[i + 2], size, (c[i + 5] & DecodeProgram.FLAG_BIG_ENDIAN) != 0);
                    if ((c[i + 5] & DecodeProgram.FLAG_SIGNED) != 0 && size < 64) {
                        v = (v << (64 - size)) >> (64 - size);
                    }
                    slots[c[i + 1]] = v;
                    role(c[i + 4], v, size);
                }
                case DecodeProgram.AARRAY -> {
                    slots[c[i + 1]] = base + c[i + 2] + toPacket;
                    slots[c[i + 1] + 1] = c[i + 3];
                }
                case DecodeProgram.S8 -> {
                    p = up(p, c[i + 2]);
                    if (8 > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    slots[c[i + 1]] = ((b[(int) (p >>> 3)] & 0xFFL) << s) >> s;
                    p += 8;
                }
                case DecodeProgram.S16L, DecodeProgram.S16B -> {
                    p = up(p, c[i + 2]);
                    if (16 > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    int o = (int) (p >>> 3);
                    long v = (c[i] == DecodeProgram.S16B ? (short) SHORT_BE.get(b, o) : (short) SHORT_LE.get(b, o)) & 0xFFFFL;
                    slots[c[i + 1]] = (v << s) >> s;
                    p += 16;
                }
                case DecodeProgram.S32L, DecodeProgram.S32B -> {
                    p = up(p, c[i + 2]);
                    if (32 > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    int o = (int) (p >>> 3);
                    long v = (c[i] == DecodeProgram.S32B ? (int) INT_BE.get(b, o) : (int) INT_LE.get(b, o)) & 0xFFFFFFFFL;
                    slots[c[i + 1]] = (v << s) >> s;
                    p += 32;
                }
                case DecodeProgram.S64L, DecodeProgram.S64B -> {
                    p = up(p, c[i + 2]);
                    if (64 > lim - p) {
                        throw pastEnd(p);
                    }
                    int o = (int) (p >>> 3);
                    slots[c[i + 1]] = c[i] == DecodeProgram.S64B ? (long) LONG_BE.get(b, o) : (long) LONG_LE.get(b, o);
                    p += 64;
                }
                case DecodeProgram.SBITS_L, DecodeProgram.SBITS_B -> {
                    p = up(p, c[i + 2]);
                    int size = c[i + 3];
                    if (size > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    slots[c[i + 1]] = (unalignedBitsAt(p, size, c[i] == DecodeProgram.SBITS_B) << s) >> s;
                    p += size;
                }
                case DecodeProgram.SROLE -> {
                    p = up(p, c[i + 2]);
                    int size = c[i + 3];
                    if (size > lim - p) {
                        throw pastEnd(p);
                    }
                    // the event header's id and timestamp: read and applied here (bitsAt and role are not inlined into this method)
                    int flags = c[i + 5];
                    boolean big = (flags & DecodeProgram.FLAG_BIG_ENDIAN) != 0;
                    int sh = (int) (p & 7);
                    long v;
                    if (size > 0 && sh + size <= 64) {
                        int o = (int) (p >>> 3);
                        v = big ? ((long) LONG_BE.get(b, o) << sh) >>> (64 - size)
                                : ((long) LONG_LE.get(b, o) >>> sh) & (-1L >>> (64 - size));
                    } else {
                        v = bitsAt(p, size, big);
                    }
                    if ((flags & DecodeProgram.FLAG_SIGNED) != 0 && size < 64) {
                        v = (v << (64 - size)) >> (64 - size);
                    }
                    slots[c[i + 1]] = v;
                    p += size;
                    int r = c[i + 4];
                    if (r == FieldDecoder.ROLE_TIMESTAMP && size < 64) {
                        long mask = (1L << size) - 1;
                        long nv = (clock & ~mask) | v;
                        clock = v < (clock & mask) ? nv + (1L << size) : nv;
                    } else if (r == FieldDecoder.ROLE_EVENT_ID) {
                        eventId = v;
                    } else if (r != FieldDecoder.ROLE_NONE) {
                        clock = v; // a 64-bit timestamp, or the packet's timestamp_begin
                    }
                }
                case DecodeProgram.STRING -> {
                    p = up(p, 8);
                    int start = (int) (p >>> 3);
                    int end = (int) (lim >>> 3);
                    int k = nul(b, start, end);
                    if (k >= end) {
                        pos = p;
                        throw error("string not terminated before the end of the packet content");
                    }
                    slots[c[i + 1]] = start + (toPacket >>> 3);
                    slots[c[i + 1] + 1] = k - start;
                    p = (long) (k + 1) << 3;
                }
                case DecodeProgram.ARRAY -> {
                    FieldDecoder.ArrayDecoder a = (FieldDecoder.ArrayDecoder) prog.refs[c[i + 4]];
                    long n = a.lengthSlot >= 0 ? slots[a.lengthSlot] : a.fixedLength;
                    p = up(p, c[i + 2]);
                    if (n < 0 || (n > 0 && exceeds(n, Math.max(1, a.elementMinBits), Math.max(0, lim - p)))
                            || (a.elementMinBits == 0 && n > (1 << 20))) {
                        pos = p;
                        throw error((a.lengthSlot >= 0 ? "sequence '" : "array '") + a.path + "' of length "
                                + Long.toUnsignedString(n) + " extends past the end of the packet content");
                    }
                    slots[c[i + 1]] = p + toPacket;
                    slots[c[i + 1] + 1] = n;
                    if (c[i + 5] < 0) {
                        long bits = n * a.stride;
                        if (bits < 0 || bits > lim - p) {
                            throw pastEnd(p);
                        }
                        p += bits;
                    } else {
                        DecodeProgram element = prog.subs[c[i + 5]];
                        pos = p;
                        for (long k = 0; k < n; k++) {
                            run(element, slots);
                        }
                        p = pos;
                    }
                }
                case DecodeProgram.VARIANT -> {
                    FieldDecoder.VariantDecoder v = (FieldDecoder.VariantDecoder) prog.refs[c[i + 4]];
                    long tag = slots[v.tagSlot];
                    int opt = v.option(tag);
                    if (opt < 0) {
                        pos = p;
                        throw error("variant '" + v.path + "': tag value " + tag + " selects no option");
                    }
                    slots[c[i + 1]] = opt;
                    i = prog.targets[c[i + 5] + opt];
                    continue;
                }
                case DecodeProgram.JUMP -> {
                    i = c[i + 2];
                    continue;
                }
                case DecodeProgram.ALIGN -> p = up(p, c[i + 2]);
                default -> throw new IllegalStateException("bad instruction " + c[i]);
            }
            i += DecodeProgram.WIDTH;
        }
        pos = p;
    }

    /**
     * Reads a run's plan (see {@link DecodeProgram#plans}): per field one 8-byte load at its first
     * byte (the run lies before the copy's end, which has {@link #PAD} bytes after it), then its
     * bits: big-endian fields from the most significant bit of their first byte, little-endian from
     * the least, as {@link #bitsAt}; then the sign extension.
     */
    static void readPlan(int[] plan, byte[] b, long base, long[] slots) {
        for (int k = 0; k < plan.length; k += 4) {
            long q = base + plan[k];
            int size = plan[k + 1];
            int flags = plan[k + 2];
            int shift = (int) (q & 7);
            long v;
            if ((flags & DecodeProgram.PLAN_BIG_ENDIAN) != 0) {
                v = ((long) LONG_BE.get(b, (int) (q >>> 3)) << shift) >>> (64 - size);
            } else {
                v = ((long) LONG_LE.get(b, (int) (q >>> 3)) >>> shift) & (-1L >>> (64 - size));
            }
            int s = flags & 0xFF;
            slots[plan[k + 3]] = (v << s) >> s;
        }
    }

    /**
     * Reads a {@link DecodeProgram#RUN8}'s plan (see {@link DecodeProgram#bytePlan}) for a run that
     * starts at byte {@code at} of the copy: per field one 8-byte load at its first byte (the run
     * lies before the copy's end, which has {@link #PAD} bytes after it), then two shifts and a mask
     * known when the plan was built; the big-endian fields, then the little-endian ones.
     */
    private static void readBytePlan(int[] plan, byte[] b, int at, long[] slots) {
        int mid = 1 + 3 * plan[0];
        for (int k = 1; k < mid; k += 3) {
            long x = (long) LONG_BE.get(b, at + plan[k]);
            int sh = plan[k + 1];
            slots[plan[k + 2]] = ((x << sh) >> (sh >>> 8)) & (-1L >>> (sh >>> 16));
        }
        for (int k = mid; k < plan.length; k += 3) {
            long x = (long) LONG_LE.get(b, at + plan[k]);
            int sh = plan[k + 1];
            slots[plan[k + 2]] = ((x << sh) >> (sh >>> 8)) & (-1L >>> (sh >>> 16));
        }
    }

    /**
     * Index of the first NUL byte in {@code [from, end)} of {@code b}, or {@code end}: eight bytes
     * per step (a byte is zero where {@code (x − 0x01…01) & ~x & 0x80…80} has its top bit set; the
     * lowest such byte is the first zero), then byte by byte.
     */
    static int nul(byte[] b, int from, int end) {
        int k = from;
        while (k <= end - 8) {
            long x = (long) LONG_LE.get(b, k);
            long z = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L;
            if (z != 0) {
                return k + (Long.numberOfTrailingZeros(z) >>> 3);
            }
            k += 8;
        }
        while (k < end && b[k] != 0) {
            k++;
        }
        return k;
    }

    /** {@code n > bits / each} for n, bits ≥ 0 and each ≥ 1, without the division: {@code n·each > bits}, exactly. */
    static boolean exceeds(long n, long each, long bits) {
        long product = n * each;
        return Math.multiplyHigh(n, each) != 0 || product < 0 || product > bits;
    }

    private TraceFormatException pastEnd(long p) {
        pos = p;
        return error(PAST_END);
    }

    /** Skips a NUL-terminated string at the (byte-aligned) position; returns its length without the NUL. */
    int skipString() throws TraceFormatException {
        int start = (int) (pos >>> 3);
        int end = (int) (limit >>> 3);
        int i = nul(buf, start, end);
        if (i < end) {
            pos = (long) (i + 1) << 3;
            return i - start;
        }
        throw error("string not terminated before the end of the packet content");
    }

    long readBits(int size, boolean bigEndian) throws TraceFormatException {
        long p = pos;
        if (size > limit - p) {
            throw error("field extends past the end of the packet content");
        }
        pos = p + size;
        return bitsAt(p, size, bigEndian);
    }

    /** Moves to bit position {@code p}, which the caller has checked against the content's end. */
    void seek(long p) {
        pos = p;
    }

    /**
     * The unsigned value of the {@code size}-bit field at bit position {@code p} of the window; the
     * caller has checked that it lies before the content's end. Byte-aligned 8/16/32/64-bit fields
     * are one buffer read; others assemble their bytes (big-endian fields from each byte's most
     * significant bit, little-endian from its least, as CTF lays them out).
     */
    long bitsAt(long p, int size, boolean bigEndian) {
        final byte[] b = buf;
        int off = (int) (p >>> 3);
        if ((p & 7) == 0) {
            switch (size) {
                case 8:
                    return b[off] & 0xFFL;
                case 16:
                    return (bigEndian ? (short) SHORT_BE.get(b, off) : (short) SHORT_LE.get(b, off)) & 0xFFFFL;
                case 32:
                    return (bigEndian ? (int) INT_BE.get(b, off) : (int) INT_LE.get(b, off)) & 0xFFFFFFFFL;
                case 64:
                    return bigEndian ? (long) LONG_BE.get(b, off) : (long) LONG_LE.get(b, off);
                default:
                    break;
            }
        }
        return unalignedBitsAt(p, size, bigEndian);
    }

    /**
     * {@link #bitsAt} of a field that is not a byte-aligned 8/16/32/64-bit one: one 8-byte load
     * when the field lies within eight bytes (the copy has {@link #PAD} bytes after the content;
     * bytes past the field are not values), else nine bytes.
     */
    private long unalignedBitsAt(long p, int size, boolean bigEndian) {
        return unalignedBitsAt(buf, p, size, bigEndian);
    }

    /** {@link #unalignedBitsAt(long, int, boolean)} of the copy {@code b} (also for {@link CompiledDecodeProgram}). */
    static long unalignedBitsAt(byte[] b, long p, int size, boolean bigEndian) {
        int shift = (int) (p & 7);
        if (shift + size <= 64 && size > 0) {
            int off = (int) (p >>> 3);
            return bigEndian ? ((long) LONG_BE.get(b, off) << shift) >>> (64 - size)
                    : ((long) LONG_LE.get(b, off) >>> shift) & (size == 64 ? -1L : (1L << size) - 1);
        }
        return nineBytesAt(b, p, size, bigEndian);
    }

    /** A field of 58 to 64 bits that does not start on a byte (nine bytes), or 0 for a field of size 0. */
    private static long nineBytesAt(byte[] b, long p, int size, boolean bigEndian) {
        if (size == 0) {
            return 0;
        }
        int off = (int) (p >>> 3);
        int shift = (int) (p & 7);
        if (bigEndian) {
            long acc = (long) LONG_BE.get(b, off);
            int k = shift + size - 64;
            long v = (acc << k) | ((b[off + 8] & 0xFFL) >>> (8 - k));
            return size == 64 ? v : v & ((1L << size) - 1);
        }
        long acc = (long) LONG_LE.get(b, off);
        long v = (acc >>> shift) | ((b[off + 8] & 0xFFL) << (64 - shift));
        return size == 64 ? v : v & ((1L << size) - 1);
    }

    // ------------------------------------------------------------------ CtfEvent

    @Override
    public CtfEventClass eventClass() {
        return current;
    }

    @Override
    public long timestamp() {
        return currentTimestamp;
    }

    @Override
    public long cycles() {
        return currentCycles;
    }

    @Override
    public int streamIndex() {
        return index;
    }

    @Override
    public long offset() {
        return currentOffset;
    }

    @Override
    public long longValue(CtfFieldRef field) {
        return slots[field.slot()];
    }

    @Override
    public double doubleValue(CtfFieldRef field) {
        long bits = slots[field.slot()];
        if (field.type() instanceof FloatType ft && ft.size() == 32) {
            return Float.intBitsToFloat((int) bits);
        }
        return Double.longBitsToDouble(bits);
    }

    @Override
    public String stringValue(CtfFieldRef field) {
        if (field.type() instanceof StringType) {
            int start = (int) (slots[field.slot()] - (positionBase() >>> 3));
            int len = (int) slots[field.slot() + 1];
            return decode(start, len);
        }
        byte[] b = bytes(field);
        int n = 0;
        while (n < b.length && b[n] != 0) {
            n++;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }

    private String decode(int start, int len) {
        return new String(buf, start, len, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] bytes(CtfFieldRef field) {
        long elementBits = field.elementBits();
        long startBit = slots[field.slot()] - positionBase();
        long n = slots[field.slot() + 1];
        if (elementBits <= 0 || elementBits % 8 != 0 || (startBit & 7) != 0) {
            throw new IllegalArgumentException(field.path() + " is not an array or sequence of whole bytes");
        }
        int from = (int) (startBit >>> 3);
        return java.util.Arrays.copyOfRange(buf, from, from + (int) (n * elementBits / 8));
    }

    @Override
    public int byteLength(CtfFieldRef field) {
        return (int) (slots[field.slot() + 1] * wholeByteElementBits(field) / 8);
    }

    @Override
    public long bigEndianBytes(CtfFieldRef field, int from, int count) {
        long n = slots[field.slot() + 1] * wholeByteElementBits(field) / 8;
        if (from < 0 || count < 0 || count > 8 || from + count > n) {
            throw new IndexOutOfBoundsException("bytes " + from + ".." + (from + count) + " of " + n + " in " + field.path());
        }
        int start = (int) ((slots[field.slot()] - positionBase()) >>> 3) + from;
        if (count == 4) {
            return (int) INT_BE.get(buf, start) & 0xFFFFFFFFL;
        }
        if (count == 8) {
            return (long) LONG_BE.get(buf, start);
        }
        long v = 0;
        for (int i = 0; i < count; i++) {
            v = v << 8 | (buf[start + i] & 0xFFL);
        }
        return v;
    }

    /** Element size of an array or sequence of whole bytes (as {@link #bytes} requires), else an exception. */
    private long wholeByteElementBits(CtfFieldRef field) {
        long elementBits = field.elementBits();
        if (elementBits <= 0 || elementBits % 8 != 0 || (slots[field.slot()] & 7) != 0) {
            throw new IllegalArgumentException(field.path() + " is not an array or sequence of whole bytes");
        }
        return elementBits;
    }

    /** Cycles to ns, or an error naming the file and offset when the clock's value overflows int64 ns. */
    private long nanos(long cycles, long at) throws TraceFormatException {
        try {
            return clockConversion.toNanos(cycles);
        } catch (ArithmeticException e) {
            throw TraceFormatException.atOffset(file, at, e.getMessage()
                    + "; check the clock's freq, offset_s and offset in the metadata");
        }
    }
}
