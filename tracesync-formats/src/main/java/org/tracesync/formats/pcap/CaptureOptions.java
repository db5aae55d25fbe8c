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
 */
public record CaptureOptions(List<String> names, Map<String, List<String>> nodeAddresses, long window,
                             int inferPackets) {
    public CaptureOptions {
        names = List.copyOf(names);
        nodeAddresses = Map.copyOf(nodeAddresses);
    }

    public static CaptureOptions defaults() {
        return new CaptureOptions(List.of(), Map.of(), TcpMatcher.DEFAULT_WINDOW_NS, 100_000);
    }

    public CaptureOptions withNames(List<String> n) {
        return new CaptureOptions(n, nodeAddresses, window, inferPackets);
    }

    public CaptureOptions withNodeAddresses(Map<String, List<String>> a) {
        return new CaptureOptions(names, a, window, inferPackets);
    }

    public CaptureOptions withWindow(long w) {
        return new CaptureOptions(names, nodeAddresses, w, inferPackets);
    }
}
