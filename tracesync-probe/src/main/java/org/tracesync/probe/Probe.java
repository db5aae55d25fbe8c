package org.tracesync.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * The latency probe (Pääkkönen et al., ICPE'11), linked into the program under test:
 * <pre>
 *   Probe probe = Probe.open(Path.of("/tmp/probe"), "client");   // one trace per process
 *   int order = probe.event("order");                           // names, once, at setup
 *   probe.step(order, seq, 1);  ...  probe.step(order, seq, 4);  // chained event, across machines
 *   probe.start(render, seq);  ...  probe.stop(render, seq);      // simple event, one machine
 *   probe.send(msgId);  /  probe.receive(msgId);                 // application messages
 *   probe.close();                                               // drains and closes the trace
 * </pre>
 *
 * <p>Timestamps are {@link System#nanoTime()} values: CLOCK_MONOTONIC on Linux, the clock LTTng's
 * kernel traces use, shared by every process of the machine. The epoch offset (CLOCK_REALTIME −
 * CLOCK_MONOTONIC) is sampled at open (the trace clock's offset) and every
 * {@code offsetPeriodMillis} (events in the trace), so the probe's events line up with kernel
 * traces and captures of the same machine.
 *
 * <p>Fast path (every recording call): one thread-local lookup, then {@link ProbeBuffer#put}: no
 * allocation, no lock, no system call; a full buffer drops the record and counts it (never
 * blocks). The first call on a thread allocates that thread's buffer (once). A background daemon
 * thread drains the buffers every {@code flushMillis} into a CTF trace ({@link ProbeTraceWriter})
 * at {@code DIR/NODE-PID/}. Measured cost: docs/PERFORMANCE.md ("Latency probe").
 *
 * <p>Thread safety: every method may be called from any thread; {@link #event} and {@link #close}
 * take a lock (setup and shutdown only).
 */
public final class Probe implements AutoCloseable {

    /** Records per thread buffer unless configured (32 bytes each: 2 MiB). */
    public static final int DEFAULT_BUFFER_RECORDS = 1 << 16;

    private final String node;
    private final Path directory;
    private final int bufferRecords;
    private final long flushNanos;
    private final long offsetPeriodNanos;
    private final ProbeTraceWriter writer;
    private final List<ProbeBuffer> buffers = new CopyOnWriteArrayList<>();
    private final List<String> names = new ArrayList<>();
    private int namesWritten;
    private final ThreadLocal<ProbeBuffer> local;
    private final Thread drainer;
    private final Thread shutdownHook;
    private volatile boolean closing;
    private volatile IOException failure;

    private Probe(Path root, String node, int bufferRecords, long flushMillis, long offsetPeriodMillis) throws IOException {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("the node (machine) name must not be blank");
        }
        this.node = node;
        this.bufferRecords = bufferRecords;
        this.flushNanos = flushMillis * 1_000_000L;
        this.offsetPeriodNanos = offsetPeriodMillis * 1_000_000L;
        long pid = ProcessHandle.current().pid();
        this.directory = root.resolve(node + "-" + pid);
        String procname = ProcessHandle.current().info().command().map(c -> Path.of(c).getFileName().toString()).orElse("java");
        EpochOffset initial = EpochOffset.sample();
        this.writer = new ProbeTraceWriter(directory, node, pid, procname, initial);
        writer.clockOffset(initial);
        this.local = ThreadLocal.withInitial(this::register);
        this.drainer = new Thread(this::drainLoop, "tracesync-probe-writer");
        drainer.setDaemon(true);
        drainer.start();
        this.shutdownHook = new Thread(this::closeQuietly, "tracesync-probe-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts a probe writing to {@code root/NODE-PID/} with the defaults: 65,536 records per
     * thread, drained every 100 ms, epoch offset sampled every second.
     */
    public static Probe open(Path root, String node) throws IOException {
        return open(root, node, DEFAULT_BUFFER_RECORDS, 100, 1000);
    }

    /** As {@link #open(Path, String)} with the machine's host name. */
    public static Probe open(Path root) throws IOException {
        return open(root, hostName());
    }

    /**
     * @param bufferRecords     records per thread (a power of two); a thread that records more than
     *                          this between two drains loses the excess (counted)
     * @param flushMillis       drain period
     * @param offsetPeriodMillis epoch-offset sampling period
     */
    public static Probe open(Path root, String node, int bufferRecords, long flushMillis, long offsetPeriodMillis)
            throws IOException {
        if (bufferRecords < 2 || Integer.bitCount(bufferRecords) != 1) {
            throw new IllegalArgumentException("bufferRecords must be a power of two >= 2: " + bufferRecords);
        }
        if (flushMillis < 1 || offsetPeriodMillis < 1) {
            throw new IllegalArgumentException("periods must be >= 1 ms");
        }
        return new Probe(root, node, bufferRecords, flushMillis, offsetPeriodMillis);
    }

    /** The machine's name: /proc/sys/kernel/hostname, else $HOSTNAME, else "localhost". */
    public static String hostName() {
        try {
            String h = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.UTF_8).trim();
            if (!h.isEmpty()) {
                return h;
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        String h = System.getenv("HOSTNAME");
        return h == null || h.isBlank() ? "localhost" : h;
    }

    /** The trace directory this probe writes. */
    public Path directory() {
        return directory;
    }

    public String node() {
        return node;
    }

    /** Registers an event name and returns its id (the same id for the same name). Not for the fast path. */
    public synchronized int event(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("event name must not be empty");
        }
        int k = names.indexOf(name);
        if (k >= 0) {
            return k;
        }
        names.add(name);
        return names.size() - 1;
    }

    /** Simple event: start of instance {@code seq} of {@code event} on this machine. */
    public void start(int event, long seq) {
        local.get().put(((long) ProbeTraceWriter.ID_START << 32) | (event & 0xFFFFFFFFL), seq, 0);
    }

    /** Simple event: stop of instance {@code seq}. */
    public void stop(int event, long seq) {
        local.get().put(((long) ProbeTraceWriter.ID_STOP << 32) | (event & 0xFFFFFFFFL), seq, 0);
    }

    /** Chained event: step {@code step} of instance {@code seq}; steps of one instance happen in order. */
    public void step(int event, long seq, int step) {
        local.get().put(((long) ProbeTraceWriter.ID_STEP << 32) | (event & 0xFFFFFFFFL), seq, step);
    }

    /** An application message leaves this machine (id unique across the system). */
    public void send(long messageId) {
        local.get().put((long) ProbeTraceWriter.ID_SEND << 32, 0, messageId);
    }

    /** An application message arrives on this machine. */
    public void receive(long messageId) {
        local.get().put((long) ProbeTraceWriter.ID_RECEIVE << 32, 0, messageId);
    }

    /** Records dropped so far because a thread's buffer was full. */
    public long lost() {
        long n = 0;
        for (ProbeBuffer b : buffers) {
            n += b.lost();
        }
        return n;
    }

    /** Drains every buffer and flushes, stops the writer thread. Idempotent. */
    @Override
    public void close() throws IOException {
        synchronized (this) {
            if (!closing) {
                closing = true;
                LockSupport.unpark(drainer);
            }
        }
        try {
            drainer.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (IOException e) {
            System.err.println("tracesync-probe: " + directory + ": " + e.getMessage());
        }
    }

    private ProbeBuffer register() {
        ProbeBuffer b = new ProbeBuffer(Thread.currentThread(), bufferRecords);
        buffers.add(b);
        return b;
    }

    private void drainLoop() {
        long nextOffset = System.nanoTime() + offsetPeriodNanos;
        try {
            while (true) {
                boolean last = closing;
                writeNames();
                for (ProbeBuffer b : buffers) {
                    drain(b);
                    if (!b.owner.isAlive() && b.readable() == 0) {
                        writer.endThread(b.threadId);
                        buffers.remove(b);
                    }
                }
                if (System.nanoTime() - nextOffset >= 0 || last) {
                    writer.clockOffset(EpochOffset.sample());
                    nextOffset = System.nanoTime() + offsetPeriodNanos;
                }
                writer.flush();
                if (last) {
                    break;
                }
                LockSupport.parkNanos(flushNanos);
            }
        } catch (IOException e) {
            failure = e;
            System.err.println("tracesync-probe: " + directory + ": " + e.getMessage() + " (recording stopped)");
        } finally {
            try {
                writer.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    private void writeNames() throws IOException {
        List<String> fresh;
        synchronized (this) {
            fresh = List.copyOf(names.subList(namesWritten, names.size()));
            namesWritten = names.size();
        }
        int first = namesWritten - fresh.size();
        for (int k = 0; k < fresh.size(); k++) {
            writer.eventName(System.nanoTime(), first + k, fresh.get(k));
        }
    }

    private void drain(ProbeBuffer b) throws IOException {
        long n = b.readable();
        if (n == 0) {
            if (b.lost() > 0) {
                // records lost while the last drain copied (after it read the count) reach the file too
                writer.stream(b.threadId, b.lost());
            }
            return;
        }
        long pos = b.tailPosition();
        ProbeTraceWriter.Stream s = writer.stream(b.threadId, b.lost());
        long[] slots = b.slots();
        for (long k = 0; k < n; k++) {
            writer.record(s, slots, b.index(pos + k));
            if ((k & 4095) == 4095) {
                b.release(pos + k + 1); // hand space back early to a fast producer
            }
        }
        b.release(pos + n);
    }

    @Override
    public String toString() {
        return "Probe[" + directory + "]";
    }
}
