package org.tracesync.benchmarks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.TcpMatcher;
import org.tracesync.core.model.MessageSink;
import org.tracesync.formats.input.TraceStageRun;
import org.tracesync.formats.lttv.LttvTextInput;

/**
 * The pair accumulators alone, two builds alternated in one process (docs/PERFORMANCE.md,
 * "The pair accumulators' cost per message, tenth session"). A message stream is recorded once
 * (what the matcher hands the accumulators on a capture set, or an LTTV text file's messages, in
 * the order {@code sync} feeds them), then replayed ROUNDS times into each build's
 * {@code PairAccumulators}, into each build's {@code HalfHull}s alone (the pushes, their
 * inputs worked out beforehand: the floor of the hull work) and into the minimal sink (a count and
 * a minimum per ordered pair: the replay's own cost), in turns rotated each round; the figure is the calling thread's CPU ns per message, medians of
 * rounds 2..ROUNDS, and the digest of every pair's hulls, counts and buckets, which must be equal.
 *
 * <pre>
 * java -cp benchmarks.jar org.tracesync.benchmarks.AccumulateAlternation record OUT.msg capture CAPTURE...
 * java -cp benchmarks.jar org.tracesync.benchmarks.AccumulateAlternation record OUT.msg lttv FILE.txt
 * java -Xmx3g -cp benchmarks.jar org.tracesync.benchmarks.AccumulateAlternation ROUNDS OLD_BENCHMARKS_JAR NEW_BENCHMARKS_JAR OUT.msg
 * </pre>
 * The old jar needs no class of this harness: {@link AccumulateReplay} is taken from the new jar
 * when the old one lacks it, and links to the old jar's accumulators.
 */
public final class AccumulateAlternation {

    private static final int MAGIC = 0x54534d31; // "TSM1"

    private AccumulateAlternation() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("record")) {
            record(Path.of(args[1]), args[2], Arrays.copyOfRange(args, 3, args.length));
            return;
        }
        int rounds = Integer.parseInt(args[0]);
        Messages m = load(Path.of(args[3]));
        URL oldJar = Path.of(args[1]).toUri().toURL();
        URL newJar = Path.of(args[2]).toUri().toURL();
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        ClassLoader[] loaders = {
            new URLClassLoader(new URL[] {oldJar, newJar}, platform), // the old jar's accumulators first
            new URLClassLoader(new URL[] {newJar}, platform),
        };
        String[] names = {"old", "new", "oldPush", "newPush", "minimal"};
        int variants = names.length;
        Method[] run = new Method[variants];
        Class<?>[] sig = {int.class, int[].class, int[].class, long[].class, long[].class, int.class};
        for (int v = 0; v < 2; v++) {
            Class<?> replay = loaders[v].loadClass("org.tracesync.benchmarks.AccumulateReplay");
            run[v] = replay.getMethod("accumulate", sig);
            run[2 + v] = replay.getMethod("pushes", sig);
        }
        run[4] = loaders[1].loadClass("org.tracesync.benchmarks.AccumulateReplay").getMethod("minimal", sig);
        System.out.printf("%d messages, %d nodes%n", m.n, m.nodes);
        double[][] ns = new double[variants][rounds];
        long[] digest = new long[variants];
        for (int k = 0; k < rounds; k++) {
            StringBuilder line = new StringBuilder("round " + (k + 1) + ":");
            for (int t = 0; t < variants; t++) {
                int v = (t + k) % variants;
                long[] r = (long[]) run[v].invoke(null, m.nodes, m.sender, m.receiver, m.sendTime, m.recvTime, m.n);
                ns[v][k] = r[0] / (double) m.n;
                if (k > 0 && v < 4 && r[1] != digest[v]) {
                    throw new IllegalStateException(names[v] + ": digest changed between rounds");
                }
                digest[v] = r[1];
            }
            for (int v = 0; v < variants; v++) {
                line.append(String.format(" %s %.1f", names[v], ns[v][k]));
            }
            System.out.println(line + " ns CPU per message | new/old " + String.format("%.3f", ns[1][k] / ns[0][k])
                    + " | load " + RunStats.load());
        }
        System.out.printf("medians of rounds 2..%d, CPU ns per message (range):%n", rounds);
        double[] ratio = new double[rounds - 1];
        double[] pushRatio = new double[rounds - 1];
        for (int k = 1; k < rounds; k++) {
            ratio[k - 1] = ns[1][k] / ns[0][k];
            pushRatio[k - 1] = ns[3][k] / ns[2][k];
        }
        for (int v = 0; v < variants; v++) {
            double[] r = Arrays.copyOfRange(ns[v], 1, rounds);
            Arrays.sort(r);
            System.out.printf("  %-8s %6.1f (%.1f-%.1f)%n", names[v], RunStats.median(r), r[0], r[r.length - 1]);
        }
        Arrays.sort(ratio);
        Arrays.sort(pushRatio);
        System.out.printf("  new/old  %.3f (%.3f-%.3f); pushes alone %.3f (%.3f-%.3f)%n", RunStats.median(ratio), ratio[0],
                ratio[ratio.length - 1], RunStats.median(pushRatio), pushRatio[0], pushRatio[pushRatio.length - 1]);
        System.out.println(digest[0] == digest[1] ? "digests equal: " + Long.toHexString(digest[0])
                : "DIGESTS DIFFER: old " + Long.toHexString(digest[0]) + " new " + Long.toHexString(digest[1]));
        System.out.println(digest[2] == digest[3] ? "pushes: hull sizes equal (" + digest[2] + ")"
                : "PUSHES DIFFER: old " + digest[2] + " new " + digest[3]);
    }

    /** A recorded message stream. */
    record Messages(int nodes, int n, int[] sender, int[] receiver, long[] sendTime, long[] recvTime) {
    }

    private static void record(Path out, String kind, String[] inputs) throws IOException {
        Recorder rec = new Recorder();
        int nodes;
        if (kind.equals("capture")) {
            List<Path> files = new ArrayList<>();
            for (String s : inputs) {
                files.add(Path.of(s));
            }
            TraceStageRun.ReadBlocks read = TraceStageRun.readBlocks(files);
            nodes = read.nodes();
            TcpMatcher matcher = new TcpMatcher(nodes, TcpMatcher.DEFAULT_WINDOW_NS, rec);
            for (EventBlock b : read.blocks()) {
                matcher.match(b, null);
            }
            matcher.finish();
        } else if (kind.equals("lttv")) {
            LttvTextInput in = LttvTextInput.open(Path.of(inputs[0]));
            nodes = in.nodes().size();
            in.readMessages(rec);
        } else {
            throw new IllegalArgumentException("record kind: capture or lttv, not " + kind);
        }
        try (DataOutputStream o = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(out), 1 << 20))) {
            o.writeInt(MAGIC);
            o.writeInt(nodes);
            o.writeInt(rec.n);
            for (int i = 0; i < rec.n; i++) {
                o.writeInt(rec.sender[i]);
                o.writeInt(rec.receiver[i]);
                o.writeLong(rec.sendTime[i]);
                o.writeLong(rec.recvTime[i]);
            }
        }
        System.out.printf("%d messages of %d nodes recorded in %s%n", rec.n, nodes, out);
    }

    private static Messages load(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 20))) {
            if (in.readInt() != MAGIC) {
                throw new IOException(file + ": not a recorded message stream");
            }
            int nodes = in.readInt();
            int n = in.readInt();
            int[] s = new int[n];
            int[] r = new int[n];
            long[] st = new long[n];
            long[] rt = new long[n];
            for (int i = 0; i < n; i++) {
                s[i] = in.readInt();
                r[i] = in.readInt();
                st[i] = in.readLong();
                rt[i] = in.readLong();
            }
            return new Messages(nodes, n, s, r, st, rt);
        }
    }

    /** Keeps every message in growing arrays. */
    private static final class Recorder implements MessageSink {
        int n;
        int[] sender = new int[1 << 16];
        int[] receiver = new int[1 << 16];
        long[] sendTime = new long[1 << 16];
        long[] recvTime = new long[1 << 16];

        @Override
        public void message(int s, int r, long st, long rt) {
            if (n == sender.length) {
                int cap = n * 2;
                sender = Arrays.copyOf(sender, cap);
                receiver = Arrays.copyOf(receiver, cap);
                sendTime = Arrays.copyOf(sendTime, cap);
                recvTime = Arrays.copyOf(recvTime, cap);
            }
            sender[n] = s;
            receiver[n] = r;
            sendTime[n] = st;
            recvTime[n] = rt;
            n++;
        }
    }
}
