package org.tracesync.core.matching;

/**
 * How much the 60 s window's memory costs the matching half, by its size (docs/PERFORMANCE.md,
 * "Captures, twelfth session"): the memory pattern of {@link MinimalMatcher} (one probe per event
 * into a linear-probing table with the block's hash, one record per key appended to a ring, keys
 * removed in first-event order by backward shift, the run's home slots and the removals' slots
 * read ahead), with a ring record of 4 or 8 longs and a table of 1, 2 or 4 slots per record, so
 * that the footprint changes while the work stays the same (records sized once for the peak,
 * rounded up to a power of two: 1,048,576 records on the benchmark set, 40 to 96 MB with the
 * table). Not a matcher to use: it keeps only the key, the first time and the two sides' counts
 * (no times, nodes or pair update), enough for the same keys to be messages.
 */
public final class FootprintMatcher {

    private static final int RUN = 128;
    private final long window;
    private final long[] slots;
    private final int mask;
    private final long[] ring;
    private final int ringMask;
    private final int shift;
    private long head;
    private long tail;
    private long now = Long.MIN_VALUE;
    private long t0 = Long.MIN_VALUE;
    private long matched;
    long reads;

    /**
     * {@code capacity}: at least the most keys live at once; {@code stride}: longs per record (4 or
     * 8); {@code slotFactor}: table slots per record.
     */
    public FootprintMatcher(long window, int capacity, int stride, int slotFactor) {
        this.window = window;
        int records = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        shift = stride == 4 ? 2 : 3;
        ring = new long[records << shift];
        ringMask = records - 1;
        slots = new long[records * slotFactor];
        mask = slots.length - 1;
    }

    private int rec(long id) {
        return ((int) id & ringMask) << shift;
    }

    public void match(EventBlock block) {
        int[] info = block.info;
        int[] hash = block.hash;
        long[] time = block.time;
        long[] a = block.a;
        long[] b = block.b;
        long[] c = block.c;
        for (int start = 0, n = block.size; start < n; start += RUN) {
            int end = Math.min(n, start + RUN);
            long read = 0;
            for (int i = start; i < end; i++) {
                read += slots[hash[i] & mask];
            }
            if (t0 == Long.MIN_VALUE) {
                t0 = time[start];
            }
            long limit = time[end - 1] - t0 - window;
            for (long id = head, stop = Math.min(tail, head + RUN); id < stop; id++) {
                int e = rec(id);
                if ((ring[e + 3] >> 8) >= limit) {
                    break;
                }
                read += slots[KeyWindow.tableHash(ring[e], ring[e + 1], ring[e + 2]) & mask];
            }
            reads += read;
            for (int i = start; i < end; i++) {
                step(EventBlock.send(info[i]), time[i], a[i], b[i], c[i], hash[i]);
            }
        }
    }

    /** The record's fourth long: the first time (relative to the stream's) above 8 bits of counts. */
    private void step(boolean send, long time, long a, long b, long c, int h) {
        if (time > now) {
            now = time;
            long limit = time - t0 - window;
            while (head < tail && (ring[rec(head) + 3] >> 8) < limit) {
                decideHead();
            }
        }
        int i = h & mask;
        int e;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                long id = tail++;
                e = rec(id);
                ring[e] = a;
                ring[e + 1] = b;
                ring[e + 2] = c;
                ring[e + 3] = (time - t0) << 8;
                slots[i] = (long) h << 32 | (id & 0xffff_ffffL);
                break;
            }
            if ((int) (s >>> 32) == h) {
                e = rec(s);
                if (ring[e] == a && ring[e + 1] == b && ring[e + 2] == c) {
                    break;
                }
            }
            i = (i + 1) & mask;
        }
        ring[e + 3] += send ? 1 : 16;
    }

    private void decideHead() {
        int e = rec(head);
        if ((ring[e + 3] & 0xff) == 17) { // sent once, received once
            matched++;
        }
        MinimalMatcher.removeSlot(slots, mask, KeyWindow.tableHash(ring[e], ring[e + 1], ring[e + 2]), head);
        head++;
    }

    public void finish() {
        while (head < tail) {
            decideHead();
        }
    }

    public long matched() {
        return matched;
    }
}
