package org.tracesync.formats.ctf;

import java.io.IOException;
import java.util.List;

/**
 * The streams of one trace merged by time: the reader whose current event is the earliest (ties to
 * the lower stream index, i.e. the reader given first), through a binary heap of reader indices
 * keyed by their current timestamps, kept in a {@code long[]} so that no comparison calls into a
 * reader. Cost: O(log s) per event for s streams, nothing allocated per event.
 */
final class StreamMerge {

    private final CtfStreamReader[] readers;
    private final long[] time;
    private final int[] heap;
    private int size;

    /** Moves every reader to its first event; {@code readers} are in stream order. */
    StreamMerge(List<CtfStreamReader> readers) throws IOException {
        this.readers = readers.toArray(new CtfStreamReader[0]);
        time = new long[this.readers.length];
        heap = new int[this.readers.length];
        for (int i = 0; i < this.readers.length; i++) {
            if (this.readers[i].advance()) {
                time[i] = this.readers[i].timestamp();
                heap[size] = i;
                siftUp(size++);
            }
        }
    }

    /** The reader on the earliest event, or null when every stream has ended. */
    CtfStreamReader head() {
        return size == 0 ? null : readers[heap[0]];
    }

    /** Moves the head's reader to its next event and restores the order. */
    void next() throws IOException {
        int r = heap[0];
        if (readers[r].advance()) {
            time[r] = readers[r].timestamp();
        } else {
            heap[0] = heap[--size];
        }
        if (size > 1) {
            siftDown(0);
        }
    }

    private boolean before(int a, int b) {
        return time[a] < time[b] || (time[a] == time[b] && a < b);
    }

    private void siftUp(int k) {
        int x = heap[k];
        while (k > 0) {
            int parent = (k - 1) >>> 1;
            if (!before(x, heap[parent])) {
                break;
            }
            heap[k] = heap[parent];
            k = parent;
        }
        heap[k] = x;
    }

    private void siftDown(int k) {
        int x = heap[k];
        int half = size >>> 1;
        while (k < half) {
            int child = 2 * k + 1;
            int right = child + 1;
            if (right < size && before(heap[right], heap[child])) {
                child = right;
            }
            if (!before(heap[child], x)) {
                break;
            }
            heap[k] = heap[child];
            k = child;
        }
        heap[k] = x;
    }
}
