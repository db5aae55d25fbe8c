package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link DecodeProgram} and {@link PrunedDecoders} against decoding field by field with the decoder
 * trees, the reference: on the shared LTTng traces, a trace of our writer and seeded random
 * metadata over random bytes (bit fields of every size, both byte orders, alignments, signed
 * values, arrays, sequences, nested structures, strings, variants), a reader running the trees'
 * programs, or the pruned trees, must stop at the same events (class, offset, timestamp) and fail
 * with the same error at the same place; when it wants every field, its values must all be the
 * same; when it wants some (every third slot), the values of those; when it wants none, only the
 * positions tell, and they must agree. Each of these readers also
 * decodes from heap copies of a few bytes ({@link CtfStreamReader#CtfStreamReader(Path, int,
 * CtfMetadata, List, int)}), so that events, strings, sequences and errors cross the copy's end
 * and are decoded again after a larger copy: the events, values, positions and errors must be
 * those of the default copy.
 */
class PrunedDecodersTest {

    @TempDir
    Path tmp;

    private static final Function<CtfEventClass, BitSet> EVERY_FIELD = ec -> {
        BitSet b = new BitSet();
        b.set(0, DecoderCompiler.MAX_SLOTS);
        return b;
    };
    private static final Function<CtfEventClass, BitSet> NO_FIELD = ec -> new BitSet();
    /** Every third slot: runs that read some of their fields and step over the others (arrays among them). */
    private static final BitSet SOME_SLOTS = new BitSet();

    static {
        for (int i = 0; i < DecoderCompiler.MAX_SLOTS; i += 3) {
            SOME_SLOTS.set(i);
        }
    }

    private static final Function<CtfEventClass, BitSet> SOME_FIELDS = ec -> (BitSet) SOME_SLOTS.clone();

    /** Reads one stream file to its end (or its error) and says, per event, where it was and what it held. */
    private static List<String> read(Path file, CtfMetadata meta, Function<CtfEventClass, BitSet> wanted, boolean values)
            throws IOException {
        return read(file, meta, wanted, values, false);
    }

    /** As above; with {@code trees}, decoding with the decoder trees (the reference) instead of their programs. */
    private static List<String> read(Path file, CtfMetadata meta, Function<CtfEventClass, BitSet> wanted, boolean values,
                                     boolean trees) throws IOException {
        return read(file, meta, wanted, values, trees, CtfStreamReader.CHUNK);
    }

    /** As above, with heap copies of {@code chunk} bytes. */
    private static List<String> read(Path file, CtfMetadata meta, Function<CtfEventClass, BitSet> wanted, boolean values,
                                     boolean trees, int chunk) throws IOException {
        return read(file, meta, wanted, values ? null : new BitSet(), trees, chunk);
    }

    /** As above, showing the values of the slots in {@code shown} only (every slot when null); programs interpreted. */
    private static List<String> read(Path file, CtfMetadata meta, Function<CtfEventClass, BitSet> wanted, BitSet shown,
                                     boolean trees, int chunk) throws IOException {
        return read(file, meta, wanted, shown, trees, chunk, -1);
    }

    /** As above, the programs compiled to bytecode after {@code compileAfter} runs (negative: never, see {@link CtfStreamReader#run}). */
    private static List<String> read(Path file, CtfMetadata meta, Function<CtfEventClass, BitSet> wanted, BitSet shown,
                                     boolean trees, int chunk, int compileAfter) throws IOException {
        List<String> out = new ArrayList<>();
        CtfStreamReader r = new CtfStreamReader(file, 0, meta, new ArrayList<>(), chunk);
        r.compileAfter(compileAfter);
        if (trees) {
            r.decodeByTrees();
        }
        if (wanted != null) {
            r.readOnly(wanted);
        }
        try {
            while (r.advance()) {
                StringBuilder sb = new StringBuilder(r.eventClass().name()).append(' ').append(r.offset()).append(' ')
                        .append(r.timestamp());
                long[] slots = r.slots();
                for (int i = 0; i < slots.length; i++) {
                    if (shown == null || shown.get(i)) {
                        sb.append(' ').append(slots[i]);
                    }
                }
                out.add(sb.toString());
            }
        } catch (org.tracesync.formats.TraceFormatException e) {
            out.add("error: " + e.getMessage());
        } finally {
            r.close();
        }
        return out;
    }

    private static void assertSameAsFieldByField(Path file, CtfMetadata meta, int... smallCopies) throws IOException {
        List<String> reference = read(file, meta, null, true, true);
        assertThat(read(file, meta, null, true)).as("programs").containsExactlyElementsOf(reference);
        assertThat(read(file, meta, EVERY_FIELD, true)).as("programs of pruned trees").containsExactlyElementsOf(reference);
        List<String> positions = read(file, meta, null, false, true);
        assertThat(read(file, meta, NO_FIELD, false)).as("pruned trees reading nothing").containsExactlyElementsOf(positions);
        assertThat(read(file, meta, SOME_FIELDS, SOME_SLOTS, false, CtfStreamReader.CHUNK)).as("pruned trees reading some fields")
                .containsExactlyElementsOf(read(file, meta, null, SOME_SLOTS, true, CtfStreamReader.CHUNK));
        // the programs compiled to bytecode (CompiledDecodeProgram) from the first event, and after a few
        assertThat(read(file, meta, null, null, false, CtfStreamReader.CHUNK, 0)).as("compiled programs")
                .containsExactlyElementsOf(reference);
        assertThat(read(file, meta, EVERY_FIELD, null, false, CtfStreamReader.CHUNK, 3)).as("compiled pruned programs")
                .containsExactlyElementsOf(reference);
        assertThat(read(file, meta, NO_FIELD, new BitSet(), false, CtfStreamReader.CHUNK, 0))
                .as("compiled pruned programs reading nothing").containsExactlyElementsOf(positions);
        assertThat(read(file, meta, SOME_FIELDS, SOME_SLOTS, false, CtfStreamReader.CHUNK, 0))
                .as("compiled pruned programs reading some fields")
                .containsExactlyElementsOf(read(file, meta, null, SOME_SLOTS, true, CtfStreamReader.CHUNK));
        for (int chunk : smallCopies) {
            assertThat(read(file, meta, null, null, false, chunk, 0)).as("compiled programs, copies of " + chunk + " bytes")
                    .containsExactlyElementsOf(reference);
            assertThat(read(file, meta, NO_FIELD, new BitSet(), false, chunk, 0))
                    .as("compiled pruned, nothing, copies of " + chunk + " bytes").containsExactlyElementsOf(positions);
            assertThat(read(file, meta, null, true, false, chunk)).as("programs, copies of " + chunk + " bytes")
                    .containsExactlyElementsOf(reference);
            if (smallCopies != SMALL_COPIES_REAL) { // the real traces' slot dumps are long: two readers there
                assertThat(read(file, meta, null, true, true, chunk)).as("trees, copies of " + chunk + " bytes")
                        .containsExactlyElementsOf(reference);
                assertThat(read(file, meta, EVERY_FIELD, true, false, chunk)).as("pruned, copies of " + chunk + " bytes")
                        .containsExactlyElementsOf(reference);
            }
            assertThat(read(file, meta, NO_FIELD, false, false, chunk)).as("pruned, nothing, copies of " + chunk + " bytes")
                    .containsExactlyElementsOf(positions);
        }
    }

    /** Heap copies smaller than a byte's worth of fields, than an event, and than a packet of the shared traces. */
    private static final int[] SMALL_COPIES = {1, 24, 700};
    /** On the real traces (10^5 events): copies smaller than a packet, a few events long (the copy moves every few events). */
    private static final int[] SMALL_COPIES_REAL = {1000};

    @ParameterizedTest
    @ValueSource(strings = {"scp_src", "bug446190", "ust-tracef", "writer"})
    void prunedDecodersReadRealTracesAsFieldByField(String name) throws Exception {
        Path dir;
        if (name.equals("writer")) {
            dir = tmp.resolve("w");
            CtfTraceWriterTest.writeTrace(dir, 5, 3000);
        } else {
            dir = SharedCtfData.trace(name);
        }
        CtfTrace t = CtfTrace.open(dir);
        for (Path f : t.streamFiles()) {
            assertSameAsFieldByField(f, t.metadata(), SMALL_COPIES_REAL);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
        26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40})
    void prunedDecodersReadRandomLayoutsAsFieldByField(long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        Path dir = tmp.resolve("r" + seed);
        Files.createDirectories(dir);
        StringBuilder fields = new StringBuilder();
        int[] counter = {0};
        structBody(r, fields, counter, 0);
        String order = r.nextBoolean() ? "le" : "be";
        String meta = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; byte_order = " + order + "; };\n"
                + "stream { };\n"
                + "event { name = \"e\"; fields := struct {\n" + fields + "}; };\n";
        Files.writeString(dir.resolve("metadata"), meta);
        CtfMetadata m = CtfMetadataFile.read(dir.resolve("metadata"));
        byte[] data = new byte[200 + r.nextInt(3000)];
        for (int i = 0; i < data.length; i++) {
            // mostly small bytes, so that variant tags and strings end now and then
            data[i] = (byte) (r.nextInt(4) == 0 ? r.nextInt(256) : r.nextInt(3));
        }
        Path stream = dir.resolve("stream");
        Files.write(stream, data);
        assertSameAsFieldByField(stream, m, SMALL_COPIES);
    }

    private static String integer(SplittableRandom r) {
        int[] aligns = {1, 1, 4, 8, 8, 16, 32, 64};
        int align = aligns[r.nextInt(aligns.length)];
        int size = align >= 8 && r.nextBoolean() ? new int[] {8, 16, 32, 64}[r.nextInt(4)] : 1 + r.nextInt(64);
        return "integer { size = " + size + "; align = " + align + "; signed = " + r.nextBoolean() + "; byte_order = "
                + (r.nextBoolean() ? "be" : "le") + "; }";
    }

    private static void structBody(SplittableRandom r, StringBuilder sb, int[] counter, int depth) {
        int n = 1 + r.nextInt(8);
        for (int i = 0; i < n; i++) {
            String name = "f" + counter[0]++;
            int k = r.nextInt(10);
            if (k < 5) {
                sb.append(integer(r)).append(' ').append(name).append(";\n");
            } else if (k == 5) {
                sb.append(integer(r)).append(' ').append(name).append('[').append(r.nextInt(4)).append("];\n");
            } else if (k == 6 && depth < 2) {
                sb.append("struct {\n");
                structBody(r, sb, counter, depth + 1);
                sb.append("} align(").append(new int[] {1, 8, 32}[r.nextInt(3)]).append(") ").append(name).append(";\n");
            } else if (k == 7 && r.nextBoolean()) {
                sb.append("string ").append(name).append(";\n");
            } else if (k == 7) {
                String length = name + "_len";
                sb.append("integer { size = ").append(1 + r.nextInt(8)).append("; align = ").append(r.nextBoolean() ? 1 : 8)
                        .append("; signed = false; } ").append(length).append(";\n");
                String element = r.nextBoolean() ? integer(r) : "struct { " + integer(r) + " x; string s; }";
                sb.append(element).append(' ').append(name).append('[').append(length).append("];\n");
            } else if (k == 8 && depth < 2) {
                String tag = name + "_tag";
                sb.append("enum : integer { size = 8; align = 8; signed = false; } { a = 0, b = 1, c = 2 } ")
                        .append(tag).append(";\n");
                sb.append("variant <").append(tag).append("> {\nstruct {\n");
                structBody(r, sb, counter, depth + 1);
                sb.append("} a;\n").append(integer(r)).append(" b;\nstruct { } c;\n} ").append(name).append(";\n");
            } else {
                sb.append("floating_point { exp_dig = 8; mant_dig = 24; align = 32; } ").append(name).append(";\n");
            }
        }
    }
}
