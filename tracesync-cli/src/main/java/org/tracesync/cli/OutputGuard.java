package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The one check every command that writes makes before it reads anything: an output path must
 * not be empty, an existing directory where a file is written (or a file where a directory is),
 * below something that is not a directory, or — once symlinks and {@code ..} are resolved — one
 * of the command's inputs (traces, result file, truth file) or inside an input directory (a CTF
 * trace). A refusal is a usage error ({@link ExitCode#USAGE}) naming the option and the user's
 * path, and nothing has been written.
 *
 * <p>Paths are compared by their real location: the deepest existing ancestor resolved with
 * {@link Path#toRealPath}, the rest normalized; existing files also by identity
 * ({@link Files#isSameFile}, which catches hard links). Cost: a few {@code stat} calls per path.
 */
public final class OutputGuard {

    private final List<Path> inputs;
    /** What the protected paths are, in messages ("the input", "the output"). */
    private final String noun;

    /** A guard for a command whose inputs are {@code inputs} (files or directories; missing ones are ignored). */
    public OutputGuard(Collection<Path> inputs) {
        this(inputs, "the input");
    }

    /** A guard protecting {@code paths}, named {@code noun} in messages (e.g. "the output" for a command's other outputs). */
    OutputGuard(Collection<Path> paths, String noun) {
        List<Path> given = new ArrayList<>();
        for (Path p : paths) { // a loop: every command passes here at start, where a first stream links its classes and lambdas
            if (p != null && !p.toString().isEmpty()) {
                given.add(p);
            }
        }
        this.inputs = List.copyOf(given);
        this.noun = noun;
    }

    /** Refuses a file output {@code out} given with {@code option} (e.g. "-o") that is unsafe. */
    public void file(String option, Path out) {
        String shown = option + " " + out;
        if (out.toString().isEmpty()) {
            throw refused(option + ": an empty path; give a file name");
        }
        if (Files.isDirectory(out)) {
            throw refused(shown + " is a directory; give a file name");
        }
        notBelowAFile(shown, out);
        againstInputs(shown, out);
    }

    /** Refuses a directory output {@code dir} (files are written into it) that is unsafe. */
    void directory(String option, Path dir) {
        String shown = option + " " + dir;
        if (dir.toString().isEmpty()) {
            throw refused(option + ": an empty path; give a directory");
        }
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw refused(shown + " is not a directory");
        }
        notBelowAFile(shown, dir);
        againstInputs(shown, dir);
    }

    /**
     * Refuses an existing directory {@code dir} that holds entries other than {@code own} (the
     * names the command itself writes there): a rerun into a command's own output is fine, a
     * user's folder of other files is not replaced silently. {@code remedy} ends the message.
     */
    void onlyOwnEntries(String option, Path dir, Collection<String> own, String remedy) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<String> other;
        try (var s = Files.list(dir)) {
            other = s.map(p -> p.getFileName().toString()).filter(n -> !own.contains(n)).sorted().toList();
        }
        if (!other.isEmpty()) {
            throw refused(option + " " + dir + " holds other files ("
                    + String.join(", ", other.subList(0, Math.min(3, other.size())))
                    + (other.size() > 3 ? ", …" : "") + "); " + remedy);
        }
    }

    /** {@code path} as the file system will resolve it when written (symlinks and {@code ..} followed). */
    static Path real(Path path) {
        Path abs = path.toAbsolutePath();
        List<Path> rest = new ArrayList<>();
        Path p = abs;
        while (p != null && !Files.exists(p)) {
            rest.add(0, p.getFileName());
            p = p.getParent();
        }
        Path base;
        try {
            base = p == null ? abs.getRoot() : p.toRealPath();
        } catch (IOException e) {
            base = p;
        }
        for (Path r : rest) {
            base = base.resolve(r);
        }
        return base.normalize();
    }

    private void againstInputs(String shown, Path out) {
        Path realOut = real(out);
        for (Path in : inputs) {
            Path realIn = real(in);
            if (realOut.equals(realIn) || sameFile(out, in)) {
                throw refused(shown + " is " + noun + " " + in + "; choose another output");
            }
            if (Files.isDirectory(in) && realOut.startsWith(realIn)) {
                throw refused(shown + " is inside " + noun + " " + in + "; choose another output");
            }
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.exists(a) && Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    /** Refuses a path whose existing ancestor is not a directory (writing would fail after all the work). */
    private static void notBelowAFile(String shown, Path out) {
        Path p = out.toAbsolutePath().getParent();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p != null && !Files.isDirectory(p)) {
            Path given = out.getParent();
            while (given != null && !given.toAbsolutePath().normalize().equals(p.normalize())) {
                given = given.getParent();
            }
            throw refused(shown + ": " + (given == null ? p : given) + " is not a directory");
        }
    }

    private static CommandFailure refused(String message) {
        return new CommandFailure(ExitCode.USAGE, message);
    }
}
