package org.tracesync.benchmarks;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Two builds' {@code TraceStageRun} alternated in one process (docs/PERFORMANCE.md, "Captures,
 * fourth session"): each benchmarks jar gets a class loader of its own, so each build has its own
 * classes and compiled code, and the two take turns, one pass of both halves each, ROUNDS times.
 * On a loaded machine the load changes between two processes run a minute apart; within one
 * process, turns a few seconds apart see nearly the same machine, so the ratios of each round
 * (new / old) spread far less than those of separate processes. Round 1 (the JIT's warm-up) is
 * left out of the medians.
 *
 * <pre>java -Xmx4g -cp tracesync-benchmarks/target/benchmarks.jar org.tracesync.benchmarks.StageAlternation \
 *     ROUNDS OLD_BENCHMARKS_JAR NEW_BENCHMARKS_JAR TRACE...</pre>
 * (The matching half replays about 500 MB of blocks per turn on the 1.17 GB capture set.)
 */
public final class StageAlternation {

    private static final Pattern FIGURE = Pattern.compile("(reading|matching) half, run 1: ([0-9.]+) ns");

    private StageAlternation() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = Integer.parseInt(args[0]);
        String[] traces = Arrays.copyOfRange(args, 3, args.length);
        Method[] run = new Method[2];
        for (int v = 0; v < 2; v++) {
            URL jar = Path.of(args[1 + v]).toUri().toURL();
            ClassLoader loader = new URLClassLoader(new URL[] {jar}, ClassLoader.getPlatformClassLoader());
            run[v] = loader.loadClass("org.tracesync.formats.input.TraceStageRun").getMethod("main", String[].class);
        }
        String[] callArgs = new String[traces.length + 1];
        callArgs[0] = "1";
        System.arraycopy(traces, 0, callArgs, 1, traces.length);
        double[][][] ns = new double[2][2][rounds]; // [build][half][round]
        PrintStream out = System.out;
        for (int k = 0; k < rounds; k++) {
            for (int turn = 0; turn < 2; turn++) {
                int v = k % 2 == 0 ? turn : 1 - turn; // old first in even rounds, new first in odd ones
                ByteArrayOutputStream captured = new ByteArrayOutputStream();
                System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
                try {
                    run[v].invoke(null, (Object) callArgs);
                } finally {
                    System.setOut(out);
                }
                Matcher m = FIGURE.matcher(captured.toString(StandardCharsets.UTF_8));
                while (m.find()) {
                    ns[v][m.group(1).equals("reading") ? 0 : 1][k] = Double.parseDouble(m.group(2));
                }
            }
            out.printf("round %d: old reading %.1f matching %.1f | new reading %.1f matching %.1f | load %s%n", k + 1,
                    ns[0][0][k], ns[0][1][k], ns[1][0][k], ns[1][1][k], RunStats.load());
        }
        String[] half = {"reading half", "matching half", "read + match"};
        for (int h = 0; h < 3; h++) {
            double[] oldNs = new double[rounds - 1];
            double[] newNs = new double[rounds - 1];
            double[] ratio = new double[rounds - 1];
            for (int k = 1; k < rounds; k++) {
                oldNs[k - 1] = h < 2 ? ns[0][h][k] : ns[0][0][k] + ns[0][1][k];
                newNs[k - 1] = h < 2 ? ns[1][h][k] : ns[1][0][k] + ns[1][1][k];
                ratio[k - 1] = newNs[k - 1] / oldNs[k - 1];
            }
            Arrays.sort(oldNs);
            Arrays.sort(newNs);
            Arrays.sort(ratio);
            out.printf("%s, rounds 2..%d: old %.1f ns, new %.1f ns per event (medians); new/old %.3f (rounds %.3f-%.3f)%n",
                    half[h], rounds, RunStats.median(oldNs), RunStats.median(newNs), RunStats.median(ratio), ratio[0], ratio[ratio.length - 1]);
        }
    }
}
