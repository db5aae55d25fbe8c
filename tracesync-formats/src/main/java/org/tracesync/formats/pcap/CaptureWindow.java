package org.tracesync.formats.pcap;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import org.tracesync.formats.TraceFormatException;

/**
 * A sequential window over a capture file that the decoders read in place, without the heap
 * copy of {@link BlockInput} (in Java 17 a read into a heap array goes through a temporary direct
 * buffer: two copies). Two kinds:
 * <ul>
 * <li>{@link Kind#MAPPED}: the file mapped a window at a time ({@link FileChannel#map}); a window
 * is unmapped ({@code sun.misc.Unsafe.invokeCleaner}) as soon as the reader asks for bytes beyond
 * it, so the resident size stays at one window whatever the file's size. Available only when
 * sun.misc.Unsafe is reachable ({@link #available()}).
 * <li>{@link Kind#DIRECT}: one direct buffer refilled by {@link FileChannel#read}: the kernel's
 * copy only.
 * </ul>
 * {@link #require} makes a byte range contiguous in {@link #buffer()} (a record straddling two
 * windows is mapped or read again from its start), so a caller holds an index into the buffer
 * only until its next call. The buffer's order is big-endian (the network's).
 *
 * <p><b>A file that changes during the read.</b> The window reads the file as it was when
 * opened: its size then is compared with its size now at every new window, at the end and on
 * every error, and any difference is the error "truncated (or changed) during the read", naming
 * the file and the offset ({@link #changed}). A mapped window's pages past a new, shorter end
 * fault when loaded (SIGBUS): the JVM then lets the load return a meaningless value and raises
 * an {@code InternalError} at a later point of the same thread (its next safepoint poll or
 * native call), not at the load. So the readers treat their values as suspect until the next
 * check, and every native call here (the size, map, unmap) catches that error and turns it into
 * the same input error ({@link #fault}); the callers that hold a record's bytes catch it where it
 * may surface (the reader's {@code next}, the merge's {@code fill}).
 *
 * <p>Cost: O(1) per call; one mapping (or read system call) and one size query per window.
 * Memory: one window.
 */
final class CaptureWindow implements Closeable {

    /** How the window is filled. */
    enum Kind {
        /** Heap buffers (no window: {@link BlockInput}). */
        HEAP,
        /** Mapped windows unmapped once passed. */
        MAPPED,
        /** One direct buffer refilled by read. */
        DIRECT
    }

    /** Default window: 1 MiB mapped (a few captures' windows stay in the cache; see docs/PERFORMANCE.md). */
    static final int DEFAULT_MAPPED = 1 << 20;
    /** Default direct buffer: 128 KiB, as {@link BlockInput}'s heap buffer (L2-sized). */
    static final int DEFAULT_DIRECT = 1 << 17;

    private static final ByteBuffer EMPTY = ByteBuffer.allocateDirect(0);
    /** {@code sun.misc.Unsafe}, or null when unreachable (then no window: heap buffers). */
    static final sun.misc.Unsafe U = unsafe();
    /** The offset of {@code java.nio.Buffer.address} (a direct buffer's first byte), -1 without {@link #U}. */
    private static final long ADDRESS = addressOffset();

    private final java.nio.file.Path file;
    private final FileChannel channel;
    /** The file's size when the window was made: the read never goes past it. */
    private final long sizeAtOpen;
    /** Whether a load by address faulted (an InternalError was caught): the file changed or its pages failed. */
    private boolean faulted;
    private final Kind kind;
    private final int size;
    private ByteBuffer buf = EMPTY;
    /** The address of buf's index 0 (0 for no buffer). */
    private long address;
    /** File offset of buf's index 0. */
    private long base;
    /** Bytes of the file held from index 0. */
    private int limit;

    /**
     * A window of {@code kind} ({@link Kind#MAPPED} or {@link Kind#DIRECT}) over {@code channel}
     * ({@code file}, named in errors), which the caller keeps open until {@link #close()} and
     * closes itself. {@code size} bytes per window, larger for a longer range asked at once.
     */
    CaptureWindow(java.nio.file.Path file, FileChannel channel, Kind kind, int size) throws IOException {
        if (kind == Kind.HEAP) {
            throw new IllegalArgumentException("a window is mapped or direct");
        }
        if (!available()) {
            throw new IllegalStateException("sun.misc.Unsafe is not available: no capture window");
        }
        this.file = file;
        this.channel = channel;
        this.sizeAtOpen = channel.size();
        this.kind = kind;
        this.size = Math.max(size, 64);
    }

    /**
     * True when windows can be read in place (by address) and unmapped at once
     * ({@code sun.misc.Unsafe} reachable: module jdk.unsupported; a little-endian processor).
     */
    static boolean available() {
        return ADDRESS >= 0;
    }

    /**
     * The kind the matching readers use: the system property {@code tracesync.capture.window}
     * ({@code mapped}, {@code direct} or {@code heap}; mapped by default), mapped falling back to
     * heap when windows cannot be unmapped.
     */
    static Kind configured() {
        String v = System.getProperty("tracesync.capture.window", "mapped");
        Kind k = switch (v) {
            case "direct" -> Kind.DIRECT;
            case "heap" -> Kind.HEAP;
            case "mapped" -> Kind.MAPPED;
            default -> throw new IllegalArgumentException("tracesync.capture.window: mapped, direct or heap, not " + v);
        };
        return available() ? k : Kind.HEAP;
    }

    /** The window size of {@code kind}: the system property {@code tracesync.capture.windowBytes}, or the kind's default. */
    static int configuredSize(Kind kind) {
        return Integer.getInteger("tracesync.capture.windowBytes", kind == Kind.MAPPED ? DEFAULT_MAPPED : DEFAULT_DIRECT);
    }

    Kind kind() {
        return kind;
    }

    /** The window's bytes (big-endian); indices from {@link #require}, valid until its next call. */
    ByteBuffer buffer() {
        return buf;
    }

    /**
     * The address of {@link #buffer()}'s index 0, valid until the next {@link #require}: index i's
     * byte is at {@code address() + i}, to be read by {@link #U} (little-endian loads) only within what
     * {@link #require} made available, and never after the next call, which may unmap it.
     */
    long address() {
        return address;
    }

    /**
     * Makes the file's bytes {@code [offset, offset + n)} contiguous in {@link #buffer()} and
     * returns the index of the first; -1 when the file ends before {@code offset + n} (then
     * {@link #available(long)} tells how many bytes it has from {@code offset}).
     */
    int require(long offset, int n) throws IOException {
        long rel = offset - base;
        if (rel >= 0 && rel + n <= limit) {
            return (int) rel;
        }
        return move(offset, n);
    }

    /**
     * The bytes held from {@link #buffer()}'s index 0: a range that {@link #require} returned index
     * i for may be extended up to {@code held() - i} bytes without calling it again.
     */
    int held() {
        return limit;
    }

    /** Bytes of the file from {@code offset} (its size read again), 0 past its end. */
    long available(long offset) throws IOException {
        return Math.max(0, sizeNow() - offset);
    }

    /**
     * The file's size now. The query is a native call, where the JVM raises the InternalError of
     * a load by address that faulted since the last one: it is caught here and remembered.
     */
    private long sizeNow() throws IOException {
        try {
            return channel.size();
        } catch (InternalError e) {
            faulted = true;
            return channel.size();
        }
    }

    /**
     * Null when the file still has its size at open and no load has faulted; otherwise the error
     * to raise at {@code offset} (the record being read) instead of any other: what was read
     * since the change may be bytes that are no longer the file's.
     */
    TraceFormatException changed(long offset) throws IOException {
        long now = sizeNow();
        return now == sizeAtOpen && !faulted ? null : changedError(offset, now);
    }

    /** The error for {@code fault}, an InternalError of a load by address, caught while reading at {@code offset}. */
    TraceFormatException fault(long offset, InternalError fault) throws IOException {
        faulted = true;
        TraceFormatException e = changedError(offset, sizeNow());
        e.initCause(fault);
        return e;
    }

    private TraceFormatException changedError(long offset, long now) {
        return BlockInput.changedError(file, offset, sizeAtOpen, now);
    }

    private int move(long offset, int n) throws IOException {
        return kind == Kind.MAPPED ? map(offset, n) : read(offset, n);
    }

    /** Unmaps the window and maps one starting at {@code offset}: at least {@code n} bytes unless the file ends first. */
    private int map(long offset, int n) throws IOException {
        try {
            release();
        } catch (InternalError e) { // unmapping is a native call: a fault of an earlier load surfaces here
            throw fault(offset, e);
        }
        long now = sizeNow();
        if (now != sizeAtOpen || faulted) {
            throw changedError(offset, now);
        }
        long length = Math.min(Math.max(size, n), now - offset);
        if (length < n) {
            return -1;
        }
        try {
            buf = channel.map(FileChannel.MapMode.READ_ONLY, offset, length).order(ByteOrder.BIG_ENDIAN);
        } catch (InternalError e) {
            throw fault(offset, e);
        }
        address = U.getLong(buf, ADDRESS);
        base = offset;
        limit = (int) length;
        return 0;
    }

    /** Moves the bytes from {@code offset} to the start of the direct buffer and reads until {@code n} are held. */
    private int read(long offset, int n) throws IOException {
        long now = sizeNow();
        if (now != sizeAtOpen) {
            throw changedError(offset, now);
        }
        long rel = offset - base;
        int keep = rel >= 0 && rel < limit ? (int) (limit - rel) : 0;
        if (n > buf.capacity()) {
            ByteBuffer bigger = ByteBuffer.allocateDirect(Math.max(n, Math.max(size, 2 * buf.capacity())))
                    .order(ByteOrder.BIG_ENDIAN);
            if (keep > 0) {
                bigger.put(0, buf, (int) rel, keep);
            }
            release();
            buf = bigger;
            address = U.getLong(buf, ADDRESS);
        } else if (keep > 0) {
            buf.put(0, buf, (int) rel, keep);
        }
        if (keep == 0) {
            channel.position(offset);
        }
        base = offset;
        limit = keep;
        while (limit < n) {
            int r = channel.read(buf.limit(buf.capacity()).position(limit));
            if (r < 0) {
                return -1;
            }
            limit += r;
        }
        buf.clear();
        return 0;
    }

    /** Unmaps (or frees) the current buffer; nothing may read it afterwards. */
    private void release() {
        ByteBuffer old = buf;
        buf = EMPTY;
        address = 0;
        base = 0;
        limit = 0;
        if (old != EMPTY) {
            U.invokeCleaner(old);
        }
    }

    /**
     * Unmaps the window. A fault of an earlier load that surfaces in the unmapping is not raised
     * here (the reader was already ending, or failing with its own error).
     */
    @Override
    public void close() {
        try {
            release();
        } catch (InternalError e) {
            faulted = true;
        }
    }

    private static sun.misc.Unsafe unsafe() {
        try {
            Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
            f.setAccessible(true);
            return (sun.misc.Unsafe) f.get(null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;
        }
    }

    private static long addressOffset() {
        try {
            if (U == null || ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
                return -1; // the in-place readers swap a big-endian field's bytes once, from little-endian loads
            }
            long offset = U.objectFieldOffset(java.nio.Buffer.class.getDeclaredField("address"));
            ByteBuffer probe = ByteBuffer.allocateDirect(8);
            probe.putLong(0, 0x0102030405060708L);
            // the field holds the address, and the platform reads it in its own order
            long a = U.getLong(probe, offset);
            return U.getLong(a) == 0x0807060504030201L ? offset : -1;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return -1;
        }
    }
}
