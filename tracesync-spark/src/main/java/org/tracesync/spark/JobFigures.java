package org.tracesync.spark;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;

/**
 * How the job's work was partitioned, from Spark's task metrics: tasks run, bytes read from the
 * inputs, shuffle records and bytes written (the matching stage's traffic).
 */
public final class JobFigures extends SparkListener {

    private final AtomicLong tasks = new AtomicLong();
    private final AtomicLong inputBytes = new AtomicLong();
    private final AtomicLong shuffleRecords = new AtomicLong();
    private final AtomicLong shuffleBytes = new AtomicLong();
    private final AtomicLong peakExecutionMemory = new AtomicLong();

    /** A snapshot of the counts. */
    public record Figures(long tasks, long shuffleRecords, long shuffleBytes, long peakExecutionMemory) {
    }

    @Override
    public void onTaskEnd(SparkListenerTaskEnd end) {
        tasks.incrementAndGet();
        TaskMetrics m = end.taskMetrics();
        if (m != null) {
            inputBytes.addAndGet(m.inputMetrics().bytesRead());
            shuffleRecords.addAndGet(m.shuffleWriteMetrics().recordsWritten());
            shuffleBytes.addAndGet(m.shuffleWriteMetrics().bytesWritten());
            peakExecutionMemory.accumulateAndGet(m.peakExecutionMemory(), Math::max);
        }
    }

    public Figures figures() {
        return new Figures(tasks.get(), shuffleRecords.get(), shuffleBytes.get(), peakExecutionMemory.get());
    }
}
