package org.tracesync.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A one-line progress display on stderr while a command reads large inputs: bytes read (of the
 * total, when known), items per second, percentage and ETA, refreshed four times a second; then,
 * after {@link #phase}, the name of each later phase (estimating pairs, solving the global
 * program, …) with the time spent in it, so that a long phase never shows as a frozen
 * "reading 100 %".
 * Shown only when stderr is an interactive terminal — {@code System.console() != null}, no
 * {@code CI} environment variable, {@code TERM} not {@code dumb} — and not {@code --quiet}: never
 * in pipes or CI logs. The line is erased when the reporter closes.
 *
 * <pre>
 *   try (ProgressReporter p = ProgressReporter.start("reading", totalBytes, source::bytesRead, count::get, "events", quiet)) {
 *       ... read ...
 *   }
 * </pre>
 * Cost: one daemon thread while open; the suppliers are polled, the reading loop is untouched.
 */
public final class ProgressReporter implements AutoCloseable {

    private static final long PERIOD_MS = 250;

    private final Thread thread;
    private final PrintStream err;
    private volatile boolean running = true;
    private int lastLength;
    private final String label;
    private final long totalBytes;
    private final LongSupplier bytes;
    private final LongSupplier items;
    private final String unit;
    private final long start = System.nanoTime();
    /** The current phase after reading (null while reading) and when it began. */
    private volatile String phase;
    private volatile long phaseStart;

    private ProgressReporter(String label, long totalBytes, LongSupplier bytes, LongSupplier items, String unit,
                             PrintStream err) {
        this.err = err;
        this.label = label;
        this.totalBytes = totalBytes;
        this.bytes = bytes;
        this.items = items;
        this.unit = unit;
        this.thread = new Thread(new Display(), "tracesync-progress");
        thread.setDaemon(true);
    }

    /**
     * The display thread's body: a class, not a lambda, as every {@code sync} creates one, shown or
     * not (a lambda's call site is linked at its first use, about a millisecond of the start).
     */
    private final class Display implements Runnable {
        @Override
        public void run() {
            display();
        }
    }

    private void display() {
        while (running) {
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
            if (!running) {
                return;
            }
            String line = currentLine((System.nanoTime() - (phase == null ? start : phaseStart)) / 1e9);
            synchronized (this) {
                if (running) {
                    err.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
                    err.flush();
                    lastLength = line.length();
                }
            }
        }
    }

    /** Bytes read when unknown. */
    private static final LongSupplier UNKNOWN = new LongSupplier() {
        @Override
        public long getAsLong() {
            return -1;
        }
    };

    /** True when a progress display makes sense: an interactive terminal, not CI, not quiet. */
    public static boolean wanted(boolean quiet) {
        // the environment last: its first reading parses all of it (ProcessEnvironment), a few ms at start
        return !quiet && System.console() != null && System.getenv("CI") == null && !"dumb".equals(System.getenv("TERM"));
    }

    /**
     * Starts a display (a no-op reporter when {@link #wanted} is false).
     *
     * @param totalBytes total input size, or ≤ 0 when unknown (no percentage, no ETA)
     * @param bytes      bytes read so far (null when unknown)
     * @param items      items (events, messages) processed so far
     */
    public static ProgressReporter start(String label, long totalBytes, LongSupplier bytes, LongSupplier items,
                                         String unit, boolean quiet) {
        ProgressReporter p = new ProgressReporter(label, totalBytes, bytes == null ? UNKNOWN : bytes, items, unit,
                System.err);
        if (wanted(quiet)) {
            p.thread.start();
        } else {
            p.running = false;
        }
        return p;
    }

    /** Switches the display to a named phase (after reading), timed from now. */
    public void phase(String name) {
        phaseStart = System.nanoTime();
        phase = name;
    }

    /** The line shown now, {@code seconds} into the reading or the current phase. */
    String currentLine(double seconds) {
        String p = phase;
        return p != null ? phaseLine(p, seconds) : line(label, bytes.getAsLong(), totalBytes, items.getAsLong(), unit, seconds);
    }

    /** The text of a phase's line: its name and the whole seconds spent in it. */
    static String phaseLine(String name, double seconds) {
        return String.format(Locale.ROOT, "%s  %d s", name, (long) seconds);
    }

    /** The text of one progress line (pure: for tests and for the thread). */
    static String line(String label, long bytes, long totalBytes, long items, String unit, double seconds) {
        StringBuilder b = new StringBuilder(label);
        if (bytes >= 0) {
            b.append("  ").append(size(bytes));
            if (totalBytes > 0) {
                b.append(" / ").append(size(totalBytes));
                b.append(String.format(Locale.ROOT, "  %3.0f%%", Math.min(100.0, 100.0 * bytes / totalBytes)));
            }
        }
        double rate = seconds > 0 ? items / seconds : 0;
        b.append(String.format(Locale.ROOT, "  %s %s/s", count(rate), unit));
        if (bytes > 0 && totalBytes > bytes && seconds > 0.5) {
            long eta = Math.round((totalBytes - bytes) * seconds / bytes);
            b.append(String.format(Locale.ROOT, "  ETA %d:%02d", eta / 60, eta % 60));
        }
        return b.toString();
    }

    private static String size(long bytes) {
        if (bytes >= 1L << 30) {
            return String.format(Locale.ROOT, "%.2f GB", bytes / (double) (1L << 30));
        }
        if (bytes >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MB", bytes / (double) (1L << 20));
        }
        return String.format(Locale.ROOT, "%.0f KB", bytes / 1024.0);
    }

    private static String count(double v) {
        if (v >= 1e6) {
            return String.format(Locale.ROOT, "%.2f M", v / 1e6);
        }
        if (v >= 1e3) {
            return String.format(Locale.ROOT, "%.1f k", v / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /** True when the display is running (an interactive terminal). */
    public boolean active() {
        return thread.isAlive();
    }

    @Override
    public void close() {
        boolean wasRunning = running;
        synchronized (this) {
            running = false;
            if (wasRunning && lastLength > 0) {
                err.print("\r" + " ".repeat(lastLength) + "\r");
                err.flush();
            }
        }
        thread.interrupt();
    }
}
