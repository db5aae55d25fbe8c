package org.tracesync.formats.pcap;

import java.util.List;
import java.util.Map;
import org.tracesync.core.matching.TcpMatcher;

/**
 * How to read a set of captures.
 *
 * @param names          node names, in file order (empty: the file stems)
 * @param nodeAddresses  per node name, its own addresses (overrides what the capture says)
 * @param window         matching window W in ns (see {@link TcpMatcher})
 * @param inferPackets   how many leading packets the address inference looks at
 * @param readerThread   read and decode the captures on a second thread while the calling one
 *                       matches (same results; default: when the JVM has more than one processor)
 */
public record CaptureOptions(List<String> names, Map<String, List<String>> nodeAddresses, long window,
                             int inferPackets, boolean readerThread) {
    public CaptureOptions {
        names = List.copyOf(names);
        nodeAddresses = Map.copyOf(nodeAddresses);
    }

    public static CaptureOptions defaults() {
        return new CaptureOptions(List.of(), Map.of(), TcpMatcher.DEFAULT_WINDOW_NS, 100_000,
                Runtime.getRuntime().availableProcessors() > 1);
    }

    public CaptureOptions withNames(List<String> n) {
        return new CaptureOptions(n, nodeAddresses, window, inferPackets, readerThread);
    }

    public CaptureOptions withNodeAddresses(Map<String, List<String>> a) {
        return new CaptureOptions(names, a, window, inferPackets, readerThread);
    }

    public CaptureOptions withWindow(long w) {
        return new CaptureOptions(names, nodeAddresses, w, inferPackets, readerThread);
    }

    public CaptureOptions withReaderThread(boolean on) {
        return new CaptureOptions(names, nodeAddresses, window, inferPackets, on);
    }
}
