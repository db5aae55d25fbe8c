package org.tracesync.cli;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;
import org.tracesync.formats.TraceFormatException;

/**
 * Checks that traces given with a result ({@code eval}, {@code report}) are the ones it was
 * computed from: every node name is one of the result's, and every message end lies inside the
 * span [start, end] the result records for its node (the same traces always satisfy this exactly:
 * a message end is an event of the trace). Traces of another run with the same node names (a
 * simulation with another seed, yesterday's captures) fall outside and are refused instead of
 * producing thousands of "inversions". Cost: two comparisons per message end.
 */
public final class TraceMembership {

    private final String resultName;
    private final SyncResult result;
    private final String[] names;
    private final long[] min;
    private final long[] max;

    /**
     * @param resultName     how messages name the result (its path)
     * @param traceNodeNames the traces' node names, in their message input's index order; all known to the result
     */
    public TraceMembership(String resultName, SyncResult result, List<String> traceNodeNames) {
        this.resultName = resultName;
        this.result = result;
        this.names = traceNodeNames.toArray(String[]::new);
        this.min = new long[names.length];
        this.max = new long[names.length];
        Arrays.fill(min, Long.MAX_VALUE);
        Arrays.fill(max, Long.MIN_VALUE);
    }

    /** Refuses node names the result does not know (exit 3 naming the result file). */
    static void checkNames(Path resultFile, SyncResult result, List<String> traceNodeNames) throws TraceFormatException {
        for (String n : traceNodeNames) {
            if (result.nodes().stream().noneMatch(r -> r.name().equals(n))) {
                throw new TraceFormatException(resultFile, "", "has no node '" + n + "' (its nodes: "
                        + result.nodes().stream().map(NodeResult::name).toList()
                        + "): not the result of these traces?");
            }
        }
    }

    /** {@code sink}, noting each message end's local time on the way. */
    public MessageSink watching(MessageSink sink) {
        return (sender, receiver, sendTime, recvTime) -> {
            note(sender, sendTime);
            note(receiver, recvTime);
            sink.message(sender, receiver, sendTime, recvTime);
        };
    }

    private void note(int node, long t) {
        if (t < min[node]) {
            min[node] = t;
        }
        if (t > max[node]) {
            max[node] = t;
        }
    }

    /** Refuses, after the messages were read, traces whose messages lie outside their nodes' recorded spans. */
    public void check() {
        for (int i = 0; i < names.length; i++) {
            if (min[i] > max[i]) {
                continue;
            }
            NodeResult n = result.node(names[i]);
            if (n.end() < n.start() || n.start() == 0 && n.end() == 0) {
                continue; // span unknown (the node had no messages)
            }
            if (min[i] < n.start() || max[i] > n.end()) {
                throw new CommandFailure(ExitCode.INPUT, resultName + ": node " + names[i] + ": messages at local times "
                        + min[i] + " … " + max[i] + " ns lie outside the span recorded for it (" + n.start() + " … "
                        + n.end() + "): not the traces this result was computed from");
            }
        }
    }
}
