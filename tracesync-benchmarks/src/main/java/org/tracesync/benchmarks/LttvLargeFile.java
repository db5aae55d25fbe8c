package org.tracesync.benchmarks;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Writes a large LTTV text file for the end-to-end benchmark: two nodes, epoch timestamps,
 * 80 ms offset, 40 ppm drift, 50 µs minimum latency plus an exponential tail, messages in time
 * order alternating directions. 4 million messages ≈ 184 MB.
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.LttvLargeFile OUT [MESSAGES]</pre>
 */
public final class LttvLargeFile {

    private LttvLargeFile() {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        long n = args.length > 1 ? Long.parseLong(args[1]) : 4_000_000L;
        SplittableRandom r = new SplittableRandom(7);
        long t0 = 1_700_000_000_000_000_000L;
        long offset = 80_123_457L;
        double drift = 40e-6;
        long step = 3_600_000_000_000L / n; // spread over an hour
        try (OutputStream os = new BufferedOutputStream(Files.newOutputStream(out), 1 << 20)) {
            os.write("# tracesync benchmark: 2 nodes, 80 ms offset, 40 ppm drift\n2\n".getBytes(StandardCharsets.US_ASCII));
            StringBuilder sb = new StringBuilder(64);
            for (long i = 0; i < n; i++) {
                long send = t0 + i * step + r.nextLong(step);
                long latency = 50_000 + (long) (-Math.log(1 - r.nextDouble()) * 40_000);
                long recv = send + latency;
                sb.setLength(0);
                if (i % 2 == 0) {
                    sb.append("0 1 ").append(seconds(send)).append(' ').append(seconds(local(recv, t0, offset, drift)));
                } else {
                    sb.append("1 0 ").append(seconds(local(send, t0, offset, drift))).append(' ').append(seconds(recv));
                }
                sb.append('\n');
                os.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
            }
        }
    }

    private static long local(long t, long t0, long offset, double drift) {
        return t + offset + Math.round(drift * (double) (t - t0));
    }

    private static String seconds(long ns) {
        String frac = Long.toString(ns % 1_000_000_000L);
        return ns / 1_000_000_000L + "." + "0".repeat(9 - frac.length()) + frac;
    }
}
