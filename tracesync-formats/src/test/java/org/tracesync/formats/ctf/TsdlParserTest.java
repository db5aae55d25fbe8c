package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfType.ArrayType;
import org.tracesync.formats.ctf.CtfType.EnumType;
import org.tracesync.formats.ctf.CtfType.FloatType;
import org.tracesync.formats.ctf.CtfType.IntegerType;
import org.tracesync.formats.ctf.CtfType.SequenceType;
import org.tracesync.formats.ctf.CtfType.StructType;
import org.tracesync.formats.ctf.CtfType.VariantType;

class TsdlParserTest {

    private static final Path FILE = Path.of("metadata");

    static byte[] seed(String name) throws Exception {
        try (InputStream in = TsdlParserTest.class.getResourceAsStream("TsdlParserFuzzTestInputs/parseMetadata/" + name)) {
            return in.readAllBytes();
        }
    }

    @Test
    void parsesEveryConstructOfTheSeed() throws Exception {
        CtfMetadata m = TsdlParser.parse(FILE, new String(seed("constructs.tsdl"), StandardCharsets.UTF_8));
        assertThat(m.trace().bigEndian()).isTrue();
        assertThat(m.clock("c").freq()).isEqualTo(1234567);
        assertThat(m.clock("c").offsetSeconds()).isEqualTo(10);
        assertThat(m.streams()).containsOnlyKeys(3L);
        CtfMetadata.EventClass ec = m.events().get(0);
        assertThat(ec.id()).isEqualTo(7);
        StructType f = ec.fields();
        EnumType kind = (EnumType) f.field("kind").type();
        assertThat(kind.labelOf(0)).isEqualTo("A");
        assertThat(kind.labelOf(1)).isEqualTo("B");
        assertThat(kind.labelOf(11)).isEqualTo("D");
        assertThat(kind.labelOf(25)).isEqualTo("E_F");
        assertThat(kind.labelOf(5)).isNull();
        VariantType v = (VariantType) f.field("v").type();
        assertThat(v.tag()).isEqualTo("kind");
        assertThat(((FloatType) v.options().get(2).type()).size()).isEqualTo(64);
        IntegerType small = (IntegerType) f.field("small").type();
        assertThat(small.size()).isEqualTo(3);
        assertThat(small.signed()).isTrue();
        assertThat(small.byteOrder()).isEqualTo(CtfType.ByteOrder.BIG);
        assertThat(((SequenceType) f.field("points").type()).lengthRef()).isEqualTo("n");
        ArrayType raw = (ArrayType) f.field("raw").type();
        assertThat(raw.length()).isEqualTo(2);
        assertThat(((ArrayType) raw.element()).length()).isEqualTo(3);
        assertThat(((SequenceType) f.field("stream_tid_copy").type()).lengthRef()).isEqualTo("stream.event.context.tid");
        assertThat(((IntegerType) m.streams().get(3L).eventHeader().field("timestamp").type()).clock()).isEqualTo("c");
    }

    @Test
    void packetizedBigEndianEqualsPlainText() throws Exception {
        String plain = new String(seed("writer-metadata.tsdl"), StandardCharsets.UTF_8);
        String packetized = CtfMetadataFile.text(FILE, seed("writer-metadata-packetized-be"));
        assertThat(packetized).isEqualTo(plain);
        assertThat(TsdlParser.parse(FILE, packetized)).isEqualTo(TsdlParser.parse(FILE, plain));
    }

    @Test
    void acceptsTheLttng214FirstLineWithoutTheCtfSignature() throws Exception {
        String plain = new String(seed("writer-metadata.tsdl"), StandardCharsets.UTF_8);
        assertThat(plain).startsWith("/* CTF 1.8 */");
        String lttng214 = plain.replaceFirst("/\\* CTF 1\\.8 \\*/", "/* LTTng 2.14 metadata */");
        String bare = plain.replaceFirst("/\\* CTF 1\\.8 \\*/\n", "");
        CtfMetadata expected = TsdlParser.parse(FILE, plain);
        assertThat(TsdlParser.parse(FILE, CtfMetadataFile.text(FILE, lttng214.getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(expected);
        assertThat(TsdlParser.parse(FILE, CtfMetadataFile.text(FILE, bare.getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(expected);
    }

    @Test
    void errorsNameTheLineAndWhatWasExpected() {
        assertThatThrownBy(() -> TsdlParser.parse(FILE, "trace {\n major = 1;\n byte_order = le\n};"))
                .isInstanceOf(TraceFormatException.class).hasMessage("metadata:line 4: metadata: expected ';' but found '}'");
        assertThatThrownBy(() -> TsdlParser.parse(FILE, "trace { byte_order = le; };\nevent { fields := struct { nosuch_t x; }; };"))
                .hasMessageContaining("line 2").hasMessageContaining("unknown type 'nosuch_t'");
        assertThatThrownBy(() -> TsdlParser.parse(FILE, "trace { major = 2; byte_order = le; };"))
                .hasMessageContaining("unsupported CTF version 2");
        assertThatThrownBy(() -> TsdlParser.parse(FILE, "struct a { " + "struct { ".repeat(100)))
                .isInstanceOf(TraceFormatException.class).hasMessageContaining("nesting");
    }

    @Test
    void exponentialAliasesAreRejectedNotExpanded() throws Exception {
        StringBuilder sb = new StringBuilder("trace { byte_order = le; };\n"
                + "typealias integer { size = 8; } := t0;\n");
        for (int i = 1; i <= 40; i++) {
            sb.append("typealias struct { t").append(i - 1).append(" a; t").append(i - 1).append(" b; } := t").append(i).append(";\n");
        }
        sb.append("stream { event.header := struct { integer { size = 8; } id; }; };\n");
        sb.append("event { name = x; fields := struct { t40 big; }; };\n");
        CtfMetadata m = TsdlParser.parse(FILE, sb.toString());
        DecoderCompiler c = new DecoderCompiler(FILE, false);
        assertThatThrownBy(() -> c.compileScope(m.events().get(0).fields(), CtfFieldRef.Scope.EVENT_FIELDS))
                .isInstanceOf(TraceFormatException.class).hasMessageContaining("more than");
    }
}
