package org.tracesync.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.tracesync.formats.ctf.CtfNetworkEvents;
import org.tracesync.formats.ctf.CtfTrace;

/**
 * CTF decoding alone, in CPU time of the calling thread (docs/PERFORMANCE.md, "CTF decoding"): for
 * each trace directory given, REPEAT times, {@link CtfTrace#read} every event (streams merged by
 * time, every field decoded) into a handler that only sums timestamps; then, with {@code net}, the
 * same with {@link CtfNetworkEvents} building the NetEvents as {@link CtfTrace#stream} does. Prints
 * ns per event and MB/s of stream files. Also the checksum of the events' timestamps and the
 * number of network events, which must not change with the reader's code.
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.CtfReadRun REPEAT [net] DIR...</pre>
 */
public final class CtfReadRun {

    private CtfReadRun() {
    }

    public static void main(String[] args) throws IOException {
        int repeat = Integer.parseInt(args[0]);
        int first = 1;
        boolean net = args.length > 1 && args[1].equals("net");
        if (net) {
            first = 2;
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int k = 0; k < repeat; k++) {
            long events = 0;
            long bytes = 0;
            long sum = 0;
            long netEvents = 0;
            long c0 = cpu.getCurrentThreadCpuTime();
            for (int i = first; i < args.length; i++) {
                Path dir = Path.of(args[i]);
                CtfTrace trace = CtfTrace.open(dir);
                long[] acc = {0, 0, 0};
                if (net) {
                    trace.read(new CtfNetworkEvents(e -> {
                        acc[2]++;
                        acc[1] += e.timestamp() ^ e.key().hashCode();
                    }));
                    trace.read(e -> acc[0]++);
                } else {
                    trace.read(e -> {
                        acc[0]++;
                        acc[1] += e.timestamp();
                    });
                }
                events += acc[0];
                sum += acc[1];
                netEvents += acc[2];
                try (Stream<Path> s = Files.list(trace.directory())) {
                    bytes += s.filter(p -> !p.getFileName().toString().equals("metadata")).mapToLong(p -> p.toFile().length()).sum();
                }
            }
            double cs = (cpu.getCurrentThreadCpuTime() - c0) / 1e9;
            int passes = net ? 2 : 1;
            System.out.printf(Locale.ROOT, "run %d%s: %d events, %.1f MB, %.3f s CPU%s = %.1f ns per event, %.0f MB/s"
                            + " [checksum %x, %d network events]%n", k + 1, net ? " (net events, then decode only)" : "",
                    events, bytes / 1e6, cs, net ? " for both passes" : "", cs * 1e9 / events / passes,
                    bytes * passes / cs / 1e6, sum, netEvents);
        }
    }
}
