import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Two builds of a benchmark's main class alternated in one JVM (docs/PERFORMANCE.md, "Distance to
 * the memory bandwidth", fourth session): each build in its own class loader, A then B, ROUNDS
 * times, every line the class prints prefixed with the build and the round. Pairs measured seconds
 * apart share the machine's load, which on a shared machine moves a thread's CPU time by 15-40 %
 * between processes minutes apart. The first round includes each build's JIT warm-up.
 *
 * <pre>java scripts/benchmark/InProcessAb.java ROUNDS CLASS "ARGS" CLASSPATH_A CLASSPATH_B</pre>
 * e.g. {@code java -Xmx3g scripts/benchmark/InProcessAb.java 4 org.tracesync.benchmarks.CtfReadRun
 * "1 /tmp/perfdata/ctf3/n1 /tmp/perfdata/ctf3/n2 /tmp/perfdata/ctf3/n3" old/benchmarks.jar new/benchmarks.jar}
 */
public class InProcessAb {

    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        String[] args = a[2].trim().split("\\s+");
        Method[] main = new Method[2];
        for (int k = 0; k < 2; k++) {
            List<URL> urls = new ArrayList<>();
            for (String p : a[3 + k].split(":")) {
                urls.add(Path.of(p).toUri().toURL());
            }
            ClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
            main[k] = Class.forName(a[1], true, loader).getMethod("main", String[].class);
        }
        PrintStream out = System.out;
        for (int r = 1; r <= rounds; r++) {
            for (int k = 0; k < 2; k++) {
                ByteArrayOutputStream buf = new ByteArrayOutputStream();
                System.setOut(new PrintStream(buf, true));
                try {
                    main[k].invoke(null, (Object) args);
                } finally {
                    System.setOut(out);
                }
                for (String line : buf.toString().split("\n")) {
                    out.println((k == 0 ? "A" : "B") + " round " + r + ": " + line);
                }
            }
        }
    }
}
