package org.tracesync.core.latency;

/**
 * Stable sort of an {@code int[]} of record indices by a comparator over the records' columns
 * (no boxing): bottom-up merge sort, O(n log n) time, one scratch array of n ints.
 */
final class IndexSort {

    @FunctionalInterface
    interface IndexComparator {
        int compare(int a, int b);
    }

    private IndexSort() {
    }

    static void sort(int[] a, IndexComparator cmp) {
        int n = a.length;
        int[] src = a;
        int[] dst = new int[n];
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    dst[k++] = cmp.compare(src[i], src[j]) <= 0 ? src[i++] : src[j++];
                }
                while (i < mid) {
                    dst[k++] = src[i++];
                }
                while (j < hi) {
                    dst[k++] = src[j++];
                }
            }
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != a) {
            System.arraycopy(src, 0, a, 0, n);
        }
    }
}
