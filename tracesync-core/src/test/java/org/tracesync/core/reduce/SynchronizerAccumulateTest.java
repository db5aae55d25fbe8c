package org.tracesync.core.reduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracesync.core.accumulate.PairAccumulators;
import org.tracesync.core.accumulate.SplitReadable;
import org.tracesync.core.model.MessageInput;
import org.tracesync.core.model.MessageSink;
import org.tracesync.core.model.NodeInfo;

/**
 * {@link Synchronizer#accumulate}: an input that can be read in parts is read in parts, on every
 * processor (the sync command reads through it: reading a 184 MB LTTV text file sequentially cost
 * it 0.4 s of wall time); any other input in one pass.
 */
class SynchronizerAccumulateTest {

    private static final List<NodeInfo> NODES = List.of(new NodeInfo("0", "f"), new NodeInfo("1", "f"));

    /** Reads in parts only; a sequential read fails the test. */
    private static final class PartsOnly implements MessageInput, SplitReadable {
        int threads;
        final PairAccumulators parts = new PairAccumulators(2);

        @Override
        public List<NodeInfo> nodes() {
            return NODES;
        }

        @Override
        public void readMessages(MessageSink sink) {
            throw new AssertionError("read sequentially although the input can be read in parts");
        }

        @Override
        public PairAccumulators accumulate(int threads) {
            this.threads = threads;
            parts.message(0, 1, 100, 250);
            return parts;
        }
    }

    @Test
    void splitReadableInputIsReadInPartsOnEveryProcessor() throws Exception {
        PartsOnly input = new PartsOnly();
        PairAccumulators acc = Synchronizer.accumulate(input);
        assertSame(input.parts, acc);
        assertEquals(Runtime.getRuntime().availableProcessors(), input.threads);
        assertEquals(1, acc.messages());
    }

    @Test
    void otherInputsAreReadInOnePass() throws Exception {
        MessageInput input = new MessageInput() {
            @Override
            public List<NodeInfo> nodes() {
                return NODES;
            }

            @Override
            public void readMessages(MessageSink sink) {
                sink.message(0, 1, 100, 250);
                sink.message(1, 0, 300, 180);
            }
        };
        PairAccumulators acc = Synchronizer.accumulate(input);
        assertEquals(2, acc.messages());
        assertEquals(1, acc.pair(0, 1).countAToB());
        assertEquals(1, acc.pair(0, 1).countBToA());
        assertEquals(100, acc.first(0));
        assertEquals(300, acc.last(1));
    }
}
