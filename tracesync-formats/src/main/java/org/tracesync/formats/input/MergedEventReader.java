package org.tracesync.formats.input;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;
import org.tracesync.formats.EventTrace;

/**
 * The reading half of {@link MergedTraceInput}: one cursor per trace, merged by corrected time
 * (local time minus the trace's coarse clock offset; a binary heap over the traces, or a scan of
 * their times when there are at most {@value #LINEAR_MAX}; ties to the lower index), each event
 * handed to its cursor to append to an {@link EventBlock}. It touches no matcher state, so it can
 * run on a thread of its own.
 *
 * <p>Cost: O(log k) per event for k traces (O(k), k &le; {@value #LINEAR_MAX}, by the scan) plus
 * the cursors' decoding; memory: the cursors' buffers.
 */
final class MergedEventReader implements Closeable {

    private final EventCursor[] cursors;
    private final long[] offset;
    /**
     * Min-heap of trace indices by current corrected timestamp; with at most {@value #LINEAR_MAX}
     * traces, the live trace indices in increasing order.
     */
    private final int[] heap;
    private final long[] current;
    private int size;
    private final long[] last;
    /** Each trace's first event time (local ns), or Long.MIN_VALUE when it has none. */
    private final long[] first;
    /** Stop a trace after this many events (the coarse-offset sample); Long.MAX_VALUE: never. */
    private final long perTraceLimit;
    private final boolean limited;
    private final long[] taken;
    /**
     * At most {@value #LINEAR_MAX} traces: {@link #heap} holds the live traces in index order and
     * the next one is found by a scan ({@link #fillLinear}) instead of a heap.
     */
    private final boolean linear;
    /** Traces up to which the scan replaces the heap. */
    static final int LINEAR_MAX = 4;

    volatile long eventsRead;
    long events;
    long keyEvents;
    long otherEvents;
    long broadcastDatagrams;
    long backwardTimestamps;

    /**
     * Opens a cursor on every trace. {@code offsets[i]} (ns) is subtracted from trace i's times;
     * {@code perTraceLimit} ends a trace after that many events.
     */
    MergedEventReader(List<EventTrace> traces, AddressTable addresses, long[] offsets, long perTraceLimit)
            throws IOException {
        this(traces, addresses, offsets, perTraceLimit, traces.size() <= LINEAR_MAX);
    }

    /** As above, merging by a scan of the traces' times ({@code linear}) or by the heap, whatever their number. */
    MergedEventReader(List<EventTrace> traces, AddressTable addresses, long[] offsets, long perTraceLimit,
                      boolean linear) throws IOException {
        int k = traces.size();
        cursors = new EventCursor[k];
        heap = new int[k];
        current = new long[k];
        last = new long[k];
        first = new long[k];
        java.util.Arrays.fill(first, Long.MIN_VALUE);
        taken = new long[k];
        liveTime = new long[k];
        liveOffset = new long[k];
        liveLast = new long[k];
        liveCursor = new EventCursor[k];
        this.offset = offsets.clone();
        this.perTraceLimit = perTraceLimit;
        this.limited = perTraceLimit != Long.MAX_VALUE;
        this.linear = linear;
        try {
            for (int i = 0; i < k; i++) {
                cursors[i] = traces.get(i).cursor(i, addresses);
            }
            for (int i = 0; i < k; i++) {
                if (cursors[i].advance()) {
                    current[i] = cursors[i].time() - offset[i];
                    last[i] = cursors[i].time();
                    first[i] = last[i];
                    heap[size++] = i;
                    if (!linear) {
                        siftUp(size - 1);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Trace i's first and last event times (local ns) read so far, {first, last}; null when it
     * had no event. "Last" is the latest read, which is the maximum unless times went backwards.
     */
    long[] span(int i) {
        return first[i] == Long.MIN_VALUE ? null : new long[] {first[i], last[i]};
    }

    /**
     * Appends events to {@code block} until it is full or the traces end; returns false when
     * they have ended (the block may still hold their last events). A file cut during the read
     * ends it in the input error naming that file ({@link #inputFault}).
     */
    boolean fill(EventBlock block) throws IOException {
        try {
            return linear ? fillLinear(block) : fillHeap(block);
        } catch (InternalError e) {
            throw inputFault(e);
        }
    }

    /**
     * The input error that explains {@code fault}, the JVM's InternalError for a load by address
     * that faulted (a mapped capture cut during the read; raised where the thread next polls, so
     * anywhere in the merge): the first cursor whose file changed, else the first whose reads can
     * fault. Rethrows {@code fault} when no cursor explains it.
     */
    IOException inputFault(InternalError fault) throws IOException {
        for (boolean changedOnly : new boolean[] {true, false}) {
            for (EventCursor c : cursors) {
                IOException e = c == null ? null : c.inputFault(fault, changedOnly);
                if (e != null) {
                    return e;
                }
            }
        }
        throw fault;
    }

    /** {@link #fill} by the heap of the traces' times. */
    private boolean fillHeap(EventBlock block) throws IOException {
        // counts in locals (written back on every exit), and kept without branches: which cursor
        // comes next, what kind of event it was and whether its time went back are not predictable
        long events = this.events;
        long keys = keyEvents;
        long broadcasts = broadcastDatagrams;
        long backward = backwardTimestamps;
        try {
            while (size > 0) {
                if (block.isFull()) {
                    return true;
                }
                int node = heap[0];
                EventCursor c = cursors[node];
                events++;
                int kind = c.emit(block, node, current[node]);
                keys += kind == EventCursor.KEY ? 1 : 0;
                broadcasts += kind == EventCursor.BROADCAST ? 1 : 0;
                if ((!limited || ++taken[node] < perTraceLimit) && c.advance()) {
                    long t = c.time();
                    backward += t < last[node] ? 1 : 0;
                    last[node] = t;
                    current[node] = t - offset[node];
                    siftDown();
                } else {
                    heap[0] = heap[--size];
                    siftDown();
                }
            }
            return false;
        } finally {
            this.events = events;
            eventsRead = events;
            keyEvents = keys;
            broadcastDatagrams = broadcasts;
            otherEvents = events - keys - broadcasts;
            backwardTimestamps = backward;
        }
    }

    /**
     * {@link #fill} for a few traces (the usual two to four captures): {@link #heap} lists the
     * live traces in index order, and the next event is the live trace with the smallest corrected
     * time, the lowest index on ties: the heap's order, found by one pass of independent loads
     * and conditional moves over those few times instead of the heap's chain of dependent loads
     * (heap slot, then its time) and swaps. The times, cursors, offsets and last times are copied
     * into arrays by position in that list for the block ({@link #byPosition}), so that the pass
     * and the chosen trace's step load them without first loading the trace's index.
     */
    private boolean fillLinear(EventBlock block) throws IOException {
        long events = this.events;
        long keys = keyEvents;
        long broadcasts = broadcastDatagrams;
        long backward = backwardTimestamps;
        int[] live = heap;
        int n = size;
        long[] time = liveTime;
        long[] off = liveOffset;
        long[] lastTime = liveLast;
        EventCursor[] cursor = liveCursor;
        byPosition(n);
        try {
            while (n > 0) {
                if (block.isFull()) {
                    return true;
                }
                int j = 0;
                long best = time[0];
                for (int q = 1; q < n; q++) {
                    long t = time[q];
                    boolean lt = t < best; // strict: an equal time keeps the lower index
                    j = lt ? q : j;
                    best = lt ? t : best;
                }
                int node = live[j];
                EventCursor c = cursor[j];
                events++;
                int kind = c.emit(block, node, best);
                keys += kind == EventCursor.KEY ? 1 : 0;
                broadcasts += kind == EventCursor.BROADCAST ? 1 : 0;
                if ((!limited || ++taken[node] < perTraceLimit) && c.advance()) {
                    long t = c.time();
                    backward += t < lastTime[j] ? 1 : 0;
                    lastTime[j] = t;
                    time[j] = t - off[j];
                } else {
                    last[node] = lastTime[j]; // an ended trace's: the write-back below covers the live ones
                    current[node] = time[j];
                    n--;
                    System.arraycopy(live, j + 1, live, j, n - j);
                    System.arraycopy(time, j + 1, time, j, n - j);
                    System.arraycopy(off, j + 1, off, j, n - j);
                    System.arraycopy(lastTime, j + 1, lastTime, j, n - j);
                    System.arraycopy(cursor, j + 1, cursor, j, n - j);
                }
            }
            return false;
        } finally {
            for (int q = 0; q < n; q++) {
                current[live[q]] = time[q];
                last[live[q]] = lastTime[q];
            }
            size = n;
            this.events = events;
            eventsRead = events;
            keyEvents = keys;
            broadcastDatagrams = broadcasts;
            otherEvents = events - keys - broadcasts;
            backwardTimestamps = backward;
        }
    }

    /** The live traces' times, offsets, last times and cursors copied by position in {@link #heap}, for {@link #fillLinear}. */
    private final long[] liveTime;
    private final long[] liveOffset;
    private final long[] liveLast;
    private final EventCursor[] liveCursor;

    private void byPosition(int n) {
        for (int q = 0; q < n; q++) {
            int node = heap[q];
            liveTime[q] = current[node];
            liveOffset[q] = offset[node];
            liveLast[q] = last[node];
            liveCursor[q] = cursors[node];
        }
    }

    /** Bytes read so far over every trace, or -1 when some cursor cannot tell. */
    long bytesRead() {
        long sum = 0;
        for (EventCursor c : cursors) {
            long b = c == null ? -1 : c.bytesRead();
            if (b < 0) {
                return -1;
            }
            sum += b;
        }
        return sum;
    }

    /** The cursors' notes, prefixed by nothing (they name their files). */
    List<String> warnings() {
        List<String> w = new ArrayList<>();
        for (EventCursor c : cursors) {
            if (c != null) {
                w.addAll(c.warnings());
            }
        }
        return w;
    }

    private void siftUp(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (less(heap[i], heap[parent])) {
                int t = heap[i];
                heap[i] = heap[parent];
                heap[parent] = t;
                i = parent;
            } else {
                return;
            }
        }
    }

    /**
     * Restores the heap after its root changed. Every level is visited and the swap done by
     * conditional moves: below a level where no swap is needed the subtree is already a heap, so
     * the remaining levels swap nothing (for the usual two to three traces, one level, no branch
     * on the times).
     */
    private void siftDown() {
        int[] heap = this.heap;
        int i = 0;
        for (int l = 1; l < size; l = 2 * i + 1) {
            int m = l + 1 < size && less(heap[l + 1], heap[l]) ? l + 1 : l;
            int hm = heap[m];
            int hi = heap[i];
            boolean swap = less(hm, hi);
            heap[i] = swap ? hm : hi;
            heap[m] = swap ? hi : hm;
            i = m;
        }
    }

    private boolean less(int a, int b) {
        long ta = current[a];
        long tb = current[b];
        return ta < tb | (ta == tb & a < b);
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        for (EventCursor c : cursors) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
