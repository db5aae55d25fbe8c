package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.core.matching.EventBlock;
import org.tracesync.core.matching.TcpSegmentKey;
import org.tracesync.core.model.NetEvent;
import org.tracesync.formats.AddressTable;
import org.tracesync.formats.EventCursor;

/**
 * The matching pipeline's CTF cursor reads network events into a reused segment without
 * allocating; it must carry what {@link CtfTrace#stream} gives as {@link NetEvent}s, event for
 * event: same order, times, directions and keys (TCP and UDP, IPv4 and IPv6), and the same
 * address ids as interning the keys' address bytes.
 */
class CtfEventCursorTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void theCursorCarriesTheNetEventsOfTheTrace(long seed) throws Exception {
        Path dir = tmp.resolve("t" + seed);
        CtfTraceWriterTest.writeTrace(dir, seed, 3000);
        List<NetEvent> expected = new ArrayList<>();
        CtfTrace.open(dir).stream(expected::add);
        assertThat(expected).hasSizeGreaterThan(2000);

        CtfTrace trace = CtfTrace.open(dir);
        AddressTable table = new AddressTable();
        AddressTable reference = new AddressTable();
        EventBlock block = new EventBlock(expected.size());
        int i = 0;
        try (CtfEventCursor c = (CtfEventCursor) trace.cursor(0, table)) {
            while (c.advance()) {
                NetEvent e = expected.get(i++);
                CtfNetworkEvents.Segment s = c.segment();
                assertThat(c.time()).isEqualTo(e.timestamp());
                assertThat(s.direction).isEqualTo(e.direction());
                assertThat(s.key()).isEqualTo(e.key());
                assertThat(c.emit(block, 0, c.time())).isEqualTo(EventCursor.KEY);
                TcpSegmentKey k = (TcpSegmentKey) e.key();
                // the cursor interned the same addresses, in the same order, as interning their bytes
                reference.intern(k.source());
                reference.intern(k.destination());
                assertThat(table.size()).isEqualTo(reference.size());
            }
        }
        assertThat(i).isEqualTo(expected.size());
        assertThat(block.size()).isEqualTo(expected.size());
        assertThat(table.size()).isEqualTo(reference.size()).isEqualTo(4);
    }
}
