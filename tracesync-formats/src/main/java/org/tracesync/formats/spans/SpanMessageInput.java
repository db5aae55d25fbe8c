package org.tracesync.formats.spans;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;

/**
 * Span files as matched messages (DESIGN §6c): hosts are the nodes, and every cross-host
 * constraint of {@link SpanConstraints} is one message from the earlier event to the later one.
 * Timestamps of resolution r (1 µs for Jaeger and Zipkin) are widened: the send time is moved r
 * earlier, so that the constraint still holds for the unknown true times within each quantum and
 * the bounds stay strict.
 *
 * <p>Two passes: {@link #nodes()} reads the files once to learn the hosts (the accumulators need
 * their number first); {@link #readMessages} reads them again and matches. Memory: the pending
 * tables, fixed by {@link SpanOptions#pendingCapacity()}.
 */
public final class SpanMessageInput implements MessageInput {

    private final SpanFiles files;
    private SpanHosts hosts;
    private List<NodeInfo> nodes;
    private SpanConstraints.Counts counts;
    private final List<java.util.function.LongSupplier> readers = new ArrayList<>();
    private final AtomicLong done = new AtomicLong();

    public SpanMessageInput(SpanFiles files) {
        this.files = files;
    }

    public SpanFiles files() {
        return files;
    }

    /** The hosts, reading the files once if not done yet. */
    public synchronized SpanHosts hosts() throws IOException {
        if (hosts == null) {
            SpanHosts h = new SpanHosts();
            files.read(h, s -> { }, this::track);
            hosts = h;
        }
        return hosts;
    }

    @Override
    public List<NodeInfo> nodes() {
        if (nodes == null) {
            try {
                SpanHosts h = hosts();
                List<NodeInfo> list = new ArrayList<>();
                for (SpanHosts.Host host : h.hosts()) {
                    list.add(new NodeInfo(host.name(), files.source()));
                }
                nodes = List.copyOf(list);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return nodes;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        constraints((kind, from, to, fromTime, toTime, res, hi, lo) -> sink.message(from, to, fromTime - res, toTime));
    }

    /**
     * Streams every constraint (raw times) into {@code sink}; host indices are those of
     * {@link #nodes()}. The resolution given is the coarsest of the two spans' format resolution and
     * their hosts' observed resolution ({@link SpanHosts#observedResolution}). Fails if the files now name a host not seen by the first pass.
     */
    public void constraints(ConstraintSink sink) throws IOException {
        SpanHosts known = hosts();
        SpanHosts h = new SpanHosts();
        long[] res = new long[known.size()];
        for (int i = 0; i < res.length; i++) {
            res[i] = known.observedResolution(i);
        }
        SpanConstraints c = new SpanConstraints(files.options().pendingCapacity(),
                (kind, from, to, fromTime, toTime, r, hi, lo) -> sink.constraint(kind, from, to, fromTime, toTime,
                        Math.max(r, Math.max(res[from], res[to])), hi, lo));
        files.read(h, c, this::track);
        c.finish();
        if (!h.names().equals(known.names())) {
            throw new IOException("span files changed between passes (hosts " + known.names() + " then " + h.names() + ")");
        }
        hosts = h;
        counts = c.counts();
    }

    /** Counters of the last {@link #readMessages} / {@link #constraints} pass, or null before one. */
    public SpanConstraints.Counts counts() {
        return counts;
    }

    private void track(java.util.function.LongSupplier r) {
        synchronized (readers) {
            for (java.util.function.LongSupplier old : readers) {
                done.addAndGet(old.getAsLong());
            }
            readers.clear();
            readers.add(r);
        }
    }

    /** Bytes read so far over all passes (a progress display compares it with twice the total size). */
    public long bytesRead() {
        synchronized (readers) {
            long sum = done.get();
            for (java.util.function.LongSupplier r : readers) {
                sum += r.getAsLong();
            }
            return sum;
        }
    }

    @Override
    public List<String> warnings() {
        List<String> w = new ArrayList<>();
        if (hosts != null) {
            hosts.fallbacks().forEach((by, n) -> w.add(n + " spans lacked --node-key " + files.options().nodeKey()
                    + " and were named by " + by));
            for (SpanHosts.Host host : hosts.hosts()) {
                if (!host.namedBy().equals("host.id") && !host.namedBy().equals("k8s.node.name")
                        && !host.namedBy().equals("host.name") && !host.namedBy().equals("hostname")
                        && !host.namedBy().equals("ip") && !host.namedBy().equals("ipv4") && !host.namedBy().equals("ipv6")
                        && !host.namedBy().equals(files.options().nodeKey())) {
                    w.add("host '" + host.name() + "' is named by " + host.namedBy()
                            + " (no host attribute): if services share a machine they share a clock; see --node-key");
                }
            }
        }
        if (counts != null) {
            SpanConstraints.Counts c = counts;
            w.add(String.format(java.util.Locale.ROOT,
                    "spans: %d read, %d caller/callee pairs (%d on one host, unused), %d constraints; "
                            + "%d server ends skipped (client not longer than its server, or a duration missing)",
                    c.spans(), c.pairs(), c.sameHost(), c.constraints(), c.endsSkipped()));
            if (c.missingStart() > 0) {
                w.add(c.missingStart() + " client/server/producer/consumer spans without a start time were skipped");
            }
            if (c.droppedCallees() > 0) {
                w.add(c.droppedCallees() + " server/consumer spans were dropped while waiting for their caller"
                        + " (more than " + files.options().pendingCapacity() + " waiting at once)");
            }
            if (c.unmatchedCallees() > 0) {
                w.add(c.unmatchedCallees() + " server/consumer spans have no client/producer in the files"
                        + (c.droppedCallers() > 0 ? " (or it was more than " + files.options().pendingCapacity()
                        + " callers earlier)" : ""));
            }
        }
        return w;
    }
}
