package org.tracesync.formats.input;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import org.tracesync.core.matching.EventBlock;

/**
 * Runs the filling of event blocks on a second thread while the calling thread consumes them:
 * reading and decoding overlap with matching. A fixed set of blocks circulates between two
 * bounded queues (filled, then free again), so memory stays at {@code blocks} blocks whatever
 * the input length, and the reading thread waits whenever it is that many blocks ahead.
 *
 * <p>The consumer sees the same blocks, in the same order, as a single-threaded loop would give
 * it, and runs on the calling thread: whatever it calls downstream (message sinks) is called from
 * that thread only. An exception in the filling thread is rethrown here after the blocks filled
 * before it were consumed; an exception in the consumer stops the filling thread.
 */
final class BlockHandover {

    /** Fills a block; returns false once the input has ended. */
    interface Filler {
        boolean fill(EventBlock block) throws IOException;
    }

    /** Consumes a filled block. */
    interface Consumer {
        void accept(EventBlock block);
    }

    private BlockHandover() {
    }

    /** The single-threaded loop: fill, consume, until the input ends. */
    static void inline(Filler filler, Consumer consumer, int capacity) throws IOException {
        EventBlock block = new EventBlock(capacity);
        boolean more;
        do {
            block.clear();
            more = filler.fill(block);
            consumer.accept(block);
        } while (more);
    }

    /** The same loop, with {@code filler} on a thread of its own. */
    static void threaded(Filler filler, Consumer consumer, int blocks, int capacity) throws IOException {
        BlockingQueue<EventBlock> free = new ArrayBlockingQueue<>(blocks);
        // one spare place: the end marker always fits, so the filling thread never blocks on it
        BlockingQueue<EventBlock> filled = new ArrayBlockingQueue<>(blocks + 1);
        for (int i = 0; i < blocks; i++) {
            free.add(new EventBlock(capacity));
        }
        EventBlock end = new EventBlock(0);
        Throwable[] failure = new Throwable[1];
        Thread reader = new Thread(() -> {
            try {
                boolean more;
                do {
                    EventBlock block = free.take();
                    block.clear();
                    more = filler.fill(block);
                    filled.put(block);
                } while (more);
            } catch (InterruptedException e) {
                // the consumer failed and stopped us: nothing to report
            } catch (Throwable e) {
                failure[0] = e;
            } finally {
                filled.add(end);
            }
        }, "tracesync-trace-reader");
        reader.setDaemon(true);
        reader.start();
        boolean ended = false;
        try {
            while (true) {
                EventBlock block = filled.take();
                if (block == end) {
                    ended = true;
                    break;
                }
                consumer.accept(block);
                free.add(block);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while matching traces");
        } finally {
            if (!ended) {
                // interrupting may close the reader's file channel: only done when abandoning
                reader.interrupt();
            }
            joinUninterruptibly(reader);
        }
        // join() orders the reading thread's writes (failure, counters) before what follows
        Throwable f = failure[0];
        if (f instanceof IOException e) {
            throw e;
        }
        if (f instanceof RuntimeException e) {
            throw e;
        }
        if (f instanceof Error e) {
            throw e;
        }
        if (f != null) {
            throw new UncheckedIOException(new IOException(f));
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
