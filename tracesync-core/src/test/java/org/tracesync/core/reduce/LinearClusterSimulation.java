package org.tracesync.core.reduce;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.tracesync.core.model.Message;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;

/**
 * Test-side generator: nodes with linear clocks {@code local(T) = T + offset + drift·(T − T0)} at
 * epoch magnitudes, links with a minimum latency per direction plus an exponential tail.
 */
final class LinearClusterSimulation implements MessageInput {

    static final long T0 = 1_700_000_000_000_000_000L;

    final long[] offset;
    final double[] drift;
    final List<Message> messages = new ArrayList<>();
    private final List<NodeInfo> nodes = new ArrayList<>();

    LinearClusterSimulation(int n, SplittableRandom r) {
        offset = new long[n];
        drift = new double[n];
        for (int i = 0; i < n; i++) {
            offset[i] = i == 0 ? 0 : r.nextLong(-3_000_000_000L, 3_000_000_000L); // up to seconds
            drift[i] = i == 0 ? 0 : r.nextDouble(-100e-6, 100e-6); // ±100 ppm
            nodes.add(new NodeInfo("n" + i, "sim"));
        }
    }

    long local(int node, long trueTime) {
        return trueTime + offset[node] + Math.round(drift[node] * (double) (trueTime - T0));
    }

    /** local_ref(T(t)) − t for a local time t of {@code node}: the true correction onto {@code ref}. */
    double trueCorrection(int node, int ref, long t) {
        double tau = (double) (t - offset[node] - T0) / (1 + drift[node]);
        return -offset[node] - drift[node] * tau + offset[ref] + drift[ref] * tau;
    }

    /** Adds {@code count} messages each way over the link (a, b), spread over {@code duration} ns. */
    void link(SplittableRandom r, int a, int b, int count, long duration, long minAB, long minBA, double tailMean) {
        for (int k = 0; k < 2 * count; k++) {
            boolean forward = k % 2 == 0;
            int s = forward ? a : b;
            int d = forward ? b : a;
            long send = T0 + r.nextLong(duration);
            long latency = (forward ? minAB : minBA) + (long) (-Math.log(1 - r.nextDouble()) * tailMean);
            messages.add(new Message(s, d, local(s, send), local(d, send + latency)));
        }
    }

    /** Adds {@code count} messages from a to b only, spread over {@code duration} ns. */
    void send(SplittableRandom r, int a, int b, int count, long duration, long min, double tailMean) {
        for (int k = 0; k < count; k++) {
            long send = T0 + r.nextLong(duration);
            long latency = min + (long) (-Math.log(1 - r.nextDouble()) * tailMean);
            messages.add(new Message(a, b, local(a, send), local(b, send + latency)));
        }
    }

    @Override
    public List<NodeInfo> nodes() {
        return nodes;
    }

    @Override
    public void readMessages(MessageSink sink) throws IOException {
        for (Message m : messages) {
            sink.message(m.sender(), m.receiver(), m.sendTime(), m.recvTime());
        }
    }
}
