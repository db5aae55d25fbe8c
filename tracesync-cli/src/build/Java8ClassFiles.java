import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/**
 * A build step (run by tracesync-cli/pom.xml as {@code java -cp ASM_JAR Java8ClassFiles.java JAR PACKAGE/}):
 * rewrites, inside JAR, every class file under PACKAGE/ that is older than Java 6 as a Java 8 class
 * file (version 52) with its stack map frames computed, the instructions left as they are.
 *
 * <p>Why: picocli ships Java 5 class files (version 49), which the JVM verifies with its old,
 * slower verifier at every start and which an AppCDS archive cannot hold (JDK 17: "Pre JDK 6 class
 * not supported by CDS"); as Java 8 class files they are archived, pre-verified, with the rest of
 * the classes a {@code sync} loads (docs/PERFORMANCE.md, "Start").
 *
 * <p>Checked here: every rewritten class is then loaded, verified and initialized from the rewritten
 * jar in a fresh class loader, with the JVM's verifier on; a frame ASM got wrong fails the build.
 * Cost: one pass over the classes of PACKAGE (the other entries of JAR are copied as they are).
 */
public final class Java8ClassFiles {

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: java -cp ASM_JAR Java8ClassFiles.java JAR PACKAGE/");
            System.exit(2);
        }
        Path jar = Path.of(args[0]);
        String prefix = args[1];
        List<String> rewritten = new ArrayList<>();
        try (URLClassLoader original = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            // read every class first (frames need the class hierarchy, read from the original jar)
            List<Path> classes;
            List<byte[]> newBytes = new ArrayList<>();
            try (FileSystem zip = FileSystems.newFileSystem(jar)) {
                try (Stream<Path> s = Files.walk(zip.getPath("/" + prefix))) {
                    classes = s.filter(p -> p.toString().endsWith(".class")).sorted().toList();
                }
                for (Path c : classes) {
                    byte[] b = Files.readAllBytes(c);
                    newBytes.add(majorVersion(b) < 50 ? java8(b, original) : null);
                }
            }
            try (FileSystem zip = FileSystems.newFileSystem(jar)) {
                for (int i = 0; i < classes.size(); i++) {
                    if (newBytes.get(i) != null) {
                        Files.write(zip.getPath(classes.get(i).toString()), newBytes.get(i));
                        rewritten.add(classes.get(i).toString().substring(1).replace(".class", "").replace('/', '.'));
                    }
                }
            }
        }
        try (URLClassLoader check = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            for (String name : rewritten) {
                Class.forName(name, true, check); // links (verifies) and initializes
            }
        }
        System.out.println("Java8ClassFiles: " + rewritten.size() + " class files under " + prefix + " rewritten as version 52 in "
                + jar.getFileName());
    }

    static int majorVersion(byte[] classFile) {
        return ((classFile[6] & 0xff) << 8) | (classFile[7] & 0xff);
    }

    /** {@code classFile} as a version 52 class file with computed frames; {@code hierarchy} resolves common superclasses. */
    static byte[] java8(byte[] classFile, ClassLoader hierarchy) throws IOException {
        ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected ClassLoader getClassLoader() {
                return hierarchy;
            }
        };
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
                super.visit(Opcodes.V1_8, access, name, signature, superName, interfaces);
            }
        }, ClassReader.SKIP_FRAMES);
        return w.toByteArray();
    }
}
