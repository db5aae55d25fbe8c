package org.tracesync.formats.lttv;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.TraceFormatException;

/**
 * The LTTV text format (DESIGN §8), the original implementation's test input: the first
 * significant line is the number of traces N; every other significant line is
 * {@code sender receiver send_seconds recv_seconds}, each time on its own node's clock.
 *
 * <ul>
 *   <li>Trace k is node "k". As an extension, senders and receivers may be names instead of
 *       numbers (as in ../shared/data/pcap/three-hosts/messages.txt); nodes are then named in
 *       order of first appearance, at most N of them.</li>
 *   <li>Times are decimal seconds parsed digit by digit into int64 nanoseconds, never through a
 *       double. More than 9 decimals are rounded to the nearest nanosecond (half away from 0).</li>
 *   <li>{@code #} comments (whole lines or after the fields), blank lines, spaces, tabs and CRLF
 *       are accepted; a last line without a newline is read (the original ignored it).</li>
 *   <li>Every error names the file, the line and what was expected.</li>
 * </ul>
 *
 * <p>Streaming: a 1 MiB buffer, no object per line (numeric mode), so memory does not grow with
 * the file. Plain lines take a one-pass path that reads times eight digits at a time
 * ({@link DigitWords}) and reuses the integer seconds of the time before when their bytes are
 * the same: O(1) work per 8 bytes, exact (its speed: docs/PERFORMANCE.md). It parses a block of
 * lines, then hands the block to the sink: two small loops that the JIT compiles separately and
 * early. Large files are read in parts on several threads ({@link #accumulate(int)}).
 */
public final class LttvTextInput implements MessageInput, org.tracesync.core.accumulate.SplitReadable {

    private static final int BUFFER = 1 << 20;
    /**
     * Bytes from a line's start that the 8-byte path may read: 6 + 1 + 6 + 1 for the nodes (one
     * word each at most), then up to 21 + 1 per time (10 integer digits read as 16 bytes, '.',
     * 8 + 2 decimals).
     */
    static final int WORDS_REACH = 64;
    /**
     * Plain lines parsed before they are handed to the sink (see {@code Emitter.plainLines}). Few,
     * so that the parsing and delivery methods are invoked often: the JIT then compiles each once,
     * as a whole method, before their loops ask for a compilation of their own (with 512 lines
     * each was compiled twice, on-stack and whole).
     */
    static final int BLOCK = 32;

    /** Fewer bytes than this left in the buffer: {@code plainLines} leaves them to the line parser. */
    static final int PLAIN_LINES_MIN = 4096;

    /** 10^(9 − k): scales k decimals to nanoseconds. */
    private static final long[] SCALE = {1_000_000_000L, 100_000_000L, 10_000_000L, 1_000_000L, 100_000L,
        10_000L, 1_000L, 100L, 10L, 1L};

    private final Path file;
    private final int declaredTraces;
    private final boolean namedNodes;
    private final List<NodeInfo> nodes;
    private final Map<String, Integer> nameIndex = new LinkedHashMap<>();

    private LttvTextInput(Path file, int declaredTraces, boolean namedNodes, List<String> names) {
        this.file = file;
        this.declaredTraces = declaredTraces;
        this.namedNodes = namedNodes;
        List<NodeInfo> list = new ArrayList<>();
        for (int k = 0; k < names.size(); k++) {
            list.add(new NodeInfo(names.get(k), file.toString()));
            nameIndex.put(names.get(k), k);
        }
        this.nodes = List.copyOf(list);
    }

    /** Opens {@code file}: reads its header (and, for named nodes, the node names). */
    public static LttvTextInput open(Path file) throws IOException {
        Header h = new Header();
        try {
            scan(file, h);
        } catch (StopScan stop) {
            // header (and first data line) seen
        }
        if (h.traces < 0) {
            throw new TraceFormatException(file, "line " + Math.max(1, h.lastLine),
                    "expected the number of traces on the first significant line, found end of file");
        }
        if (!h.named) {
            List<String> names = new ArrayList<>();
            for (int k = 0; k < h.traces; k++) {
                names.add(Integer.toString(k));
            }
            return new LttvTextInput(file, h.traces, false, names);
        }
        NameCollector names = new NameCollector(h.traces, file);
        scan(file, names);
        List<String> list = new ArrayList<>(names.names.keySet());
        while (list.size() < h.traces) {
            list.add(Integer.toString(list.size())); // declared traces that never appear
        }
        return new LttvTextInput(file, h.traces, true, list);
    }

    /** True when {@code file} looks like LTTV text: its first significant line is a lone integer. */
    public static boolean looksLikeLttvText(Path file) {
        Header h = new Header();
        try {
            scan(file, h);
        } catch (StopScan stop) {
            return h.traces >= 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return h.traces >= 0;
    }

    /**
     * Why {@code file}, which does not parse as LTTV text, still looks like one (its first
     * significant line has the four fields of a message line, or it starts with a trace count
     * that is wrong): the parse error naming the line; null when it does not look like LTTV text.
     */
    public static TraceFormatException lttvLikeError(Path file) {
        Header h = new Header();
        try {
            scan(file, h);
        } catch (TraceFormatException e) {
            String m = e.getMessage();
            String prefix = file + ":";
            int colon = m.indexOf(": ", prefix.length());
            if (!m.contains("number of traces") || !m.startsWith(prefix) || colon < 0 || !looksLikeMessageLines(file)) {
                return null;
            }
            return new TraceFormatException(file, m.substring(prefix.length(), colon),
                    "looks like LTTV text, but " + m.substring(colon + 2));
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** True when the file's first significant line has four fields: two integers and two decimals. */
    private static boolean looksLikeMessageLines(Path file) {
        try (var lines = java.nio.file.Files.lines(file, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            return lines.map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).findFirst()
                    .map(l -> l.matches("[0-9]+\\s+[0-9]+\\s+-?[0-9.]+\\s+-?[0-9.]+"))
                    .orElse(false);
        } catch (IOException | java.io.UncheckedIOException e) {
            return false;
        }
    }

    public Path file() {
        return file;
    }

    public int declaredTraces() {
        return declaredTraces;
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        scan(file, new Emitter(sink));
    }

    /** Files below this size are read on one thread: a second one would not pay for itself. */
    static final long SPLIT_MIN_BYTES = 16L << 20;

    /**
     * Reads a large file with trace numbers (not names) in {@code min(threads, 4)} parts at once,
     * cut just after a newline: the first part from the start (header included), the others as
     * message lines only, each into its own pair accumulators, merged in file order — the same
     * accumulators as one pass (see {@link org.tracesync.core.accumulate.SplitReadable}). If any
     * part fails (a bad line, or a part that does not start where messages do), the whole file
     * is read again sequentially, so that the error reported is the first one in the file, with
     * its line number. Smaller files, named nodes and one thread: one sequential pass.
     */
    @Override
    public PairAccumulators accumulate(int threads) throws IOException {
        return accumulate(threads, SPLIT_MIN_BYTES);
    }

    /** Same, with parts of at least {@code minPartBytes} (tests use small ones). */
    PairAccumulators accumulate(int threads, long minPartBytes) throws IOException {
        long size = java.nio.file.Files.size(file);
        int parts = (int) Math.min(Math.min(threads, 4), size / minPartBytes);
        if (namedNodes || parts < 2) {
            PairAccumulators acc = new PairAccumulators(nodes.size());
            readMessages(acc);
            return acc;
        }
        long[] cuts = new long[parts + 1];
        cuts[parts] = size;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            ByteBuffer one = ByteBuffer.allocate(4096);
            for (int k = 1; k < parts; k++) {
                long at = Math.max(cuts[k - 1], size * k / parts);
                cuts[k] = size;
                scanForNewline:
                while (at < size) {
                    one.clear();
                    int n = ch.read(one, at);
                    if (n <= 0) {
                        break;
                    }
                    for (int i = 0; i < n; i++) {
                        if (one.get(i) == '\n') {
                            cuts[k] = at + i + 1;
                            break scanForNewline;
                        }
                    }
                    at += n;
                }
            }
        }
        PairAccumulators[] accs = new PairAccumulators[parts];
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(parts - 1, r -> {
            Thread t = new Thread(r, "tracesync-lttv-part");
            t.setDaemon(true);
            return t;
        });
        try {
            List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
            for (int k = 1; k < parts; k++) {
                int part = k;
                futures.add(pool.submit(() -> {
                    accs[part] = new PairAccumulators(nodes.size());
                    scan(file, new Emitter(accs[part]), cuts[part], cuts[part + 1], true);
                    return null;
                }));
            }
            accs[0] = new PairAccumulators(nodes.size());
            boolean failed = false;
            try {
                scan(file, new Emitter(accs[0]), 0, cuts[1], false);
            } catch (IOException | RuntimeException e) {
                failed = true;
            }
            for (java.util.concurrent.Future<?> f : futures) {
                try {
                    f.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    failed = true;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while reading " + file);
                }
            }
            if (failed) { // the sequential pass names the first bad line (or succeeds: then it is the answer)
                PairAccumulators acc = new PairAccumulators(nodes.size());
                readMessages(acc);
                return acc;
            }
        } finally {
            pool.shutdownNow();
        }
        for (int k = 1; k < parts; k++) {
            accs[0].merge(accs[k]);
        }
        return accs[0];
    }

    // ------------------------------------------------------------------ scanning machinery

    /** Receives parsed lines. */
    private interface LineHandler {
        /** The header line: N. */
        void header(int traces, long line) throws IOException;

        /** A message line with raw tokens. */
        void message(byte[] buf, int[] tokens, long line) throws IOException;

        /**
         * Handles the plain lines starting at {@code from} (at most {@link #BLOCK}, each with at
         * least {@link #WORDS_REACH} bytes in {@code buf[from, limit)} from its start: a buffer's
         * last bytes go through the general path), and returns how many it handled: 0 when the
         * line at {@code from} is not plain (the general path then reads it). {@link #plainEnd}
         * then gives the index just past the last handled line's newline.
         */
        default int plainLines(byte[] buf, int from, int limit) throws IOException {
            return 0;
        }

        /** Where the last {@link #plainLines} call stopped. */
        default int plainEnd() {
            return -1;
        }
    }

    private static final class StopScan extends RuntimeException {
        StopScan() {
            super(null, null, false, false);
        }
    }

    private static final class Header implements LineHandler {
        int traces = -1;
        boolean named;
        long lastLine;

        @Override
        public void header(int n, long line) {
            traces = n;
            lastLine = line;
        }

        @Override
        public void message(byte[] buf, int[] tok, long line) {
            named = !isInteger(buf, tok[0], tok[1]);
            throw new StopScan();
        }
    }

    private static final class NameCollector implements LineHandler {
        final Map<String, Integer> names = new LinkedHashMap<>();
        final int limit;
        final Path file;

        NameCollector(int limit, Path file) {
            this.limit = limit;
            this.file = file;
        }

        @Override
        public void header(int traces, long line) {
        }

        @Override
        public void message(byte[] buf, int[] tok, long line) throws IOException {
            add(new String(buf, tok[0], tok[1] - tok[0], java.nio.charset.StandardCharsets.UTF_8), line);
            add(new String(buf, tok[2], tok[3] - tok[2], java.nio.charset.StandardCharsets.UTF_8), line);
        }

        private void add(String name, long line) throws IOException {
            if (!names.containsKey(name)) {
                if (names.size() == limit) {
                    throw TraceFormatException.atLine(file, line, "node '" + name
                            + "' is one more than the " + limit + " traces the first line declares");
                }
                names.put(name, names.size());
            }
        }
    }

    private final class Emitter implements LineHandler {
        final MessageSink sink;

        Emitter(MessageSink sink) {
            this.sink = sink;
        }

        @Override
        public void header(int traces, long line) {
        }

        @Override
        public void message(byte[] buf, int[] tok, long line) throws IOException {
            int s = node(buf, tok[0], tok[1], line, "sender");
            int r = node(buf, tok[2], tok[3], line, "receiver");
            long ts = seconds(buf, tok[4], tok[5], line, "send time");
            long tr = seconds(buf, tok[6], tok[7], line, "receive time");
            sink.message(s, r, ts, tr);
        }

        // one block of plain lines, parsed before any is handed to the sink: the parsing loop and
        // the delivery loop are compiled separately, each small (the JIT compiles them sooner and
        // once, instead of one method with the whole accumulation inlined)
        private final int[] senders = new int[BLOCK];
        private final int[] receivers = new int[BLOCK];
        private final long[] sendTimes = new long[BLOCK];
        private final long[] recvTimes = new long[BLOCK];
        private int plainEnd;

        @Override
        public int plainLines(byte[] buf, int from, int limit) throws IOException {
            if (namedNodes || limit - from < PLAIN_LINES_MIN) {
                // a few KB left (a small file, a buffer's end): the line parser's way, which
                // spares a small sync the fast path's first use (its VarHandle's classes)
                return 0;
            }
            // up to 16 blocks per call: the caller's loop (interpreted until the JIT compiles it)
            // then turns once per 512 lines, and this loop's turns stay few per call, so that
            // this method too is compiled whole before its loop asks for an on-stack compilation
            int total = 0;
            int at = from;
            for (int b = 0; b < 16; b++) {
                int count = parsePlain(buf, at, limit);
                deliver(count);
                total += count;
                at = plainEnd;
                if (count < BLOCK) {
                    break;
                }
            }
            plainEnd = at;
            return total;
        }

        @Override
        public int plainEnd() {
            return plainEnd;
        }

        /**
         * The fast path for the common line {@code S R SEC[.FRAC] SEC[.FRAC]\n}: each separator
         * one space or one tab, trace numbers below N, at most 10 integer digits (seconds below 9223372036) and 1 to 9
         * decimals. Parses such lines from {@code from} into the block, up to {@link #BLOCK} of
         * them and while {@link #WORDS_REACH} bytes remain from a line's start; stops at the first
         * other line. Such a line gives exactly what the general path gives (same digits, same
         * integer arithmetic, no double); anything else — runs of separators, CR, comments, signs, more
         * decimals, errors — goes through the general path, which names the line in its message.
         * Returns the number of lines parsed; sets {@link #plainEnd}.
         */
        private int parsePlain(byte[] buf, int from, int limit) {
            int count = 0;
            int next = from;
            int traces = declaredTraces;
            while (count < BLOCK && limit - next >= WORDS_REACH) {
                // the commonest line first: "S R " and two times of ten integer digits and nine
                // decimals ("1700000000.000487243"), 46 bytes; every load at a fixed offset (no
                // load waits for another's result), the integer seconds those of an earlier line
                // when their bytes are the same
                long w = DigitWords.word(buf, next);
                int s = (int) (w & 0xFF) - '0';
                int r = (int) (w >>> 16 & 0xFF) - '0';
                boolean oneDigitEach = separator((int) (w >>> 8) & 0xFF) & separator((int) (w >>> 24) & 0xFF)
                        && (s | r) >= 0 && s <= 9 && r <= 9; // "S R ", each separator a space or a tab
                if (oneDigitEach && s < traces && r < traces && separator(buf[next + 24]) && buf[next + 45] == '\n') {
                    long sendHead = DigitWords.word(buf, next + 4); // bytes 4-11: integer digits 1-8
                    long sendTail = DigitWords.word(buf, next + 12) & 0xFF_FFFFL; // digits 9-10, '.'
                    long sendFrac = DigitWords.word(buf, next + 16); // decimals 2-9 (decimal 1: byte 15)
                    long recvHead = DigitWords.word(buf, next + 25);
                    long recvTail = DigitWords.word(buf, next + 33) & 0xFF_FFFFL;
                    long recvFrac = DigitWords.word(buf, next + 37);
                    int sendDecimal = buf[next + 15] - '0';
                    int recvDecimal = buf[next + 36] - '0';
                    if (DigitWords.allDigits(sendFrac) && DigitWords.allDigits(recvFrac)
                            && (sendDecimal | recvDecimal) >= 0 && sendDecimal <= 9 && recvDecimal <= 9) {
                        // one test per time, on both words at once: the first eight digits change
                        // once per 100 s, and a branch of its own on them looked never taken to the
                        // JIT, which compiled it as a trap and recompiled the loop at the first change
                        SecondsCache sc = sendCache;
                        SecondsCache rc = recvCache;
                        long sendSec = ((sendHead ^ sc.head) | (sendTail ^ sc.tail)) == 0 ? sc.seconds : sc.read(sendHead, sendTail);
                        long recvSec = ((recvHead ^ rc.head) | (recvTail ^ rc.tail)) == 0 ? rc.seconds : rc.read(recvHead, recvTail);
                        if ((sendSec | recvSec) >= 0) {
                            senders[count] = s;
                            receivers[count] = r;
                            sendTimes[count] = sendSec * 1_000_000_000L + sendDecimal * 100_000_000L
                                    + DigitWords.value(sendFrac, 8);
                            recvTimes[count] = recvSec * 1_000_000_000L + recvDecimal * 100_000_000L
                                    + DigitWords.value(recvFrac, 8);
                            count++;
                            next += 46;
                            continue;
                        }
                    }
                }
                // the two trace numbers, each followed by one space: below ten traces one word
                // holds both ("S R "); otherwise 1 to 6 digits each (the header allows at most
                // 999,999 traces), one word each; no loop
                int i;
                if (oneDigitEach) {
                    i = next + 3;
                } else {
                    int k = DigitWords.digitCount(w);
                    if (k == 0 || k > 6 || !separator((int) (w >>> (8 * k) & 0xFF))) {
                        break;
                    }
                    s = (int) DigitWords.value(w, k);
                    i = next + k + 1;
                    w = DigitWords.word(buf, i);
                    k = DigitWords.digitCount(w);
                    if (k == 0 || k > 6 || !separator((int) (w >>> (8 * k) & 0xFF))) {
                        break;
                    }
                    r = (int) DigitWords.value(w, k);
                    i += k;
                }
                if (s >= traces || r >= traces) {
                    break;
                }
                long ts = wordSeconds(buf, i + 1);
                if (ts < 0) {
                    break;
                }
                i = end;
                if (!separator(buf[i])) {
                    break;
                }
                long tr = wordSeconds(buf, i + 1);
                if (tr < 0) {
                    break;
                }
                i = end;
                if (buf[i] != '\n') {
                    break;
                }
                senders[count] = s;
                receivers[count] = r;
                sendTimes[count] = ts;
                recvTimes[count] = tr;
                count++;
                next = i + 1;
            }
            plainEnd = next;
            return count;
        }

        /**
         * A field separator of the plain path: one space or one tab (the general path splits on runs
         * of both; `simulate` and LTTV's own files write tabs). Without a branch of its own.
         */
        private static boolean separator(int b) {
            return b == ' ' | b == '\t';
        }

        /** Hands the block's first {@code count} lines to the sink, in order. */
        private void deliver(int count) throws IOException {
            MessageSink sink = this.sink;
            for (int k = 0; k < count; k++) {
                sink.message(senders[k], receivers[k], sendTimes[k], recvTimes[k]);
            }
        }

        /**
         * Nanoseconds of {@code SEC[.FRAC]} at {@code buf[from…]} (1 to 10 integer digits, below
         * 9223372036 s; none or 1 to 9 decimals), read eight digits at a time ({@link DigitWords});
         * sets {@link #end}; −1 for any other shape (the general path then reads the line). Reads
         * at most 21 bytes from {@code from}: the caller guarantees {@link #WORDS_REACH} bytes from
         * the line's start (two nodes of at most 9 digits and a space each, the send time's 21
         * and a space before this).
         */
        private long wordSeconds(byte[] buf, int from) {
            long w = DigitWords.word(buf, from);
            long w2 = DigitWords.word(buf, from + 8);
            long sec;
            int i;
            SecondsCache cache = wordCache;
            if (((w ^ cache.head) | ((w2 & 0xFF_FFFFL) ^ cache.tail)) == 0) { // one branch (see parsePlain)
                sec = cache.seconds; // the same ten integer digits and '.' as a time before
                i = from + 10;
            } else {
                int k = DigitWords.digitCount(w);
                if (k == 0) {
                    return -1;
                }
                sec = DigitWords.value(w, k);
                i = from + k;
                int k2 = 0;
                if (k == 8) {
                    k2 = DigitWords.digitCount(w2);
                    if (k2 > 2) {
                        return -1; // more than 10 integer digits
                    }
                    if (k2 > 0) {
                        sec = sec * SCALE[9 - k2] + DigitWords.value(w2, k2);
                        i += k2;
                    }
                }
                if (sec >= 9_223_372_036L) {
                    return -1;
                }
                if (k2 == 2 && buf[i] == '.') {
                    cache.keep(w, w2 & 0xFF_FFFFL, sec);
                }
            }
            long frac = 0;
            if (buf[i] == '.') {
                i++;
                long w3 = DigitWords.word(buf, i);
                int f = DigitWords.digitCount(w3);
                if (f == 0) {
                    return -1;
                }
                frac = DigitWords.value(w3, f);
                i += f;
                if (f == 8) {
                    byte c = buf[i];
                    if (c >= '0' && c <= '9') {
                        frac = frac * 10 + (c - '0');
                        i++;
                        f = 9;
                        c = buf[i];
                        if (c >= '0' && c <= '9') {
                            return -1; // more than 9 decimals: the general path rounds
                        }
                    }
                }
                frac *= SCALE[f];
            }
            end = i;
            return sec * 1_000_000_000L + frac;
        }

        // the last integer seconds of the 46-byte lines' send and receive times, and of the
        // general word path's times
        private final SecondsCache sendCache = new SecondsCache();
        private final SecondsCache recvCache = new SecondsCache();
        private final SecondsCache wordCache = new SecondsCache();

        private int end; // where the last wordSeconds stopped

        private int node(byte[] buf, int from, int to, long line, String what) throws IOException {
            if (namedNodes) {
                String name = new String(buf, from, to - from, java.nio.charset.StandardCharsets.UTF_8);
                Integer k = nameIndex.get(name);
                if (k == null) {
                    throw TraceFormatException.atLine(file, line, "unknown " + what + " '" + name + "'");
                }
                return k;
            }
            if (!isInteger(buf, from, to) || to - from > 9) {
                throw TraceFormatException.atLine(file, line, "expected a trace number for the " + what
                        + ", found '" + text(buf, from, to) + "'");
            }
            int v = 0;
            for (int i = from; i < to; i++) {
                v = v * 10 + (buf[i] - '0');
            }
            if (v >= declaredTraces) {
                throw TraceFormatException.atLine(file, line, what + " " + v + " is not a trace number: the file declares "
                        + declaredTraces + " traces (0.." + (declaredTraces - 1) + ")");
            }
            return v;
        }

        private long seconds(byte[] buf, int from, int to, long line, String what) throws IOException {
            long ns = DecimalSeconds.parse(buf, from, to);
            if (ns == DecimalSeconds.INVALID) {
                throw TraceFormatException.atLine(file, line, "expected the " + what
                        + " in decimal seconds (e.g. 12.000000345), found '" + text(buf, from, to) + "'");
            }
            if (ns == DecimalSeconds.OUT_OF_RANGE) {
                throw TraceFormatException.atLine(file, line, "the " + what + " '" + text(buf, from, to)
                        + "' is out of range: int64 nanoseconds hold at most 9223372036.854775807 s");
            }
            if (ns < 0) {
                // as JSON lines: a trace's times count from its clock's origin
                throw TraceFormatException.atLine(file, line, "the " + what + " '" + text(buf, from, to)
                        + "' is negative; expected seconds since the trace's origin (e.g. 12.000000345)");
            }
            return ns;
        }
    }

    /**
     * The last time read with ten integer digits and '.': its first eight bytes ({@code head}), the
     * next three ({@code tail}) and its seconds. Times of nearby lines share them, so their value is
     * reused while the bytes repeat; −1 holds no digit, so it matches nothing before the first.
     */
    private static final class SecondsCache {
        long head = -1;
        long tail = -1;
        long seconds;

        /** Seconds of {@code head} and {@code tail} read afresh, and kept; −1 when they are not ten digits and '.'. */
        long read(long head, long tail) {
            long sec = tenDigits(head, tail);
            if (sec >= 0) {
                keep(head, tail, sec);
            }
            return sec;
        }

        void keep(long head, long tail, long sec) {
            this.head = head;
            this.tail = tail;
            this.seconds = sec;
        }
    }

    /**
     * Seconds of ten integer digits and '.': {@code head} holds the first eight bytes, {@code tail}
     * the next three; −1 when they are not digits and '.', or not below 9223372036 s.
     */
    static long tenDigits(long head, long tail) {
        if (!DigitWords.allDigits(head) || DigitWords.digitCount(tail) != 2 || (tail >>> 16) != '.') {
            return -1;
        }
        long sec = DigitWords.value(head, 8) * 100 + DigitWords.value(tail, 2);
        return sec < 9_223_372_036L ? sec : -1;
    }

    static String text(byte[] buf, int from, int to) {
        int end = Math.min(to, from + 60);
        return new String(buf, from, end - from, java.nio.charset.StandardCharsets.UTF_8) + (end < to ? "..." : "");
    }

    static boolean isInteger(byte[] buf, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (buf[i] < '0' || buf[i] > '9') {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads {@code file} line by line into {@code handler}. Tokens are split on spaces and tabs;
     * {@code #} starts a comment; CR before LF is ignored.
     */
    private static void scan(Path file, LineHandler handler) throws IOException {
        scan(file, handler, 0, Long.MAX_VALUE, false);
    }

    /**
     * Same, over the bytes [from, to) of the file; with {@code headerSeen}, every significant line
     * is a message line (a part after the first). Line numbers count from the part's start.
     */
    private static void scan(Path file, LineHandler handler, long from, long to, boolean headerSeenAlready)
            throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(file, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new TraceFormatException(file, "", "no such file");
        }
        try (ch) {
            byte[] buf = new byte[BUFFER];
            ByteBuffer bb = ByteBuffer.wrap(buf);
            int[] tok = new int[8];
            int filled = 0;
            long line = 0;
            boolean headerSeen = headerSeenAlready;
            boolean eof = false;
            long position = from;
            // the first reads are short (4 KiB, doubling up to the buffer): the rare paths of a
            // buffer's end (a line cut in two, the byte-wise tail) are then taken while the JIT
            // still profiles, instead of first after the hot loop's compilation, which made it
            // throw the compiled loop away and compile it again
            int ramp = 4096;
            while (!eof) {
                int n;
                if (position >= to) {
                    n = -1; // end of the part
                } else if (filled == buf.length) {
                    n = 0; // full: the line-length check below
                } else {
                    bb.limit(filled + (int) Math.min(Math.min(buf.length - filled, ramp), to - position)).position(filled);
                    n = ch.read(bb, position);
                    ramp = (int) Math.min(buf.length, 2L * ramp);
                }
                if (n > 0) {
                    position += n;
                }
                if (n < 0) {
                    eof = true;
                } else {
                    filled += n;
                }
                int start = 0;
                while (true) {
                    if (headerSeen && filled - start >= WORDS_REACH) {
                        int lines = handler.plainLines(buf, start, filled);
                        if (lines > 0) {
                            line += lines;
                            start = handler.plainEnd();
                            continue;
                        }
                    }
                    int nl = -1;
                    for (int i = start; i < filled; i++) {
                        if (buf[i] == '\n') {
                            nl = i;
                            break;
                        }
                    }
                    int end;
                    if (nl >= 0) {
                        end = nl;
                    } else if (eof && start < filled) {
                        end = filled; // last line without newline
                    } else {
                        break;
                    }
                    line++;
                    int count = tokenize(buf, start, end, tok, file, line);
                    if (count > 0) {
                        if (!headerSeen) {
                            if (count != 1 || !isInteger(buf, tok[0], tok[1]) || tok[1] - tok[0] > 6) {
                                throw TraceFormatException.atLine(file, line,
                                        "expected the number of traces (a lone integer) on the first significant line, found '"
                                                + text(buf, start, end).trim() + "'");
                            }
                            int traces = Integer.parseInt(new String(buf, tok[0], tok[1] - tok[0],
                                    java.nio.charset.StandardCharsets.US_ASCII));
                            if (traces < 1) {
                                throw TraceFormatException.atLine(file, line, "the number of traces must be at least 1, found " + traces);
                            }
                            headerSeen = true;
                            handler.header(traces, line);
                        } else {
                            if (count != 4) {
                                throw TraceFormatException.atLine(file, line,
                                        "expected 4 fields 'sender receiver send_seconds recv_seconds', found "
                                                + count + ": '" + text(buf, start, end).trim() + "'");
                            }
                            handler.message(buf, tok, line);
                        }
                    }
                    start = end + 1;
                    if (nl < 0) {
                        break;
                    }
                }
                if (start > 0) {
                    int rest = Math.max(0, filled - start);
                    System.arraycopy(buf, Math.min(start, filled), buf, 0, rest);
                    filled = rest;
                } else if (filled == buf.length) {
                    throw TraceFormatException.atLine(file, line + 1, "line longer than " + buf.length + " bytes");
                }
            }
        }
    }

    /** Splits [from, to) into at most 4 tokens; returns how many (5 = too many). */
    private static int tokenize(byte[] buf, int from, int to, int[] tok, Path file, long line) throws IOException {
        int count = 0;
        int i = from;
        while (i < to) {
            byte c = buf[i];
            if (c == ' ' || c == '\t' || c == '\r') {
                i++;
                continue;
            }
            if (c == '#') {
                break;
            }
            int s = i;
            while (i < to && buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r' && buf[i] != '#') {
                i++;
            }
            if (count == 4) {
                return 5;
            }
            tok[2 * count] = s;
            tok[2 * count + 1] = i;
            count++;
        }
        return count;
    }
}
