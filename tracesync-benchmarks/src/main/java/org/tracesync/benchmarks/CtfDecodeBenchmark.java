package org.tracesync.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.tracesync.formats.ctf.CtfTrace;
import org.tracesync.formats.ctf.CtfTraceWriter;

/**
 * End-to-end CTF decoding benchmark (run by hand): writes a large LTTng-2.9-style kernel trace with
 * {@link CtfTraceWriter} (2 CPUs; 60 % net_dev_queue / net_if_receive_skb with IPv4/IPv6 + TCP/UDP
 * headers, 40 % sched_switch), then, alternately in one run, decodes it with our reader and with
 * {@code babeltrace2 TRACE -o dummy}, and prints events/s, the ratio, and our peak heap use. Both
 * wall time and CPU time (user + system, of our whole JVM and of the babeltrace2 process) are
 * reported: on a shared machine CPU time is the fairer comparison.
 *
 * <pre>java -Xmx64m -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.CtfDecodeBenchmark DIR [MB] [ROUNDS]</pre>
 */
public final class CtfDecodeBenchmark {

    private CtfDecodeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long mb = args.length > 1 ? Long.parseLong(args[1]) : 220;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        if (!Files.exists(dir.resolve("metadata"))) {
            long t0 = System.nanoTime();
            long n = write(dir, mb << 20);
            System.out.printf(Locale.ROOT, "wrote %d events, %.1f MB in %.1f s%n", n, size(dir) / 1e6,
                    (System.nanoTime() - t0) / 1e9);
        }
        System.out.printf(Locale.ROOT, "trace %s: %.1f MB; java %s, %d cpus, max heap %d MB%n", dir, size(dir) / 1e6,
                System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);
        List<Double> ours = new ArrayList<>();
        List<Double> oursCpu = new ArrayList<>();
        List<Double> net = new ArrayList<>();
        List<Double> bt = new ArrayList<>();
        List<Double> btCpu = new ArrayList<>();
        long events = 0;
        for (int r = 0; r < rounds; r++) {
            resetPeaks();
            long cpu0 = processCpu();
            long t = System.nanoTime();
            long[] count = {0, 0};
            CtfTrace trace = CtfTrace.open(dir);
            trace.read(e -> {
                count[0]++;
                count[1] += e.timestamp();
            });
            double s = (System.nanoTime() - t) / 1e9;
            double sc = (processCpu() - cpu0) / 1e9;
            events = count[0];
            ours.add(s);
            oursCpu.add(sc);
            long peak = peakHeap();
            t = System.nanoTime();
            long[] nev = {0};
            CtfTrace.open(dir).stream(e -> nev[0]++);
            double s2 = (System.nanoTime() - t) / 1e9;
            net.add(s2);
            double[] b = babeltrace(dir);
            bt.add(b[0]);
            btCpu.add(b[1]);
            System.out.printf(Locale.ROOT, "round %d: ours %.2f s wall / %.2f s cpu (%.2f M events/s by cpu, peak heap %d MB),"
                            + " ours+NetEvents %.2f s wall (%d net events), babeltrace2 -o dummy %.2f s wall / %.2f s cpu"
                            + " (%.2f M events/s by cpu); ratio wall %.1fx, cpu %.1fx%n",
                    r + 1, s, sc, events / sc / 1e6, peak >> 20, s2, nev[0], b[0], b[1], events / b[1] / 1e6,
                    b[0] / s, b[1] / sc);
        }
        double bestOursCpu = oursCpu.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double bestBtCpu = btCpu.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        System.out.printf(Locale.ROOT, "best by cpu: ours %.2f M events/s, babeltrace2 %.2f M events/s, ratio %.1fx%n",
                events / bestOursCpu / 1e6, events / bestBtCpu / 1e6, bestBtCpu / bestOursCpu);
        double bestOurs = ours.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double bestBt = bt.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        System.out.printf(Locale.ROOT, "best: ours %.2f M events/s, babeltrace2 %.2f M events/s, ratio %.1fx (%d events)%n",
                events / bestOurs / 1e6, events / bestBt / 1e6, bestBt / bestOurs, events);
    }

    /** Wall and CPU (user + system, via /usr/bin/time) seconds of {@code babeltrace2 DIR -o dummy}. */
    private static double[] babeltrace(Path dir) throws IOException, InterruptedException {
        Path times = Files.createTempFile("bt-time", ".txt");
        long t = System.nanoTime();
        Process p = new ProcessBuilder("/usr/bin/time", "-f", "%U %S", "-o", times.toString(), "babeltrace2",
                dir.toString(), "-o", "dummy")
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(1, TimeUnit.HOURS) || p.exitValue() != 0) {
            throw new IOException("babeltrace2 failed");
        }
        double wall = (System.nanoTime() - t) / 1e9;
        String[] f = Files.readString(times).trim().split("\\s+");
        Files.delete(times);
        return new double[] {wall, Double.parseDouble(f[f.length - 2]) + Double.parseDouble(f[f.length - 1])};
    }

    private static long processCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
    }

    private static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.mapToLong(p -> p.toFile().length()).sum();
        }
    }

    static byte[] ipv4Tcp(SplittableRandom r, boolean send, int payload) {
        ByteBuffer b = ByteBuffer.allocate(40);
        b.put((byte) 0x45).put((byte) 0).putShort((short) (40 + payload)).putShort((short) r.nextInt(65536))
                .putShort((short) 0x4000).put((byte) 64).put((byte) 6).putShort((short) r.nextInt(65536))
                .putInt(send ? 0x0a000001 : 0x0a000002).putInt(send ? 0x0a000002 : 0x0a000001);
        b.putShort((short) 22).putShort((short) 40_000).putInt(r.nextInt()).putInt(r.nextInt())
                .putShort((short) ((5 << 12) | 0x18)).putShort((short) 512).putShort((short) r.nextInt(65536)).putShort((short) 0);
        return b.array();
    }

    static byte[] ipv6Udp(SplittableRandom r, boolean send, int payload) {
        ByteBuffer b = ByteBuffer.allocate(48);
        b.putInt(0x6000_0000).putShort((short) (8 + payload)).put((byte) 17).put((byte) 64);
        b.putLong(0xfd00_0000_0000_0000L).putLong(send ? 1 : 2).putLong(0xfd00_0000_0000_0000L).putLong(send ? 2 : 1);
        b.putShort((short) 5353).putShort((short) 5353).putShort((short) (8 + payload)).putShort((short) r.nextInt(65536));
        return b.array();
    }

    /** Writes events until the trace reaches {@code bytes}; returns the number of events. */
    static long write(Path dir, long bytes) throws IOException {
        SplittableRandom r = new SplittableRandom(11);
        long t = 1_700_000_000_000_000_000L;
        long n = 0;
        try (CtfTraceWriter w = new CtfTraceWriter(dir, "bench", t - 3_600_000_000_000L, 1 << 20)) {
            w.networkInterface(0, t, "eth0", new byte[] {10, 0, 0, 1});
            long written = 0;
            while (written < bytes) {
                t += 1 + r.nextInt(2_000);
                int cpu = r.nextInt(2);
                int k = r.nextInt(10);
                if (k < 5) {
                    w.networkPacket(cpu, t, r.nextBoolean(), "eth0", 0xffff8880_0000_0000L + n, ipv4Tcp(r, r.nextBoolean(), 1448));
                    written += 104;
                } else if (k < 6) {
                    w.networkPacket(cpu, t, r.nextBoolean(), "eth0", 0xffff8880_0000_0000L + n, ipv6Udp(r, r.nextBoolean(), 200));
                    written += 80;
                } else {
                    w.schedSwitch(cpu, t, "swapper/" + cpu, 0, 120, 0, "worker", 1000 + (int) (n & 1023), 120);
                    written += 62;
                }
                n++;
            }
        }
        return n;
    }
}
