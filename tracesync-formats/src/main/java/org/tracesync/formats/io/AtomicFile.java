package org.tracesync.formats.io;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes a file (or a directory tree) so that readers never see it half-written and a failure
 * leaves the previous version in place: the content goes to a hidden temporary sibling
 * ({@code .NAME.<random>.tmp}) created with the process umask, which is renamed over the target
 * at the end (atomically where the file system allows). When a file is replaced, the new one
 * takes the old one's POSIX permissions (a shared 0640 result stays 0640); a new one gets
 * {@code 0666 & ~umask}, like any file a shell redirection creates. Errors name the target, never
 * the temporary file.
 */
public final class AtomicFile {

    /** Writes the content of a file at the temporary path it is given. */
    @FunctionalInterface
    public interface Content {
        void writeTo(Path temporary) throws IOException;
    }

    private AtomicFile() {
    }

    /** Writes {@code target} through {@code content} (which must create or fill its argument). */
    public static void write(Path target, Content content) throws IOException {
        Path tmp = temporary(target);
        try {
            try {
                Files.createFile(tmp);
            } catch (FileSystemException e) {
                throw renamed(e, target);
            }
            copyPermissions(target, tmp);
            content.writeTo(tmp);
            commit(tmp, target);
        } finally {
            deleteTree(tmp);
        }
    }

    /**
     * Writes the directory {@code target} through {@code content}, which fills the (created)
     * temporary directory it is given; {@code target} must not exist yet (a directory is never
     * replaced: it may hold a user's other files).
     */
    public static void writeDirectory(Path target, Content content) throws IOException {
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString(), null, "already exists");
        }
        Path tmp = temporary(target);
        try {
            try {
                Files.createDirectory(tmp);
            } catch (FileSystemException e) {
                throw renamed(e, target);
            }
            content.writeTo(tmp);
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileSystemException e) {
                throw renamed(e, target);
            }
        } finally {
            deleteTree(tmp);
        }
    }

    /** A fresh hidden sibling of {@code target}. */
    static Path temporary(Path target) {
        Path abs = target.toAbsolutePath();
        Path parent = abs.getParent();
        String name = "." + abs.getFileName() + "." + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36)
                + ".tmp";
        return parent == null ? Path.of(name) : parent.resolve(name);
    }

    private static void commit(Path tmp, Path target) throws IOException {
        try {
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (FileSystemException e) {
            throw renamed(e, target);
        }
    }

    private static void copyPermissions(Path from, Path to) throws IOException {
        PosixFileAttributeView src = Files.getFileAttributeView(from, PosixFileAttributeView.class);
        PosixFileAttributeView dst = Files.getFileAttributeView(to, PosixFileAttributeView.class);
        if (src == null || dst == null || !Files.isRegularFile(from)) {
            return;
        }
        dst.setPermissions(src.readAttributes().permissions());
    }

    /** The same failure, about the user's path instead of the temporary one. */
    private static FileSystemException renamed(FileSystemException e, Path target) {
        String reason = e.getReason() != null ? e.getReason()
                : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
                : e instanceof java.nio.file.NoSuchFileException ? "no such directory"
                : e.getClass().getSimpleName();
        FileSystemException r = new FileSystemException(target.toString(), null, reason);
        r.initCause(e);
        return r;
    }

    private static void deleteTree(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            try (var s = Files.list(p)) {
                for (Path c : s.toList()) {
                    deleteTree(c);
                }
            }
        }
        Files.deleteIfExists(p);
    }
}
