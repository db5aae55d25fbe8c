package org.tracesync.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.tracesync.formats.pcap.LinkTypes;
import org.tracesync.formats.pcap.PacketBuilder;
import org.tracesync.formats.pcap.PcapWriter;

/**
 * Writes a large simulated capture set for the read+match benchmark: three hosts
 * (10.9.0.1..3), one TCP connection per ordered pair, data segments and their ACKs; every
 * segment is captured by its sender and its receiver (Ethernet, nanosecond pcap, snaplen 96);
 * 1% of segments are lost (sender's capture only), 0.5% retransmitted. Clocks: offsets up to
 * ±100 ms and drifts of tens of ppm; latency 40 µs + exponential(30 µs). Spread over ten simulated
 * minutes so that the matching window (60 s) holds a tenth of the traffic.
 *
 * <p>By default the two directions of a pair use different ports (40000 + 10a + b → 5000 + 10b + a),
 * so they are two connections, no acknowledgement ever answers a data segment and the set has no
 * completed exchange (kept so, to compare with the figures of earlier sessions). With
 * {@code -Dexchanges=true} each pair of hosts has one connection (the lower host's port
 * 40000 + 10·low + high, the higher host's 5000 + 10·high + low) and the same segments, so the ACKs
 * that acknowledge a data segment complete exchanges and the exchange path is timed as well.
 *
 * <pre>java [-Dexchanges=true] -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.CaptureLargeSet DIR [SEGMENTS]</pre>
 * 6 million segments ≈ 1.1 GB in three files.
 */
public final class CaptureLargeSet {

    /** One connection per pair of hosts (both directions on the same ports), see the class comment. */
    private static final boolean ONE_CONNECTION_PER_PAIR = Boolean.getBoolean("exchanges");

    private CaptureLargeSet() {
    }

    private record Pending(long time, int from, int to, long seq, long ack, int flags, int len) {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long segments = args.length > 1 ? Long.parseLong(args[1]) : 6_000_000L;
        Files.createDirectories(dir);
        int hosts = 3;
        long t0 = 1_700_000_000_000_000_000L;
        long[] offset = {0, 83_456_789L, -97_654_321L};
        double[] drift = {0, 37e-6, -21e-6};
        long span = 600_000_000_000L;
        long step = span / segments;
        SplittableRandom r = new SplittableRandom(5);
        PcapWriter[] w = new PcapWriter[hosts];
        @SuppressWarnings("unchecked")
        PriorityQueue<Pending>[] pending = new PriorityQueue[hosts];
        for (int h = 0; h < hosts; h++) {
            w[h] = new PcapWriter(dir.resolve("n" + (h + 1) + ".pcap"), LinkTypes.ETHERNET, true, false, 96);
            pending[h] = new PriorityQueue<>((a, b) -> Long.compare(a.time(), b.time()));
        }
        long[][] seq = new long[hosts][hosts];
        for (int a = 0; a < hosts; a++) {
            for (int b = 0; b < hosts; b++) {
                seq[a][b] = r.nextLong() & 0xffffffffL;
            }
        }
        byte[][] addr = {{10, 9, 0, 1}, {10, 9, 0, 2}, {10, 9, 0, 3}};
        PacketBuilder pb = new PacketBuilder().link(LinkTypes.ETHERNET, 0).snapLength(96);
        byte[] buf = new byte[2048];
        for (long i = 0; i < segments; i++) {
            long t = t0 + i * step + r.nextLong(step);
            int a = r.nextInt(hosts);
            int b = (a + 1 + r.nextInt(hosts - 1)) % hosts;
            boolean data = r.nextInt(3) != 0;
            int len = data ? 1 + r.nextInt(1448) : 0;
            long s = seq[a][b];
            boolean retransmit = data && r.nextInt(200) == 0;
            if (!retransmit) {
                seq[a][b] = (s + len) & 0xffffffffL;
            } else {
                s = (s - len) & 0xffffffffL; // re-sends the previous segment's space
            }
            long ack = seq[b][a];
            int flags = data ? 0x18 : 0x10;
            // sender side now (its local clock), receiver side later
            write(w[a], pb, buf, addr, local(t, t0, offset[a], drift[a]), a, b, s, ack, flags, len);
            flush(w, pending, pb, buf, addr, a, local(t, t0, offset[a], drift[a]));
            if (r.nextInt(100) != 0) {
                long recv = t + 40_000 + (long) (-Math.log(1 - r.nextDouble()) * 30_000);
                pending[b].add(new Pending(local(recv, t0, offset[b], drift[b]), a, b, s, ack, flags, len));
            }
            for (int h = 0; h < hosts; h++) {
                flush(w, pending, pb, buf, addr, h, local(t, t0, offset[h], drift[h]) - 5_000_000);
            }
        }
        for (int h = 0; h < hosts; h++) {
            flush(w, pending, pb, buf, addr, h, Long.MAX_VALUE);
            w[h].close();
        }
    }

    private static void flush(PcapWriter[] w, PriorityQueue<Pending>[] pending, PacketBuilder pb, byte[] buf,
                              byte[][] addr, int h, long upTo) throws IOException {
        while (!pending[h].isEmpty() && pending[h].peek().time() <= upTo) {
            Pending p = pending[h].poll();
            write(w[h], pb, buf, addr, p.time(), p.from(), p.to(), p.seq(), p.ack(), p.flags(), p.len());
        }
    }

    private static void write(PcapWriter w, PacketBuilder pb, byte[] buf, byte[][] addr, long time, int a, int b,
                              long s, long ack, int flags, int len) throws IOException {
        int srcPort = 40000 + a * 10 + b;
        int dstPort = 5000 + b * 10 + a;
        if (ONE_CONNECTION_PER_PAIR) {
            srcPort = port(a, b);
            dstPort = port(b, a);
        }
        pb.addresses(addr[a], addr[b]).tcp(srcPort, dstPort, s, ack, flags, len);
        int cap = pb.build(buf);
        w.write(time, buf, 0, cap, pb.length());
    }

    /** With one connection per pair: the port of host {@code h} on its connection with {@code peer}. */
    private static int port(int h, int peer) {
        return h < peer ? 40000 + h * 10 + peer : 5000 + h * 10 + peer;
    }

    private static long local(long t, long t0, long offset, double drift) {
        return t + offset + Math.round(drift * (double) (t - t0));
    }
}
