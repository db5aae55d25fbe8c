package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * That {@link CtfStreamReader} really runs {@link CompiledDecodeProgram}s (their values are compared
 * with the interpreter's and the trees' in {@code PrunedDecodersTest}): the programs of the LTTng
 * layouts are compiled, streams share the classes of equal programs, and a program that cannot be
 * compiled stays interpreted.
 */
class CompiledDecodeProgramTest {

    @TempDir
    Path tmp;

    /** Reads every stream of the trace with programs compiled at once; returns the readers, closed. */
    private static List<CtfStreamReader> readAll(CtfTrace t, boolean noField) throws Exception {
        List<CtfStreamReader> readers = new ArrayList<>();
        for (Path f : t.streamFiles()) {
            CtfStreamReader r = new CtfStreamReader(f, 0, t.metadata(), new ArrayList<>());
            r.compileAfter(0);
            if (noField) {
                r.readOnly(ec -> new java.util.BitSet()); // only what decoding needs
            }
            while (r.advance()) {
                // decode every event
            }
            r.close();
            readers.add(r);
        }
        return readers;
    }

    @Test
    void theNetworkEventsOfOurWriterAndTheirHeaderRunCompiled() throws Exception {
        Path dir = tmp.resolve("w");
        CtfTraceWriterTest.writeTrace(dir, 5, 300);
        CtfTrace t = CtfTrace.open(dir);
        List<CtfStreamReader> readers = readAll(t, false);
        Set<String> compiled = new HashSet<>();
        for (CtfStreamReader r : readers) {
            assertThat(r.eventCount()).isPositive();
            assertThat(r.eventHeaderProgram().compiled).as("event header of " + r.file()).isNotNull();
            for (CtfEventClass ec : r.eventClasses()) {
                if (ec.program.compiled != null) {
                    compiled.add(ec.name());
                }
            }
        }
        assertThat(compiled).contains("net_dev_queue", "net_if_receive_skb");
        // equal programs of two streams share one class
        assertThat(readers).hasSizeGreaterThan(1);
        assertThat(readers.get(0).eventHeaderProgram().compiled).isSameAs(readers.get(1).eventHeaderProgram().compiled);
    }

    @Test
    void prunedProgramsOfTheSharedLttngTraceRunCompiled() throws Exception {
        CtfTrace t = CtfTrace.open(SharedCtfData.trace("scp_src"));
        List<CtfStreamReader> readers = readAll(t, true);
        int events = 0;
        int compiled = 0;
        for (CtfStreamReader r : readers) {
            assertThat(r.eventHeaderProgram().compiled).isNotNull();
            for (CtfEventClass ec : r.eventClasses()) {
                events++;
                if (ec.program.runs < 0) { // it ran, so it was tried
                    compiled += ec.program.compiled != null ? 1 : 0;
                }
            }
        }
        assertThat(events).isPositive();
        assertThat(compiled).isPositive();
    }

    @Test
    void arraysOfElementsOfVariableSizeAreLeftToTheInterpreter() throws Exception {
        FieldDecoder element = new FieldDecoder.StringDecoder(0);
        FieldDecoder.ArrayDecoder strings = new FieldDecoder.ArrayDecoder(2, 3, -1, 8, 0, element, "names");
        DecodeProgram p = DecodeProgram.of(strings);
        assertThat(CompiledDecodeProgram.of(p)).isNull();
        FieldDecoder.ArrayDecoder bytes = new FieldDecoder.ArrayDecoder(2, 3, -1, 8, 8,
                new FieldDecoder.IntegerDecoder(0, 8, 8, false, false, FieldDecoder.ROLE_NONE), "bytes");
        assertThat(CompiledDecodeProgram.of(DecodeProgram.of(bytes))).isNotNull();
    }
}
