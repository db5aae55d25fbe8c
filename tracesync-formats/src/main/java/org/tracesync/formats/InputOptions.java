package org.tracesync.formats;

import java.util.List;
import java.util.Map;
import org.tracesync.core.matching.TcpMatcher;

/**
 * How to read a set of traces: node identity (captures), the matching window and limits, threads.
 *
 * @param names          node names of the captures, in input order (empty: the file stems)
 * @param nodeAddresses  per node name, its own addresses (overrides what the trace says)
 * @param window         matching window W in ns (see {@link TcpMatcher}), in coarsely corrected time
 * @param inferPackets   how many leading packets a capture's address inference looks at
 * @param readerThread   read and decode the traces on a second thread while the calling one
 *                       matches (same results; default: when the JVM has more than one processor)
 * @param maxKeys        the most keys the matcher holds at once (memory bound; default from the heap)
 * @param coarseOffsets  when the traces' first events are more than W/4 apart, estimate the clock
 *                       offsets from a sample of their first events before matching, and match in
 *                       coarsely corrected time when two clocks are more than W/4 apart (default on)
 */
public record InputOptions(List<String> names, Map<String, List<String>> nodeAddresses, long window,
                           int inferPackets, boolean readerThread, int maxKeys, boolean coarseOffsets) {
    public InputOptions {
        names = List.copyOf(names);
        nodeAddresses = Map.copyOf(nodeAddresses);
    }

    /**
     * Bytes of heap per key held by the matcher, at worst: a 64-byte ring entry in a ring that
     * doubles (128), the probe table at up to 32, and the old ring while it is copied.
     */
    private static final long BYTES_PER_KEY = 320;

    /** The default key limit: half the heap at {@value #BYTES_PER_KEY} bytes per key, at least 2^16. */
    public static int defaultMaxKeys() {
        long byHeap = Runtime.getRuntime().maxMemory() / 2 / BYTES_PER_KEY;
        return (int) Math.max(1 << 16, Math.min(1 << 30, byHeap));
    }

    public static InputOptions defaults() {
        return new InputOptions(List.of(), Map.of(), TcpMatcher.DEFAULT_WINDOW_NS, 100_000,
                Runtime.getRuntime().availableProcessors() > 1, defaultMaxKeys(), true);
    }

    public InputOptions withNames(List<String> n) {
        return new InputOptions(n, nodeAddresses, window, inferPackets, readerThread, maxKeys, coarseOffsets);
    }

    public InputOptions withNodeAddresses(Map<String, List<String>> a) {
        return new InputOptions(names, a, window, inferPackets, readerThread, maxKeys, coarseOffsets);
    }

    public InputOptions withWindow(long w) {
        return new InputOptions(names, nodeAddresses, w, inferPackets, readerThread, maxKeys, coarseOffsets);
    }

    public InputOptions withReaderThread(boolean on) {
        return new InputOptions(names, nodeAddresses, window, inferPackets, on, maxKeys, coarseOffsets);
    }

    public InputOptions withMaxKeys(int m) {
        return new InputOptions(names, nodeAddresses, window, inferPackets, readerThread, m, coarseOffsets);
    }

    public InputOptions withCoarseOffsets(boolean on) {
        return new InputOptions(names, nodeAddresses, window, inferPackets, readerThread, maxKeys, on);
    }
}
