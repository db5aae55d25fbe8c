package org.tracesync.formats.ctf;

import java.io.IOException;
import java.nio.ByteBuffer;
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
 * whole packets); decoded values go to one preallocated {@code long[]} slot array, so reading or
 * skipping an event allocates nothing. Cost: linear in the stream size; one instruction of a
 * {@link DecodeProgram} per field, run by {@link #run} (a reader that wants some fields only runs
 * the pruned decoder trees instead, see {@link #readOnly}).
 *
 * <p>Clock values are reconstructed as babeltrace2 does: an n-bit timestamp updates the low n bits
 * of the current clock value and, when the new low bits are smaller than the old ones, carries one
 * wrap (2ⁿ); a packet's {@code timestamp_begin} resets the clock.
 */
final class CtfStreamReader implements CtfEvent {

    static final long MAX_WINDOW = 1L << 30;
    static final long PACKET_MAGIC = 0xC1FC1FC1L;
    private static final int MAX_WARNINGS_PER_KIND = 5;

    private final Path file;
    private final int index;
    private final FileChannel channel;
    private final long fileSize;
    private final List<String> warnings;

    private MappedByteBuffer window;
    private ByteBuffer le;
    private ByteBuffer be;
    private long windowStart;
    private long windowBytes;

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
    /** Decode with the decoder trees instead of their programs: pruned trees ({@link #readOnly}), and the reference in tests. */
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
            map(0);
            pos = 0;
            limit = Math.min(windowBytes, fileSize) * 8;
            packetHeader.decode(this, tmp);
            sid = tmp[streamIdRef.slot()];
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
        // Pruned trees (a few FixedRunDecoders per event) decode faster than programs of them:
        // 304-314 against 331-332 ns per event for the matching pipeline's reading half (PERFORMANCE.md).
        byTrees = true;
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
        le = null;
        be = null;
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
        le = window.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        be = window.duplicate().order(ByteOrder.BIG_ENDIAN);
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

    // ------------------------------------------------------------------ packets

    private boolean openPacket(long offset) throws IOException {
        if (offset >= fileSize) {
            return false;
        }
        ensureWindow(offset, Math.min(fileSize - offset, 4096));
        packetStart = offset;
        pos = (offset - windowStart) * 8;
        limit = (windowStart + windowBytes - windowStart) * 8;
        if (packetHeader != null) {
            decode(packetHeader, packetHeaderProgram);
            if (magicRef != null && slots[magicRef.slot()] != PACKET_MAGIC) {
                throw TraceFormatException.atOffset(file, offset, String.format(
                        "bad packet magic 0x%08x (expected 0x%08x)", slots[magicRef.slot()], PACKET_MAGIC));
            }
            if (streamIdRef != null && slots[streamIdRef.slot()] != streamClassId) {
                throw TraceFormatException.atOffset(file, offset, "packet of stream class " + slots[streamIdRef.slot()]
                        + " in a stream of class " + streamClassId);
            }
            if (uuidRef != null && traceUuid != null && uuidWarnings == 0) {
                int p = (int) (slots[uuidRef.slot()] >>> 3);
                for (int i = 0; i < 16; i++) {
                    if (le.get(p + i) != traceUuid[i]) {
                        uuidWarnings++;
                        warn(offset, "packet UUID differs from the metadata's trace UUID");
                        break;
                    }
                }
            }
        }
        if (packetContext != null) {
            decode(packetContext, packetContextProgram);
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
        long headerBits = pos - (offset - windowStart) * 8;
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
        long relBits = pos - (offset - windowStart) * 8;
        ensureWindow(offset, psize / 8);
        pos = (offset - windowStart) * 8 + relBits;
        limit = (offset - windowStart) * 8 + csize;
        return true;
    }

    /** Moves to the next event; false at the end of the stream. */
    boolean advance() throws IOException {
        if (finished) {
            return false;
        }
        while (packetStart < 0 || pos >= limit) {
            long next = packetStart < 0 ? 0 : packetStart + packetBits / 8;
            if ((packetStart >= 0 && truncated) || !openPacket(next)) {
                finished = true;
                current = null;
                return false;
            }
        }
        long start = pos;
        currentOffset = windowStart + (pos >>> 3);
        try {
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

    private void warn(long offset, String msg) {
        synchronized (warnings) {
            warnings.add(file + ":offset " + offset + ": " + msg);
        }
    }

    // ------------------------------------------------------------------ primitive reads (FieldDecoder)

    TraceFormatException error(String msg) {
        return TraceFormatException.atOffset(file, windowStart + (pos >>> 3), msg);
    }

    void align(int bits) {
        if (bits > 1) {
            pos = (pos + bits - 1) & -(long) bits;
        }
    }

    long bitPosition() {
        return pos;
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

    /** Runs {@code prog} from the current position, as its tree's decoders would (see {@link DecodeProgram}). */
    void run(DecodeProgram prog, long[] slots) throws TraceFormatException {
        final int[] c = prog.code;
        final ByteBuffer le = this.le;
        final ByteBuffer be = this.be;
        final long lim = limit;
        long p = pos;
        int i = 0;
        while (i < c.length) {
            switch (c[i]) {
                case DecodeProgram.S8 -> {
                    p = up(p, c[i + 2]);
                    if (8 > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    slots[c[i + 1]] = ((le.get((int) (p >>> 3)) & 0xFFL) << s) >> s;
                    p += 8;
                }
                case DecodeProgram.S16L, DecodeProgram.S16B -> {
                    p = up(p, c[i + 2]);
                    if (16 > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    long v = (c[i] == DecodeProgram.S16B ? be : le).getShort((int) (p >>> 3)) & 0xFFFFL;
                    slots[c[i + 1]] = (v << s) >> s;
                    p += 16;
                }
                case DecodeProgram.S32L, DecodeProgram.S32B -> {
                    p = up(p, c[i + 2]);
                    if (32 > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    long v = (c[i] == DecodeProgram.S32B ? be : le).getInt((int) (p >>> 3)) & 0xFFFFFFFFL;
                    slots[c[i + 1]] = (v << s) >> s;
                    p += 32;
                }
                case DecodeProgram.S64L, DecodeProgram.S64B -> {
                    p = up(p, c[i + 2]);
                    if (64 > lim - p) {
                        throw pastEnd(p);
                    }
                    slots[c[i + 1]] = (c[i] == DecodeProgram.S64B ? be : le).getLong((int) (p >>> 3));
                    p += 64;
                }
                case DecodeProgram.SBITS_L, DecodeProgram.SBITS_B -> {
                    p = up(p, c[i + 2]);
                    int size = c[i + 3];
                    if (size > lim - p) {
                        throw pastEnd(p);
                    }
                    int s = c[i + 4];
                    slots[c[i + 1]] = (bitsAt(p, size, c[i] == DecodeProgram.SBITS_B) << s) >> s;
                    p += size;
                }
                case DecodeProgram.SROLE -> {
                    p = up(p, c[i + 2]);
                    int size = c[i + 3];
                    if (size > lim - p) {
                        throw pastEnd(p);
                    }
                    long v = bitsAt(p, size, (c[i + 5] & DecodeProgram.FLAG_BIG_ENDIAN) != 0);
                    if ((c[i + 5] & DecodeProgram.FLAG_SIGNED) != 0 && size < 64) {
                        v = (v << (64 - size)) >> (64 - size);
                    }
                    slots[c[i + 1]] = v;
                    p += size;
                    role(c[i + 4], v, size);
                }
                case DecodeProgram.STRING -> {
                    p = up(p, 8);
                    int start = (int) (p >>> 3);
                    int end = (int) (lim >>> 3);
                    int k = start; // byte by byte: nul() here measured slower for short strings
                    while (k < end && le.get(k) != 0) {
                        k++;
                    }
                    if (k >= end) {
                        pos = p;
                        throw error("string not terminated before the end of the packet content");
                    }
                    slots[c[i + 1]] = start;
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
                    slots[c[i + 1]] = p;
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
                    pos = p;
                    run(prog.subs[c[i + 5] + opt], slots);
                    p = pos;
                }
                case DecodeProgram.ALIGN -> p = up(p, c[i + 2]);
                default -> throw new IllegalStateException("bad instruction " + c[i]);
            }
            i += DecodeProgram.WIDTH;
        }
        pos = p;
    }

    /**
     * Index of the first NUL byte in {@code [from, end)} of {@code le}, or {@code end}: eight bytes
     * per step (a byte is zero where {@code (x − 0x01…01) & ~x & 0x80…80} has its top bit set; the
     * lowest such byte is the first zero), then byte by byte.
     */
    private static int nul(ByteBuffer le, int from, int end) {
        int k = from;
        while (k <= end - 8) {
            long x = le.getLong(k);
            long z = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L;
            if (z != 0) {
                return k + (Long.numberOfTrailingZeros(z) >>> 3);
            }
            k += 8;
        }
        while (k < end && le.get(k) != 0) {
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
        int i = nul(le, start, end);
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
        int off = (int) (p >>> 3);
        if ((p & 7) == 0) {
            switch (size) {
                case 8:
                    return le.get(off) & 0xFFL;
                case 16:
                    return (bigEndian ? be : le).getShort(off) & 0xFFFFL;
                case 32:
                    return (bigEndian ? be : le).getInt(off) & 0xFFFFFFFFL;
                case 64:
                    return (bigEndian ? be : le).getLong(off);
                default:
                    break;
            }
        }
        int shift = (int) (p & 7);
        int nbytes = (shift + size + 7) >>> 3;
        if (nbytes <= 8 && size > 0 && off <= windowBytes - 8) {
            // one 8-byte load holds the field (bytes past the field are the file's, not read as values)
            return bigEndian ? (be.getLong(off) << shift) >>> (64 - size)
                    : (le.getLong(off) >>> shift) & (size == 64 ? -1L : (1L << size) - 1);
        }
        long v;
        if (bigEndian) {
            if (nbytes <= 8) {
                long acc = 0;
                for (int i = 0; i < nbytes; i++) {
                    acc = (acc << 8) | (le.get(off + i) & 0xFFL);
                }
                v = acc >>> (nbytes * 8 - shift - size);
            } else {
                long acc = be.getLong(off);
                int k = shift + size - 64;
                v = (acc << k) | ((le.get(off + 8) & 0xFFL) >>> (8 - k));
            }
        } else {
            if (nbytes <= 8) {
                long acc = 0;
                for (int i = nbytes - 1; i >= 0; i--) {
                    acc = (acc << 8) | (le.get(off + i) & 0xFFL);
                }
                v = acc >>> shift;
            } else {
                long acc = le.getLong(off);
                v = (acc >>> shift) | ((le.get(off + 8) & 0xFFL) << (64 - shift));
            }
        }
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
            int start = (int) slots[field.slot()];
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
        byte[] b = new byte[len];
        le.get(start, b);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public byte[] bytes(CtfFieldRef field) {
        long elementBits = field.elementBits();
        long startBit = slots[field.slot()];
        long n = slots[field.slot() + 1];
        if (elementBits <= 0 || elementBits % 8 != 0 || (startBit & 7) != 0) {
            throw new IllegalArgumentException(field.path() + " is not an array or sequence of whole bytes");
        }
        byte[] b = new byte[(int) (n * elementBits / 8)];
        le.get((int) (startBit >>> 3), b);
        return b;
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
        int start = (int) (slots[field.slot()] >>> 3) + from;
        if (count == 4) {
            return be.getInt(start) & 0xFFFFFFFFL;
        }
        if (count == 8) {
            return be.getLong(start);
        }
        long v = 0;
        for (int i = 0; i < count; i++) {
            v = v << 8 | (le.get(start + i) & 0xFFL);
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
