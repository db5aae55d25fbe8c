package org.tracesync.core.accumulate;

import java.util.Arrays;

/**
 * A growable sequence of longs kept in blocks of {@value #BLOCK}: appending never copies what is
 * already stored once the first block is full (the first block grows by doubling from 16, so a
 * short list costs little), so the memory allocated stays close to the memory used. Indexing is a
 * shift and a mask. O(1) amortized per append.
 */
final class LongBlockList {

    private static final int SHIFT = 15;
    static final int BLOCK = 1 << SHIFT;
    private static final int MASK = BLOCK - 1;

    private long[][] blocks = new long[0][];
    private int size;

    int size() {
        return size;
    }

    long get(int i) {
        return blocks[i >>> SHIFT][i & MASK];
    }

    void add(long x) {
        int b = size >>> SHIFT;
        int i = size & MASK;
        if (b == blocks.length) {
            blocks = Arrays.copyOf(blocks, Math.max(4, 2 * blocks.length));
        }
        long[] block = blocks[b];
        if (block == null) {
            block = new long[b == 0 ? 16 : BLOCK];
            blocks[b] = block;
        } else if (i == block.length) {
            block = Arrays.copyOf(block, Math.min(BLOCK, 2 * block.length)); // the first block only
            blocks[b] = block;
        }
        block[i] = x;
        size++;
    }

    /** Forgets the values from index {@code n} on. */
    void truncate(int n) {
        size = n;
    }
}
