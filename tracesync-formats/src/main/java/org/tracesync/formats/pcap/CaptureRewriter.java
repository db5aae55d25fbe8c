package org.tracesync.formats.pcap;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;

/**
 * Rewrites captures with new timestamps, streaming (memory independent of capture size):
 * {@link #rewrite} one capture into the same container (pcap → nanosecond pcap, pcapng →
 * pcapng with nanosecond interfaces, names and addresses kept), {@link #merge} several into one
 * pcapng ordered by the new timestamps (like mergecap, one interface per input interface, named
 * {@code node:interface}). Packet bytes are copied unchanged; blocks without a timestamp (simple
 * packet blocks) and non-packet blocks are not copied. The time map must be non-decreasing for
 * the output of {@link #rewrite} to stay in order (clock transforms are).
 */
public final class CaptureRewriter {

    private CaptureRewriter() {
    }

    /** Rewrites {@code in} into {@code out} with {@code time} applied to every timestamp; returns packets written. */
    public static long rewrite(Path in, Path out, LongUnaryOperator time) throws IOException {
        long n = 0;
        try (CaptureReader r = CaptureReader.open(in)) {
            if (r instanceof PcapReader) {
                CaptureInterface ci = r.interfaces().get(0);
                try (PcapWriter w = new PcapWriter(out, ci.linkType(), true, false, (int) ci.snapLength())) {
                    while (r.next()) {
                        w.write(time.applyAsLong(r.timestamp()), r.data(), r.dataOffset(), r.capturedLength(),
                                r.originalLength());
                        n++;
                    }
                }
            } else {
                try (PcapngWriter w = new PcapngWriter(out, false)) {
                    Map<Integer, Integer> ids = new HashMap<>();
                    while (r.next()) {
                        int id = ids.computeIfAbsent(r.interfaceIndex(), g -> declare(w, r, g, ""));
                        w.writePacket(id, time.applyAsLong(r.timestamp()), r.data(), r.dataOffset(),
                                r.capturedLength(), r.originalLength());
                        n++;
                    }
                }
            }
        }
        return n;
    }

    private static int declare(PcapngWriter w, CaptureReader r, int global, String prefix) {
        CaptureInterface ci = r.interfaces().get(global);
        String name = prefix.isEmpty() ? ci.name() : ci.name().isEmpty() ? prefix : prefix + ":" + ci.name();
        try {
            return w.addInterface(new PcapngWriter.Interface(ci.linkType(), (int) ci.snapLength(), name,
                    TimestampResolution.NANOSECONDS, 0, ci.addresses()));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Merges {@code inputs} (node {@code names.get(i)}, time map {@code times.get(i)}) into one
     * pcapng ordered by mapped timestamp (ties: input order). Returns packets written.
     */
    public static long merge(List<Path> inputs, List<String> names, List<LongUnaryOperator> times, Path out)
            throws IOException {
        int k = inputs.size();
        List<CaptureReader> readers = new ArrayList<>();
        long n = 0;
        try (PcapngWriter w = new PcapngWriter(out, false)) {
            for (Path p : inputs) {
                readers.add(CaptureReader.open(p));
            }
            long[] head = new long[k];
            boolean[] live = new boolean[k];
            List<Map<Integer, Integer>> ids = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                ids.add(new HashMap<>());
                live[i] = readers.get(i).next();
                if (live[i]) {
                    head[i] = times.get(i).applyAsLong(readers.get(i).timestamp());
                }
            }
            while (true) {
                int best = -1;
                for (int i = 0; i < k; i++) {
                    if (live[i] && (best < 0 || head[i] < head[best])) {
                        best = i;
                    }
                }
                if (best < 0) {
                    break;
                }
                CaptureReader r = readers.get(best);
                String prefix = names.get(best);
                int id;
                try {
                    id = ids.get(best).computeIfAbsent(r.interfaceIndex(), g -> declare(w, r, g, prefix));
                } catch (java.io.UncheckedIOException e) {
                    throw e.getCause();
                }
                w.writePacket(id, head[best], r.data(), r.dataOffset(), r.capturedLength(), r.originalLength());
                n++;
                live[best] = r.next();
                if (live[best]) {
                    head[best] = times.get(best).applyAsLong(r.timestamp());
                }
            }
        } finally {
            for (CaptureReader r : readers) {
                r.close();
            }
        }
        return n;
    }
}
