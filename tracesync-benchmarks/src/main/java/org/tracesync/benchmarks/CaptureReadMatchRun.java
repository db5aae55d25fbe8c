package org.tracesync.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.formats.input.MergedTraceInput;
import org.tracesync.formats.input.TraceInputs;
import org.tracesync.formats.InputOptions;

/**
 * Measured end-to-end run (not JMH: one pass over gigabytes is the measurement): reads and
 * matches a capture set with {@link MergedTraceInput} into {@link PairAccumulators}, REPEAT
 * times — what {@code sync} does before estimation (read, decode, merge, match, half hulls) — and
 * prints packets/s, the process CPU time (all threads), messages, peak matcher keys and the heap
 * in use after the run.
 *
 * <pre>java -Xmx256m -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.CaptureReadMatchRun REPEAT FILE...</pre>
 * {@code -Dwindow=SECONDS} sets the matching window (default 60); {@code -DreaderThread=false}
 * reads and matches on one thread (default: the reading thread of {@link InputOptions#defaults()}).
 */
public final class CaptureReadMatchRun {

    private CaptureReadMatchRun() {
    }

    public static void main(String[] args) throws IOException {
        int repeat = Integer.parseInt(args[0]);
        List<Path> files = new ArrayList<>();
        long bytes = 0;
        for (int i = 1; i < args.length; i++) {
            files.add(Path.of(args[i]));
            bytes += Files.size(Path.of(args[i]));
        }
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        for (int k = 0; k < repeat; k++) {
            InputOptions opts = InputOptions.defaults();
            if (System.getProperty("window") != null) {
                opts = opts.withWindow(Long.parseLong(System.getProperty("window")) * 1_000_000_000L);
            }
            if (System.getProperty("coarseOffsets") != null) {
                opts = opts.withCoarseOffsets(Boolean.parseBoolean(System.getProperty("coarseOffsets")));
            }
            if (System.getProperty("readerThread") != null) {
                opts = opts.withReaderThread(Boolean.parseBoolean(System.getProperty("readerThread")));
            }
            // timed from the constructor: sync pays for the address inference too
            long start = System.nanoTime();
            long cpuStart = os.getProcessCpuTime();
            MergedTraceInput in = (MergedTraceInput) TraceInputs.open(files, opts);
            PairAccumulators acc = new PairAccumulators(in.nodes().size());
            in.readMessages(acc);
            double sec = (System.nanoTime() - start) / 1e9;
            double cpu = (os.getProcessCpuTime() - cpuStart) / 1e9;
            MergedTraceInput.ReadStats st = in.stats();
            Runtime rt = Runtime.getRuntime();
            System.gc();
            long used = rt.totalMemory() - rt.freeMemory();
            System.out.printf("run %d (%s): %d packets (%.2f GB) in %.2f s = %.2f M packets/s, %.0f MB/s, process CPU %.2f s; "
                            + "%d messages, %d retransmitted, %d ambiguous, %d unmatched, %d exchanges, peak %d keys; "
                            + "heap after %d MB%n",
                    k + 1, opts.readerThread() ? "reading thread" : "one thread", st.events(), bytes / 1e9, sec, st.events() / sec / 1e6, bytes / sec / 1e6, cpu,
                    acc.messages() + acc.selfMessages(), st.duplicateEvents(), st.ambiguous(),
                    st.evictedUnmatched() + st.unmatchedAtEnd(), st.exchanges(), st.peakKeys(), used >> 20);
        }
    }
}
