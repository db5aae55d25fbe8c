package org.tracesync.probe;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thread's record buffer: a single-producer single-consumer ring of fixed-size records (four
 * longs: timestamp, kind and event id, sequence number, step or message id).
 *
 * <p>The owning thread is the only writer of {@code head} and of the slots; the background writer
 * is the only writer of {@code tail}. Publication is a release store of {@code head}, consumption
 * an acquire load of it: no lock, no allocation, no system call. When the ring is full the record
 * is dropped and counted in {@link #lost()} (the caller never waits); the count goes into the
 * output as CTF's {@code events_discarded}.
 *
 * <p>The producer's fields ({@code head}, its cached copy of the tail, the lost count) and the
 * consumer's ({@code tail}) sit on different cache lines (padding superclasses, as JCTools does),
 * so the two threads do not invalidate each other's line on every record.
 *
 * <p>Cost: one {@code System.nanoTime()} (a vDSO call on Linux, no system call), one acquire load,
 * four array stores and one release store per record.
 */
final class ProbeBuffer extends ProbeBufferTail {

    static final int LONGS_PER_RECORD = 4;
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle LOST;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(ProbeBufferHead.class, "head", long.class);
            TAIL = l.findVarHandle(ProbeBufferTail.class, "tail", long.class);
            LOST = l.findVarHandle(ProbeBufferHead.class, "lost", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread owner;
    final long threadId;
    private final long[] slots;
    private final int mask;
    private final int capacity;

    /** @param capacity records, a power of two */
    ProbeBuffer(Thread owner, int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two >= 2: " + capacity);
        }
        this.owner = owner;
        this.threadId = owner.getId();
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.slots = new long[capacity * LONGS_PER_RECORD];
    }

    /** Owner thread only: appends one record taken now; drops and counts it when the ring is full. */
    void put(long kindAndEvent, long seq, long arg) {
        long t = System.nanoTime();
        long h = (long) HEAD.getOpaque(this);
        if (h - cachedTail >= capacity) {
            cachedTail = (long) TAIL.getAcquire(this);
            if (h - cachedTail >= capacity) {
                LOST.setOpaque(this, (long) LOST.getOpaque(this) + 1);
                return;
            }
        }
        int i = (int) (h & mask) * LONGS_PER_RECORD;
        long[] s = slots;
        s[i] = t;
        s[i + 1] = kindAndEvent;
        s[i + 2] = seq;
        s[i + 3] = arg;
        HEAD.setRelease(this, h + 1);
    }

    /** Consumer: records published and not yet consumed, in order; the tail position. */
    long readable() {
        return (long) HEAD.getAcquire(this) - (long) TAIL.getOpaque(this);
    }

    long tailPosition() {
        return (long) TAIL.getOpaque(this);
    }

    /** Consumer: the slot array; record at position p starts at {@link #index}(p). */
    long[] slots() {
        return slots;
    }

    int index(long position) {
        return (int) (position & mask) * LONGS_PER_RECORD;
    }

    /** Consumer: releases every record below {@code position} to the producer. */
    void release(long position) {
        TAIL.setRelease(this, position);
    }

    long lost() {
        return (long) LOST.getOpaque(this);
    }

    int capacity() {
        return capacity;
    }
}

/** Padding: keeps the producer's fields off the object header's cache line. */
abstract class ProbeBufferPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

/** The producer's fields. */
abstract class ProbeBufferHead extends ProbeBufferPad0 {
    long head;
    long cachedTail;
    long lost;
}

/** Padding between the producer's and the consumer's fields. */
abstract class ProbeBufferPad1 extends ProbeBufferHead {
    long p10, p11, p12, p13, p14, p15, p16, p17;
}

/** The consumer's field, then padding before the subclass's (read-mostly) fields. */
abstract class ProbeBufferTail extends ProbeBufferPad1 {
    long tail;
    long p20, p21, p22, p23, p24, p25, p26, p27;
}
