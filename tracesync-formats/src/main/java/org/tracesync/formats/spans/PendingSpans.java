package org.tracesync.formats.spans;

import java.util.Arrays;

/**
 * A bounded FIFO table of spans keyed by (trace id, span key), several entries per key allowed.
 * Entries live in a ring of {@code capacity} slots in insertion order; a hash index (bucket heads
 * and next links, all int arrays) finds them. When the ring wraps onto a live entry, that entry (the
 * oldest) is evicted and counted: a span stays findable for the next {@code capacity} insertions.
 *
 * <p>Cost: O(1) expected per insert, lookup and removal (chains are short: as many buckets as
 * slots); memory {@code capacity × 56} bytes, fixed at construction, never growing with the input.
 */
final class PendingSpans {

    /** {@link SpanKind#values()} once, for the per-span lookup: values() copies its array on every call. */
    private static final SpanKind[] SPAN_KINDS = SpanKind.values();

    private final int mask;
    private final long[] traceHi;
    private final long[] traceLo;
    private final long[] key;
    private final long[] start;
    private final long[] end;
    private final int[] host;
    private final byte[] kind;
    private final int[] resolution;
    private final boolean[] live;
    private final int[] next;
    private final int[] head;
    private int cursor;
    private long evicted;
    private int size;

    PendingSpans(int capacity) {
        int cap = Integer.highestOneBit(Math.max(16, capacity));
        if (cap < capacity) {
            cap <<= 1;
        }
        mask = cap - 1;
        traceHi = new long[cap];
        traceLo = new long[cap];
        key = new long[cap];
        start = new long[cap];
        end = new long[cap];
        host = new int[cap];
        kind = new byte[cap];
        resolution = new int[cap];
        live = new boolean[cap];
        next = new int[cap];
        head = new int[cap];
        Arrays.fill(head, -1);
    }

    private int bucket(long hi, long lo, long k) {
        long h = (lo * 0x9E3779B97F4A7C15L) ^ (k * 0xC2B2AE3D27D4EB4FL) ^ hi;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h >>> 32) & mask;
    }

    /** Adds {@code s} under key {@code k}; evicts the oldest entry when the ring is full. */
    void add(SpanRecord s, long k) {
        int slot = cursor;
        cursor = (cursor + 1) & mask;
        if (live[slot]) {
            unlink(slot);
            evicted++;
        }
        traceHi[slot] = s.traceHi;
        traceLo[slot] = s.traceLo;
        key[slot] = k;
        start[slot] = s.start;
        end[slot] = s.end;
        host[slot] = s.host;
        kind[slot] = (byte) s.kind.ordinal();
        resolution[slot] = (int) s.resolution;
        live[slot] = true;
        int b = bucket(s.traceHi, s.traceLo, k);
        next[slot] = head[b];
        head[b] = slot;
        size++;
    }

    /** The first live slot with this key at or after chain position {@code from} (-1 to start), or -1. */
    int find(long hi, long lo, long k, int after) {
        int i = after < 0 ? head[bucket(hi, lo, k)] : next[after];
        while (i >= 0) {
            if (key[i] == k && traceLo[i] == lo && traceHi[i] == hi) {
                return i;
            }
            i = next[i];
        }
        return -1;
    }

    /** Removes slot {@code i} (found by {@link #find}). */
    void remove(int i) {
        unlink(i);
    }

    private void unlink(int slot) {
        int b = bucket(traceHi[slot], traceLo[slot], key[slot]);
        int i = head[b];
        int prev = -1;
        while (i != slot) {
            prev = i;
            i = next[i];
        }
        if (prev < 0) {
            head[b] = next[slot];
        } else {
            next[prev] = next[slot];
        }
        live[slot] = false;
        size--;
    }

    /** Copies slot {@code i} into {@code into} (ids, host, kind, times, resolution). */
    void load(int i, SpanRecord into) {
        into.traceHi = traceHi[i];
        into.traceLo = traceLo[i];
        into.spanId = key[i];
        into.host = host[i];
        into.kind = SPAN_KINDS[kind[i]];
        into.start = start[i];
        into.end = end[i];
        into.resolution = resolution[i];
    }

    long evicted() {
        return evicted;
    }

    int size() {
        return size;
    }
}
