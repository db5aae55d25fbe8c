package org.tracesync.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The floor a reader of mapped files can reach on this machine (docs/PERFORMANCE.md, "distance to
 * the memory bandwidth"): maps every file given (or every regular file of a directory given), in
 * windows of at most 1 GiB, and sums it as 64-bit words in file order — one sequential pass that
 * touches every byte and does nothing else. Prints GB/s by the calling thread's CPU time and by
 * wall time, per run. The files should be in the page cache (read them once before), so that the
 * figure is memory bandwidth plus page-table cost, not the disk.
 *
 * <pre>java -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.MappedReadRun REPEAT PATH...</pre>
 */
public final class MappedReadRun {

    private MappedReadRun() {
    }

    public static void main(String[] args) throws IOException {
        int repeat = Integer.parseInt(args[0]);
        List<Path> files = new ArrayList<>();
        for (int i = 1; i < args.length; i++) {
            Path p = Path.of(args[i]);
            if (Files.isDirectory(p)) {
                try (Stream<Path> s = Files.walk(p, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
                    s.filter(Files::isRegularFile).sorted().forEach(files::add);
                }
            } else {
                files.add(p);
            }
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        for (int k = 0; k < repeat; k++) {
            long c0 = cpu.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            long bytes = 0;
            long sum = 0;
            for (Path f : files) {
                try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
                    long size = ch.size();
                    for (long off = 0; off < size; off += 1L << 30) {
                        long n = Math.min(size - off, 1L << 30);
                        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, off, n);
                        m.order(ByteOrder.LITTLE_ENDIAN);
                        sum += sum(m, (int) n);
                        bytes += n;
                    }
                }
            }
            double cs = (cpu.getCurrentThreadCpuTime() - c0) / 1e9;
            double ws = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "run %d: %d bytes in %.3f s CPU / %.3f s wall = %.2f GB/s (CPU), %.2f GB/s (wall)"
                    + " [checksum %x]%n", k + 1, bytes, cs, ws, bytes / cs / 1e9, bytes / ws / 1e9, sum);
        }
    }

    /** Sum of the buffer's 64-bit words (and its last bytes). */
    private static long sum(MappedByteBuffer m, int n) {
        long a = 0;
        long b = 0;
        int i = 0;
        for (; i + 16 <= n; i += 16) {
            a += m.getLong(i);
            b += m.getLong(i + 8);
        }
        for (; i < n; i++) {
            a += m.get(i);
        }
        return a + b;
    }
}
