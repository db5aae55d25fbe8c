package org.tracesync.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.formats.pcap.CaptureReader;
import org.tracesync.formats.pcap.LinkTypes;
import org.tracesync.formats.pcap.PcapWriter;

/**
 * Builds a large capture set from real captures (for instance ../shared/data/pcap/three-hosts):
 * each input capture is written COPIES times back to back, copy k shifted by k × (the set's time
 * span + 1 s) and with its ephemeral ports (≥ 10000) renumbered, so that every copy holds new
 * TCP connections and keys never repeat. Real traffic patterns at any size, both for us and for
 * tshark. Ethernet/IPv4 captures only.
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.CaptureReplicatedSet OUTDIR COPIES IN...</pre>
 */
public final class CaptureReplicatedSet {

    private CaptureReplicatedSet() {
    }

    private record Packet(long time, byte[] data, long originalLength) {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        int copies = Integer.parseInt(args[1]);
        Files.createDirectories(out);
        List<List<Packet>> inputs = new ArrayList<>();
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (int i = 2; i < args.length; i++) {
            List<Packet> packets = new ArrayList<>();
            try (CaptureReader r = CaptureReader.open(Path.of(args[i]))) {
                while (r.next()) {
                    if (r.linkType() != LinkTypes.ETHERNET) {
                        throw new IllegalArgumentException("Ethernet captures only");
                    }
                    byte[] d = java.util.Arrays.copyOfRange(r.data(), r.dataOffset(), r.dataOffset() + r.capturedLength());
                    packets.add(new Packet(r.timestamp(), d, r.originalLength()));
                    first = Math.min(first, r.timestamp());
                    last = Math.max(last, r.timestamp());
                }
            }
            inputs.add(packets);
        }
        long shift = last - first + 1_000_000_000L;
        for (int i = 0; i < inputs.size(); i++) {
            Path dest = out.resolve(Path.of(args[i + 2]).getFileName());
            try (PcapWriter w = new PcapWriter(dest, LinkTypes.ETHERNET, true, false, 65535)) {
                for (int k = 0; k < copies; k++) {
                    for (Packet p : inputs.get(i)) {
                        byte[] d = p.data().clone();
                        renumberPorts(d, k);
                        w.write(p.time() + k * shift, d, 0, d.length, p.originalLength());
                    }
                }
            }
        }
    }

    private static void renumberPorts(byte[] d, int k) {
        if (d.length < 34 || (d[12] & 0xff) != 0x08 || d[13] != 0 || (d[14] & 0xf0) != 0x40) {
            return;
        }
        int ihl = (d[14] & 0x0f) * 4;
        int proto = d[23] & 0xff;
        int t = 14 + ihl;
        if ((proto != 6 && proto != 17) || d.length < t + 4) {
            return;
        }
        for (int o = t; o <= t + 2; o += 2) {
            int port = (d[o] & 0xff) << 8 | (d[o + 1] & 0xff);
            if (port >= 10000) {
                port = 10000 + Math.floorMod(port - 10000 + k * 7, 55000);
                d[o] = (byte) (port >>> 8);
                d[o + 1] = (byte) port;
            }
        }
    }
}
