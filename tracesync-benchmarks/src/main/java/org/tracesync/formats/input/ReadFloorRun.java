package org.tracesync.formats.input;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.EventTrace;
import org.tracesync.formats.InputOptions;

/**
 * The floor of the capture reading half against today's (docs/PERFORMANCE.md, "Captures, ninth
 * session"), alternated in one process, CPU time of the calling thread per packet, medians of
 * rounds 2..ROUNDS. The floor ({@code minimal}) does only what reading must do for the set of
 * {@code CaptureLargeSet} (little-endian nanosecond pcap, untagged Ethernet, IPv4 without
 * options, TCP): walk the mapped files' record headers, load the 54 header bytes as 8-byte words,
 * pack the matcher's key and its hash into a block (direction from the source address), and merge
 * the files by time (the least of the heads). It checks nothing a real reader checks (lengths,
 * link types, other protocols, bounds beyond the buffer's own), keeps no statistics and takes the
 * addresses' last byte as their id: a floor, not a reader. {@code heap}, {@code mapped},
 * {@code direct}: {@link MergedEventReader} filling blocks, as {@code TraceStageRun}'s reading half,
 * its captures read through heap buffers, mapped windows or a direct buffer
 * ({@code tracesync.capture.window}; {@code -Dtracesync.capture.windowBytes=N} sets the size of
 * both windows). {@code windowed}: the floor's decoding over windows mapped and unmapped as the
 * reader's are (the floor of a reader whose memory stays flat: the kernel's work on the pages
 * included).
 *
 * <pre>java -Xmx1g -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.formats.input.ReadFloorRun ROUNDS CAPTURE...</pre>
 */
public final class ReadFloorRun {

    private ReadFloorRun() {
    }

    public static void main(String[] args) throws IOException {
        int rounds = Integer.parseInt(args[0]);
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            files.add(Path.of(args[i]));
        }
        ByteBuffer[] maps = new ByteBuffer[files.size()];
        for (int i = 0; i < maps.length; i++) {
            try (FileChannel ch = FileChannel.open(files.get(i), StandardOpenOption.READ)) {
                MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, ch.size());
                m.load();
                maps[i] = m.order(ByteOrder.BIG_ENDIAN);
            }
        }
        InputOptions opts = InputOptions.defaults();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        // "today" in each of the capture windows (CaptureWindow: heap buffers, mapped windows, a direct buffer)
        String[] names = {"minimal", "viaHeap", "heap", "mapped", "direct", "windowed"};
        int kinds = names.length;
        double[][] ns = new double[kinds][rounds];
        long[] events = new long[kinds];
        long[] check = new long[kinds];
        String window = System.getProperty("tracesync.capture.window");
        // -Dvariants=a,b: only those (one window kind alone, no other class of buffer in the process)
        List<String> only = List.of(System.getProperty("variants", "").split(",")).stream()
                .filter(x -> !x.isEmpty()).toList();
        for (int k = 0; k < rounds; k++) {
            for (int turn = 0; turn < kinds; turn++) {
                int v = (turn + k) % kinds;
                if (!only.isEmpty() && !only.contains(names[v])) {
                    continue;
                }
                EventBlock block = new EventBlock(EventBlock.DEFAULT_CAPACITY);
                long start = cpu.getCurrentThreadCpuTime();
                long n;
                long sum = 0;
                if (v == 0) {
                    n = minimal(maps, block);
                } else if (v == 1) {
                    n = viaHeap(files, block);
                } else if (v == 5) {
                    n = windowed(files, block, Integer.getInteger("tracesync.capture.windowBytes", 1 << 20));
                } else {
                    System.setProperty("tracesync.capture.window", names[v]);
                    List<EventTrace> traces = TraceStageRun.open(files, opts);
                    List<NodeInfo> nodes = traces.stream().map(EventTrace::node).toList();
                    try (MergedEventReader in = new MergedEventReader(traces, MergedTraceInput.addressTable(nodes),
                            new long[nodes.size()], Long.MAX_VALUE)) {
                        boolean more;
                        do {
                            block.clear();
                            more = in.fill(block);
                            sum += block.size() == 0 ? 0 : block.time(block.size() - 1);
                        } while (more);
                        n = in.events;
                    }
                }
                ns[v][k] = (cpu.getCurrentThreadCpuTime() - start) / (double) n;
                events[v] = n;
                check[v] = sum;
            }
            StringBuilder line = new StringBuilder("round " + (k + 1) + ":");
            for (int v = 0; v < kinds; v++) {
                line.append(String.format(" %s %.1f |", names[v], ns[v][k]));
            }
            System.out.println(line + " ns CPU per packet | load "
                    + java.nio.file.Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        }
        if (window == null) {
            System.clearProperty("tracesync.capture.window");
        } else {
            System.setProperty("tracesync.capture.window", window);
        }
        for (int v = 0; v < kinds; v++) {
            double[] r = Arrays.copyOfRange(ns[v], Math.min(1, rounds - 1), rounds);
            Arrays.sort(r);
            System.out.printf("  %-8s %6.1f (%.1f-%.1f) ns per packet, %d packets%n", names[v],
                    r[r.length / 2], r[0], r[r.length - 1], events[v]);
        }
        for (int v = 3; v < 5; v++) {
            double[] q = new double[rounds - 1];
            for (int k = 1; k < rounds; k++) {
                q[k - 1] = ns[v][k] / ns[2][k];
            }
            Arrays.sort(q);
            System.out.printf("  %s / heap: %.3f (rounds %.3f-%.3f)%n", names[v], q[q.length / 2], q[0], q[q.length - 1]);
        }
        if (only.isEmpty() && (check[2] != check[3] || check[2] != check[4] || events[2] != events[3] || events[2] != events[4])) {
            throw new IllegalStateException("the windows read different events");
        }
    }

    /** The floor: every packet of the mapped captures merged by time into blocks; returns the packets. */
    static long minimal(ByteBuffer[] maps, EventBlock block) {
        int n = maps.length;
        int[] pos = new int[n];
        long[] head = new long[n];
        int[] own = new int[n];
        for (int i = 0; i < n; i++) {
            pos[i] = 24;
            head[i] = timeAt(maps[i], 24);
            own[i] = i + 1; // CaptureLargeSet: node i is 10.9.0.(i + 1)
        }
        long packets = 0;
        while (true) {
            int next = earliest(head);
            if (next < 0) {
                return packets;
            }
            long best = head[next];
            ByteBuffer m = maps[next];
            int p = addRecord(m, pos[next], next, own[next], best, block);
            packets++;
            pos[next] = p;
            head[next] = p < m.limit() ? timeAt(m, p) : Long.MAX_VALUE;
        }
    }

    /**
     * The floor's decoding over the files read as today's reader reads them: 128 KB heap windows
     * filled by {@code FileChannel.read} (the kernel's copy and the JDK's), so that the difference
     * from {@link #minimal} is the cost of those copies and of refilling.
     */
    static long viaHeap(List<Path> files, EventBlock block) throws IOException {
        int n = files.size();
        FileChannel[] ch = new FileChannel[n];
        ByteBuffer[] buf = new ByteBuffer[n];
        long[] head = new long[n];
        try {
            for (int i = 0; i < n; i++) {
                ch[i] = FileChannel.open(files.get(i), StandardOpenOption.READ);
                buf[i] = ByteBuffer.wrap(new byte[1 << 17]).order(ByteOrder.BIG_ENDIAN);
                buf[i].limit(0);
                head[i] = refill(ch[i], buf[i], 24) ? timeAt(buf[i], buf[i].position() + 24) : Long.MAX_VALUE;
                buf[i].position(buf[i].position() + 24);
            }
            long packets = 0;
            while (true) {
                int next = earliest(head);
                if (next < 0) {
                    return packets;
                }
                long best = head[next];
                ByteBuffer m = buf[next];
                m.position(addRecord(m, m.position(), next, next + 1, best, block));
                packets++;
                head[next] = refill(ch[next], m, 16) ? timeAt(m, m.position()) : Long.MAX_VALUE;
                if (head[next] != Long.MAX_VALUE) {
                    int len = Integer.reverseBytes(m.getInt(m.position() + 8));
                    if (!refill(ch[next], m, 16 + len)) {
                        head[next] = Long.MAX_VALUE;
                    }
                }
            }
        } finally {
            for (FileChannel c : ch) {
                if (c != null) {
                    c.close();
                }
            }
        }
    }

    /**
     * The floor's decoding over the files mapped as today's reader maps them: windows of
     * {@code size} bytes mapped when reached and unmapped ({@code invokeCleaner}) once passed, a
     * record that straddles two mapped again from its start, so that the difference from
     * {@link #minimal} (whose files were mapped and loaded before it was timed) is the kernel's
     * work on the pages (faults, unmapping) and the window's bookkeeping: the floor of a reader
     * whose memory stays flat.
     */
    static long windowed(List<Path> files, EventBlock block, int size) throws IOException {
        int n = files.size();
        FileChannel[] ch = new FileChannel[n];
        ByteBuffer[] win = new ByteBuffer[n];
        long[] base = new long[n];
        long[] end = new long[n];
        long[] pos = new long[n];
        long[] head = new long[n];
        try {
            for (int i = 0; i < n; i++) {
                ch[i] = FileChannel.open(files.get(i), StandardOpenOption.READ);
                end[i] = ch[i].size();
                pos[i] = 24;
                head[i] = recordAhead(ch, win, base, end, pos, i, size);
            }
            long packets = 0;
            while (true) {
                int next = earliest(head);
                if (next < 0) {
                    return packets;
                }
                int p = (int) (pos[next] - base[next]);
                pos[next] += addRecord(win[next], p, next, next + 1, head[next], block) - p;
                packets++;
                head[next] = recordAhead(ch, win, base, end, pos, next, size);
            }
        } finally {
            for (int i = 0; i < n; i++) {
                unmap(win[i]);
                if (ch[i] != null) {
                    ch[i].close();
                }
            }
        }
    }

    /** Maps file i's window so that the record at pos[i] lies wholly within it; its time, or Long.MAX_VALUE at the end. */
    private static long recordAhead(FileChannel[] ch, ByteBuffer[] win, long[] base, long[] end, long[] pos, int i,
                                    int size) throws IOException {
        if (pos[i] + 16 > end[i]) {
            return Long.MAX_VALUE;
        }
        if (win[i] == null || pos[i] + 16 > base[i] + win[i].limit()) {
            remap(ch, win, base, end, pos, i, size, 16);
        }
        int p = (int) (pos[i] - base[i]);
        int len = 16 + Integer.reverseBytes(win[i].getInt(p + 8));
        if (pos[i] + len > end[i]) {
            return Long.MAX_VALUE;
        }
        if (pos[i] + len > base[i] + win[i].limit()) {
            remap(ch, win, base, end, pos, i, size, len);
            p = 0;
        }
        return timeAt(win[i], p);
    }

    private static void remap(FileChannel[] ch, ByteBuffer[] win, long[] base, long[] end, long[] pos, int i, int size,
                              int need) throws IOException {
        unmap(win[i]);
        win[i] = ch[i].map(FileChannel.MapMode.READ_ONLY, pos[i], Math.min(Math.max(size, need), end[i] - pos[i]))
                .order(ByteOrder.BIG_ENDIAN);
        base[i] = pos[i];
    }

    private static final sun.misc.Unsafe UNSAFE = unsafe();

    private static sun.misc.Unsafe unsafe() {
        try {
            java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void unmap(ByteBuffer b) {
        if (b != null) {
            UNSAFE.invokeCleaner(b);
        }
    }

    /** The file whose next record is the earliest (the first of equal ones), or −1 when every file has ended (Long.MAX_VALUE). */
    private static int earliest(long[] head) {
        int next = -1;
        long best = Long.MAX_VALUE;
        for (int i = 0; i < head.length; i++) {
            if (head[i] < best) {
                best = head[i];
                next = i;
            }
        }
        return next;
    }

    /**
     * Decodes the record at {@code p} of {@code m} (an Ethernet/IPv4/TCP packet of the set, its
     * header words only: nothing checked) into {@code block} as node {@code node}'s event at
     * {@code time}, sent when its source address's last byte is {@code own}; returns the next
     * record's position.
     */
    private static int addRecord(ByteBuffer m, int p, int node, int own, long time, EventBlock block) {
        int incl = Integer.reverseBytes(m.getInt(p + 8));
        int q = p + 16; // Ethernet
        long ipWord = m.getLong(q + 14 + 8); // ttl, protocol, checksum, source address
        long dst = m.getLong(q + 14 + 16); // destination address, ports
        long seqAck = m.getLong(q + 14 + 24); // sequence and acknowledgement numbers
        long flagsWin = m.getLong(q + 14 + 32); // offset, flags, window, checksum
        int totalLength = m.getShort(q + 14 + 2) & 0xffff;
        int src = (int) ipWord & 0xff;
        int dstAddr = (int) (dst >>> 32) & 0xff;
        long ka = (long) src << 48 | (long) dstAddr << 32 | ((int) dst & 0xffffffffL);
        long kc = (flagsWin >>> 48 & 0x1ff) << 32 | ((totalLength - 40) & 0xffffffffL);
        if (block.isFull()) {
            block.clear();
        }
        block.addPacked(node, src == own, time, ka, seqAck, kc);
        return q + incl;
    }

    /** Makes {@code need} bytes available from the buffer's position (compacting and reading); false at the end. */
    private static boolean refill(FileChannel ch, ByteBuffer m, int need) throws IOException {
        if (m.remaining() >= need) {
            return true;
        }
        m.compact();
        while (m.position() < need) {
            if (ch.read(m) < 0) {
                break;
            }
        }
        m.flip();
        return m.remaining() >= need;
    }

    private static long timeAt(ByteBuffer m, int p) {
        long w = Long.reverseBytes(m.getLong(p)); // seconds | nanoseconds, little-endian
        return (w & 0xffffffffL) * 1_000_000_000L + (w >>> 32);
    }
}
