package org.tracesync.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.tracesync.core.reduce.NodeResult;
import org.tracesync.core.reduce.RepairMoves;
import org.tracesync.core.transform.ReadingsInOrder;
import org.tracesync.formats.TraceFormat;

/**
 * One trace format's part of {@code tracesync apply}: writes a copy of a trace whose timestamps
 * are in its node's reference time. {@link ApplyCommand} recognises a trace's format with the
 * registry {@code sync} uses ({@code TraceFormats}) and picks the applier of that format; each
 * format that can be rewritten adds one.
 */
public interface TraceApplier {

    String name();

    /** The format whose traces this applier rewrites. */
    Class<? extends TraceFormat> format();

    /** Where {@link #apply} writes the copy of {@code trace} (node {@code node}) in {@code outDir}. */
    Path output(Path trace, NodeResult node, Path outDir);

    /** True when {@link #output} is a directory (a trace directory) rather than a file. */
    default boolean outputIsDirectory() {
        return false;
    }

    /**
     * True when an existing {@link #output} is refused rather than replaced (a directory always is:
     * it may hold a user's other files).
     */
    default boolean refusesExistingOutput() {
        return outputIsDirectory();
    }

    /** What {@link #apply} wrote, and what the user should know about it (empty when nothing). */
    record Applied(Path output, String note) {
    }

    /**
     * Writes the synchronized copy of {@code trace} (node {@code node}) at {@link #output}, through a
     * temporary sibling renamed at the end. The caller has checked the output path.
     */
    Applied apply(Path trace, NodeResult node, Path outDir) throws IOException;

    /**
     * Same, with the events the controlled logical clock moved (rows {local time, repaired
     * reference time, reading before the repair}, sorted; may be empty; read them with
     * {@link org.tracesync.core.reduce.RepairMoves#referenceTime}, which tells apart the two
     * events of a local time read twice): appliers that rewrite every timestamp use them; the
     * default ignores them (see {@link #appliesRepairs}).
     */
    default Applied apply(Path trace, NodeResult node, long[][] repairs, Path outDir) throws IOException {
        return apply(trace, node, outDir);
    }

    /** True when {@link #apply(Path, NodeResult, long[][], Path)} writes repaired timestamps. */
    default boolean appliesRepairs() {
        return false;
    }

    /** True when {@link #merge} is supported. */
    default boolean canMerge() {
        return false;
    }

    /**
     * Writes all traces into {@code out}, ordered by reference time, through a temporary sibling
     * renamed at the end; returns the number of records written. Nothing moved by the controlled
     * logical clock: {@link #merge(List, List, List, Path)} with no repairs.
     */
    default long merge(List<Path> traces, List<NodeResult> nodes, Path out) throws IOException {
        List<long[][]> none = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            none.add(new long[0][]);
        }
        return merge(traces, nodes, none, out);
    }

    /**
     * Same, with each node's events moved by the controlled logical clock ({@link #apply(Path,
     * NodeResult, long[][], Path)}; one list of rows per node, may be empty), written at their
     * repaired times as the copies have them.
     */
    default long merge(List<Path> traces, List<NodeResult> nodes, List<long[][]> repairs, Path out) throws IOException {
        throw new UnsupportedOperationException(name() + " traces cannot be merged");
    }

    /**
     * A node's timestamps in its trace's order mapped to reference time: the transform read in
     * order ({@link ReadingsInOrder}: around a backward step by the position in the trace), except
     * at the events the controlled logical clock moved (rows {local time, repaired reference time,
     * reading before the repair}, sorted: RepairMoves), which take their repaired time. Stateful: one per pass.
     */
    static LongUnaryOperator timesInOrder(NodeResult node, long[][] repairs) {
        LongUnaryOperator inOrder = new ReadingsInOrder(node.transform());
        if (repairs.length == 0) {
            return inOrder;
        }
        // each moved event found by its local time and its reading in file order (a time read twice
        // around a backward step names two events, each with its own repaired time; RepairMoves)
        return t -> RepairMoves.referenceTime(repairs, t, inOrder.applyAsLong(t)); // every timestamp, in order
    }
}
