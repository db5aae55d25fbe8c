package org.tracesync.core.accumulate;

import java.util.Arrays;

/**
 * A growable sequence of longs kept in blocks of {@value #BLOCK}: appending never copies what is
 * already stored once the first block is full (the first block grows by doubling from 16, so a
 * short list costs little), so the memory allocated stays close to the memory used. Indexing is a
 * shift and a mask. O(1) amortized per append.
 *
 * <p>An append is one comparison and one store into the block being filled ({@code tail}, valid
 * below {@code limit}); every other case (the first block full, a new block, after a copy or a
 * truncation) is {@link #grow}, which the JIT compiles apart: a case first met late in a trace
 * (the first new block, after 32,768 values) no longer throws away the compiled sealing path.
 */
final class LongBlockList {

    private static final int SHIFT = 15;
    static final int BLOCK = 1 << SHIFT;
    private static final int MASK = BLOCK - 1;

    private long[][] blocks = new long[0][];
    private int size;
    // the block holding index size, valid for indices below limit (null and 0: to find, e.g. after a copy)
    private transient long[] tail;
    private transient int limit;

    int size() {
        return size;
    }

    long get(int i) {
        return blocks[i >>> SHIFT][i & MASK];
    }

    void add(long x) {
        if (size >= limit) {
            grow();
        }
        tail[size & MASK] = x;
        size++;
    }

    /** Makes {@code tail} the block of index {@code size} with room there: found, doubled (the first) or new. */
    private void grow() {
        int b = size >>> SHIFT;
        if (b >= blocks.length) {
            blocks = Arrays.copyOf(blocks, Math.max(Math.max(4, b + 1), 2 * blocks.length));
        }
        long[] block = blocks[b];
        if (block == null) {
            block = new long[b == 0 ? 16 : BLOCK];
            blocks[b] = block;
        } else if ((size & MASK) >= block.length) {
            block = Arrays.copyOf(block, Math.min(BLOCK, 2 * block.length)); // the first block only
            blocks[b] = block;
        }
        tail = block;
        limit = (b << SHIFT) + block.length;
    }

    /** Forgets the values from index {@code n} on. */
    void truncate(int n) {
        size = n;
        tail = null;
        limit = 0;
    }
}
