package org.tracesync.probe;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's packets carry every loss: a lost count that grows after a thread's last records were
 * written still reaches the file (a packet without events), so a reader can name it.
 */
class ProbeTraceWriterTest {

    @TempDir
    Path tmp;

    /** The events_discarded field (packet context, byte 64) of every packet of a stream file, in order. */
    private static List<Long> discardedPerPacket(Path stream) throws Exception {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(stream)).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> out = new ArrayList<>();
        int at = 0;
        while (at < b.limit()) {
            out.add(b.getLong(at + 64));
            at += (int) (b.getLong(at + 48) / 8);
        }
        return out;
    }

    @Test
    void aLossAfterTheLastRecordsIsWrittenInAPacketOfItsOwn() throws Exception {
        Path dir = tmp.resolve("t");
        ProbeTraceWriter w = new ProbeTraceWriter(dir, "n", 1, "p", EpochOffset.sample());
        long[] rec = new long[4 * 4];
        for (int k = 0; k < 4; k++) {
            rec[4 * k] = 1_000 + k;
            rec[4 * k + 1] = ((long) ProbeTraceWriter.ID_START << 32) | 0;
            rec[4 * k + 2] = k;
        }
        // the drain copies 4 records with the count read before them (0) and writes them
        ProbeTraceWriter.Stream s = w.stream(7, 0);
        for (int k = 0; k < 4; k++) {
            w.record(s, rec, 4 * k);
        }
        w.flush();
        // meanwhile the producer lost 96 records; the next drains find nothing to copy
        w.stream(7, 96);
        w.flush();
        w.flush();
        w.close();
        assertThat(discardedPerPacket(dir.resolve("thread_7"))).containsExactly(0L, 96L);
    }
}
