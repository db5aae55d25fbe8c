import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A build step (run by tracesync-cli/pom.xml as {@code java StartJar.java JAR START_JAR -- COMMAND...}):
 * writes START_JAR, a small jar of the classes that {@code java -jar JAR COMMAND...} loads from JAR
 * (a training run, logged with {@code -Xlog:class+load}), whose manifest names JAR on its
 * {@code Class-Path}. {@code java -jar START_JAR} runs as {@code java -jar JAR} does; it opens JAR
 * only for a class or a resource START_JAR lacks.
 *
 * <p>Why: a JVM opening a jar reads its whole central directory. The shaded jar has 7,100 entries
 * (OR-Tools, JNA, ojAlgo, protobuf, …): about 15 ms of a 2-message {@code sync}'s start, spent
 * before {@code main}, for the 450 classes such a run needs (docs/PERFORMANCE.md, "Start").
 *
 * <p>Checked here: the training run exits 0 or 1 (sync's "not every node synchronized"), and the
 * start jar holds every class it loaded from JAR (and the nested classes of tracesync's own among
 * them); each class is copied byte for byte, so a class
 * comes out the same from either jar. Cost: one run of COMMAND and one pass over those entries.
 */
public final class StartJar {

    public static void main(String[] args) throws Exception {
        int dashes = Arrays.asList(args).indexOf("--");
        if (args.length < 4 || dashes != 2) {
            System.err.println("usage: java StartJar.java JAR START_JAR -- COMMAND...");
            System.exit(2);
        }
        Path jar = Path.of(args[0]).toAbsolutePath();
        Path start = Path.of(args[1]).toAbsolutePath();
        if (!start.getParent().equals(jar.getParent())) {
            throw new IllegalArgumentException(start + " must lie beside " + jar + " (its Class-Path names it alone)");
        }
        Set<String> classes = withNested(jar, loadedClasses(jar, Arrays.copyOfRange(args, 3, args.length)));
        int n = write(jar, start, classes);
        System.out.println("StartJar: " + start.getFileName() + " holds the " + n + " classes the training run loaded from "
                + jar.getFileName() + " (Class-Path: " + jar.getFileName() + ")");
    }

    /** The entries ({@code a/b/C.class}) of the classes {@code java -jar jar command...} loads from {@code jar}. */
    static Set<String> loadedClasses(Path jar, String[] command) throws IOException, InterruptedException {
        Path log = Files.createTempFile("start-jar-classes", ".log");
        try {
            String java = ProcessHandle.current().info().command().orElse("java");
            List<String> cmd = new ArrayList<>(List.of(java, "-Xlog:class+load=info:file=" + log, "-XX:TieredStopAtLevel=1",
                    "-jar", jar.toString()));
            cmd.addAll(Arrays.asList(command));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            int code = p.waitFor();
            if (code != 0 && code != 1) {
                throw new IllegalStateException("the training run " + cmd + " exited with " + code);
            }
            Pattern line = Pattern.compile(" (\\S+) source: (?:jar:)?file:(.*)$");
            Set<String> out = new LinkedHashSet<>();
            for (String l : Files.readAllLines(log)) {
                Matcher m = line.matcher(l);
                if (m.find() && Path.of(m.group(2).replaceFirst("!/$", "")).toAbsolutePath().equals(jar)) {
                    out.add(m.group(1).replace('.', '/') + ".class");
                }
            }
            if (out.isEmpty()) {
                throw new IllegalStateException("the training run " + cmd + " loaded no class from " + jar);
            }
            return out;
        } finally {
            Files.deleteIfExists(log);
        }
    }

    /**
     * {@code classes} and the nested classes of tracesync's own among them: a run on another input
     * meets a nested class the training run did not (a long trace's second threads, the fit's
     * searches, the result's rendered rows), and one class missing from the start jar makes the
     * JVM open {@code jar}'s whole directory (about 15 ms) for it.
     */
    static Set<String> withNested(Path jar, Set<String> classes) throws IOException {
        Set<String> out = new LinkedHashSet<>(classes);
        try (JarFile in = new JarFile(jar.toFile())) {
            in.stream().map(JarEntry::getName)
                    .filter(name -> name.startsWith("org/tracesync/") && name.endsWith(".class") && name.contains("$"))
                    .filter(name -> classes.contains(name.substring(0, name.indexOf('$')) + ".class"))
                    .forEach(out::add);
        }
        return out;
    }

    /** Writes {@code start}: {@code jar}'s manifest with {@code Class-Path: jar}, then {@code classes}; their count. */
    static int write(Path jar, Path start, Set<String> classes) throws IOException {
        Path tmp = start.resolveSibling(start.getFileName() + ".tmp");
        int n = 0;
        try (JarFile in = new JarFile(jar.toFile()); OutputStream file = Files.newOutputStream(tmp)) {
            Manifest manifest = new Manifest(in.getManifest());
            manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, jar.getFileName().toString());
            try (JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (String name : classes) {
                    JarEntry entry = in.getJarEntry(name);
                    if (entry == null) {
                        throw new IllegalStateException(jar + " has no entry " + name);
                    }
                    JarEntry copy = new JarEntry(name);
                    copy.setTime(entry.getTime());
                    out.putNextEntry(copy);
                    try (InputStream bytes = in.getInputStream(entry)) {
                        bytes.transferTo(out);
                    }
                    out.closeEntry();
                    n++;
                }
            }
        }
        Files.move(tmp, start, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return n;
    }
}
