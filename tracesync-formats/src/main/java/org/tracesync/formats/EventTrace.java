package org.tracesync.formats;

import java.io.IOException;
import java.util.List;
import org.tracesync.core.model.NodeInfo;

/** One opened trace of one node: who it is, and its events, readable any number of times. */
public interface EventTrace {

    /** Node name, source path, own addresses. */
    NodeInfo node();

    /**
     * A new pass over the trace's events, as node {@code node} of the set; {@code addresses} is the
     * pass's one address table (the traced nodes' addresses are already in it).
     */
    EventCursor cursor(int node, AddressTable addresses) throws IOException;

    /**
     * The coarsest step of the trace's timestamps, ns (1 for nanosecond timestamps). A timestamp t
     * stands for some instant in (t − r, t + r) — whether the recorder truncated, rounded or
     * ceiled — so the matching pipeline widens every message by it (send r earlier, receive r
     * later) and the corridor stays strict.
     */
    default long timestampResolution() throws IOException {
        return 1;
    }
}
