package org.tracesync.formats.ctf;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.pcap.DecodedPacket;
import org.tracesync.formats.pcap.PacketDecoder;

/**
 * Converts a packet capture into an LTTng-2.9-style kernel trace ({@link CtfTraceWriter}): every
 * IPv4/IPv6 packet becomes a {@code net_dev_queue} (sent: source address is one of the node's own)
 * or a {@code net_if_receive_skb} (anything else) event with its IP and transport headers, at the
 * capture's exact ns timestamp; the node's IPv4 addresses become statedump interface events.
 * This is how tests (and users) obtain traces of the lttng-modules ≥ 2.9 layout, which no public
 * trace has. Streaming: one packet in memory at a time.
 *
 * <p>A CTF stream never goes back in time, but a capture may: tcpdump on a busy host writes some
 * receptions late. As a kernel records on several CPUs, each packet goes to the first CPU stream
 * whose last event is not after it, a new one when there is none (up to {@value #MAX_CPUS}; a
 * packet that would need more, or that precedes the trace's clock origin by more than a second,
 * is skipped and counted). Readers merge the streams by time, so every packet is read back at its
 * own timestamp. Cost: O(c) per packet for c streams (one or two for a capture written nearly in
 * order).
 */
public final class CaptureToCtf {

    /** What a conversion wrote. */
    public record Outcome(Path trace, long packets, long skipped) {
    }

    /** Most CPU streams a conversion opens for packets that come out of time order. */
    static final int MAX_CPUS = 64;

    private CaptureToCtf() {
    }

    public static Outcome convert(Path capture, NodeInfo node, Path traceDir) throws IOException {
        List<long[]> own = new java.util.ArrayList<>();
        for (String a : node.addresses()) {
            long[] parsed = DecodedPacket.parseAddress(a);
            if (parsed != null) {
                own.add(parsed);
            }
        }
        DecodedPacket d = new DecodedPacket();
        long packets = 0;
        long skipped = 0;
        try (CaptureReader first = CaptureReader.open(capture)) {
            if (!first.next()) {
                throw new org.tracesync.formats.TraceFormatException(capture, "", "the capture holds no packet");
            }
            long t0 = first.timestamp();
            long clockOrigin = t0 - 1_000_000_000L;
            try (CaptureReader r = CaptureReader.open(capture);
                 CtfTraceWriter w = new CtfTraceWriter(traceDir, node.name(), clockOrigin)) {
                for (String a : node.addresses()) {
                    long[] parsed = DecodedPacket.parseAddress(a);
                    byte[] bytes = parsed == null ? null : DecodedPacket.addressBytes(parsed[0], parsed[1]);
                    if (bytes != null && bytes.length == 4) {
                        w.networkInterface(0, t0, "eth0", bytes);
                    }
                }
                long[] lastOnCpu = new long[MAX_CPUS];
                int cpus = 1;
                lastOnCpu[0] = t0; // the statedump
                while (r.next()) {
                    int kind = PacketDecoder.decode(r.linkType(), r.data(), r.dataOffset(), r.capturedLength(), d);
                    if (kind == DecodedPacket.OTHER) {
                        skipped++;
                        continue;
                    }
                    byte[] ip = Arrays.copyOfRange(r.data(), d.ipOffset, r.dataOffset() + r.capturedLength());
                    boolean send = false;
                    for (long[] a : own) {
                        send |= a[0] == d.srcHi && a[1] == d.srcLo;
                    }
                    // CTF streams must not go backwards: the first CPU whose stream is not after this packet
                    long ts = r.timestamp();
                    int cpu = 0;
                    while (cpu < cpus && lastOnCpu[cpu] > ts) {
                        cpu++;
                    }
                    if (ts < clockOrigin || cpu == MAX_CPUS) {
                        skipped++;
                        continue;
                    }
                    cpus = Math.max(cpus, cpu + 1);
                    lastOnCpu[cpu] = ts;
                    w.networkPacket(cpu, ts, send, "eth0", 0xffff8880_0000_0000L + packets, ip);
                    packets++;
                }
            }
        }
        return new Outcome(traceDir, packets, skipped);
    }

    /** Converts several captures (node identities already resolved, same order) into DIR/NAME. */
    public static List<Outcome> convertAll(List<Path> captures, List<NodeInfo> nodes, Path outDir) throws IOException {
        List<Outcome> out = new java.util.ArrayList<>();
        for (int i = 0; i < captures.size(); i++) {
            out.add(convert(captures.get(i), nodes.get(i), outDir.resolve(nodes.get(i).name())));
        }
        return out;
    }
}
