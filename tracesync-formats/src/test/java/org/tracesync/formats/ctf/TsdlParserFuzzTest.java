package org.tracesync.formats.ctf;

import java.nio.file.Path;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.tracesync.formats.TraceFormatException;

/**
 * Fuzz target for the metadata reader and TSDL parser (and the decoder compiler, which resolves
 * tags and lengths): any input either parses or fails with a {@link TraceFormatException}; no other
 * exception, no hang. Runs its seeds (src/test/resources/.../TsdlParserFuzzTestInputs) in every
 * build; fuzz with {@code JAZZER_FUZZ=1 mvn -pl tracesync-formats test -Dtest=TsdlParserFuzzTest}.
 */
class TsdlParserFuzzTest {

    private static final Path FILE = Path.of("fuzz", "metadata");

    @FuzzTest(maxDuration = "60s")
    void parseMetadata(byte[] data) {
        try {
            CtfMetadata m = TsdlParser.parse(FILE, CtfMetadataFile.text(FILE, data));
            for (CtfMetadata.StreamClass sc : m.streams().values()) {
                DecoderCompiler c = new DecoderCompiler(FILE, m.trace().bigEndian());
                c.compileScope(m.trace().packetHeader(), CtfFieldRef.Scope.PACKET_HEADER);
                c.compileScope(sc.packetContext(), CtfFieldRef.Scope.PACKET_CONTEXT);
                c.compileScope(sc.eventHeader(), CtfFieldRef.Scope.EVENT_HEADER);
                c.compileScope(sc.eventContext(), CtfFieldRef.Scope.STREAM_EVENT_CONTEXT);
                for (CtfMetadata.EventClass ec : m.events()) {
                    DecoderCompiler e = c.fork();
                    e.compileScope(ec.context(), CtfFieldRef.Scope.EVENT_CONTEXT);
                    e.compileScope(ec.fields(), CtfFieldRef.Scope.EVENT_FIELDS);
                }
            }
        } catch (TraceFormatException expected) {
            // a clear error is the right answer to bad metadata
        }
    }
}
