package org.tracesync.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.SyncResult;

/**
 * Says when a node's messages cover a small part of its trace (the scp CTF pair: 46 messages in
 * 0.12 s of a 17 s trace): the estimate is pinned only there, and the bounds widen linearly away
 * from them — at the trace's ends they can be thousands of times wider than over the messages.
 * The warning gives the bounds at the trace's first and last events. Threshold: messages spanning
 * less than a quarter of a trace longer than one second. O(nodes).
 */
public final class MessageCoverage {

    static final double SMALL_SHARE = 0.25;
    static final long MIN_TRACE_NS = 1_000_000_000L;

    private MessageCoverage() {
    }

    /** One warning per node whose messages cover a small part of its trace; {@code spans}: node → {first, last} event. */
    public static List<String> warnings(SyncResult r, Map<String, long[]> spans) {
        List<String> out = new ArrayList<>();
        for (NodeResult n : r.nodes()) {
            long[] span = spans.get(n.name());
            if (span == null || n.end() <= n.start()) {
                continue;
            }
            long trace = span[1] - span[0];
            long messages = n.end() - n.start();
            if (trace < MIN_TRACE_NS || messages >= SMALL_SHARE * trace) {
                continue;
            }
            String w = String.format(Locale.ROOT, "%s: its messages cover %.3f s of its %.1f s trace (%.1f %%)", n.name(),
                    messages / 1e9, trace / 1e9, 100.0 * messages / trace);
            if (n.synchronizedToOther() && !n.bounds().isEmpty()) {
                double[] a = n.bounds().at(span[0]);
                double[] b = n.bounds().at(span[1]);
                w += ": away from them the bounds widen linearly, to " + SyncSummary.duration(a[0]) + " / "
                        + SyncSummary.duration(a[1]) + " at the trace's start and " + SyncSummary.duration(b[0]) + " / "
                        + SyncSummary.duration(b[1]) + " at its end";
            } else {
                w += ": the bounds of the nodes synchronized to it widen away from them";
            }
            out.add(w);
        }
        return out;
    }
}
