package org.tracesync.core.accumulate;

import java.util.concurrent.CountDownLatch;

/**
 * One half of a stage that runs on a second (daemon) thread while the caller does the other half,
 * then is joined: for stages with two independent parts that only read data nobody changes while
 * they run ({@link TimeBuckets#buckets}, the two greedy scans of the piecewise fit). tracesync runs
 * on machines with as few as two cores, where the reading already keeps both busy but the fit
 * after it ran on one. A subclass says what {@link #compute} does; its result (or what it threw)
 * is handed over through {@link #join}, which orders every write of the task before the caller's
 * reads.
 *
 * @param <T> the result
 */
public abstract class SecondThreadTask<T> implements Runnable {

    private final CountDownLatch done = new CountDownLatch(1);
    private T result;
    private Throwable failure;

    /** The work. */
    protected abstract T compute();

    /**
     * Starts {@link #compute} on a new daemon thread named {@code name} when {@code parallel} (and
     * the machine has more than one core), else runs it on this thread before returning.
     */
    public final SecondThreadTask<T> start(String name, boolean parallel) {
        if (parallel && Runtime.getRuntime().availableProcessors() > 1) {
            Thread thread = new Thread(this, name);
            thread.setDaemon(true);
            thread.start();
        } else {
            run();
        }
        return this;
    }

    @Override
    public final void run() {
        try {
            result = compute();
        } catch (RuntimeException | Error e) {
            failure = e;
        } finally {
            done.countDown();
        }
    }

    /**
     * Waits for {@link #compute} to finish and returns its result, or rethrows what it threw. An
     * interrupt does not stop the work: the wait goes on, and the interrupt is kept.
     */
    public final T join() {
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure instanceof RuntimeException r) {
            throw r;
        }
        if (failure instanceof Error e) {
            throw e;
        }
        return result;
    }
}
