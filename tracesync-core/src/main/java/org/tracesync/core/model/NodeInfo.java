package org.tracesync.core.model;

import java.util.List;

/**
 * Who a trace is: the node name used in results, where it was read from, and the node's own
 * network addresses (textual, e.g. "10.0.0.1" or "fe80::1"), empty when unknown.
 */
public record NodeInfo(String name, String source, List<String> addresses) {
    public NodeInfo {
        addresses = List.copyOf(addresses);
    }

    public NodeInfo(String name, String source) {
        this(name, source, List.of());
    }
}
