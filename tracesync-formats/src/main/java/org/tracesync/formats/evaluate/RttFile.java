package org.tracesync.formats.evaluate;

import java.io.BufferedReader;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.tracesync.core.matching.RoundTripMinima;
import org.tracesync.core.model.NodeInfo;
import org.tracesync.formats.TraceFormatException;

/**
 * The original implementation's RTT file: one line per host pair, {@code addr addr rtt_ms}
 * (the minimum round-trip time between the two hosts, in milliseconds, decimal); {@code #}
 * comments and blank lines ignored. An address names the node owning it; a node name is accepted
 * too. Parsed exactly to ns (BigDecimal).
 */
public final class RttFile {

    private RttFile() {
    }

    public static RoundTripMinima read(Path file, List<NodeInfo> nodes) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such RTT file");
        }
        RoundTripMinima rtt = new RoundTripMinima(nodes.size());
        long lines = 0;
        long used = 0;
        try (BufferedReader r = Files.newBufferedReader(file)) {
            String line;
            long no = 0;
            while ((line = r.readLine()) != null) {
                no++;
                String s = line.strip();
                if (s.isEmpty() || s.startsWith("#")) {
                    continue;
                }
                String[] f = s.split("\\s+");
                if (f.length != 3) {
                    throw TraceFormatException.atLine(file, no, "expected 'addr addr rtt_ms', got '" + s + "'");
                }
                lines++;
                int a = node(f[0], nodes);
                int b = node(f[1], nodes);
                if (a < 0 || b < 0) {
                    continue; // a pair of hosts that are not traced
                }
                used++;
                long ns;
                try {
                    ns = new BigDecimal(f[2]).movePointRight(6).setScale(0, java.math.RoundingMode.HALF_EVEN)
                            .longValueExact();
                } catch (NumberFormatException | ArithmeticException e) {
                    throw TraceFormatException.atLine(file, no, "rtt '" + f[2] + "' is not a number of ms");
                }
                if (ns < 0) {
                    throw TraceFormatException.atLine(file, no, "negative rtt " + f[2]);
                }
                rtt.set(a, b, ns);
            }
        }
        if (lines > 0 && used == 0) {
            // a file for other hosts (or addresses the traces do not show) would silently check nothing
            throw new TraceFormatException(file, "", "none of its " + lines + " round trips is between two traced nodes"
                    + " (give node names or their addresses: " + String.join(", ", nodes.stream()
                            .map(n -> n.name() + " " + n.addresses()).toList()) + ")");
        }
        return rtt;
    }

    private static int node(String key, List<NodeInfo> nodes) {
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i).name().equals(key) || nodes.get(i).addresses().contains(key)) {
                return i;
            }
        }
        return -1;
    }
}
