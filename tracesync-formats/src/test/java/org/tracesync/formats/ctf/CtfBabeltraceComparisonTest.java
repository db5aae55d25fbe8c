package org.tracesync.formats.ctf;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.formats.ctf.CtfType.ArrayType;
import org.tracesync.formats.ctf.CtfType.Encoding;
import org.tracesync.formats.ctf.CtfType.EnumType;
import org.tracesync.formats.ctf.CtfType.IntegerType;
import org.tracesync.formats.ctf.CtfType.SequenceType;
import org.tracesync.formats.ctf.CtfType.StringType;

/**
 * Decodes every shared CTF trace with our reader and with babeltrace2 (parsed from its text output
 * at test time) and requires the same events: per event name and per stream (cpu_id) counts, exact
 * ns timestamps, and the value of every top-level integer, enum and string payload field.
 *
 * <p>Empty strings are not compared: babeltrace2 2.0 prints the previous event's value for an
 * empty string field (bug446190, channel0_3 offset 125372: the payload bytes hold a lone NUL where
 * babeltrace2 shows the preceding sys_open's filename).
 */
class CtfBabeltraceComparisonTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"scp_src", "scp_dest", "bug446190", "ust-tracef"})
    void sameEventsAsBabeltrace(String name) throws Exception {
        Path dir = SharedCtfData.trace(name);
        SharedCtfData.requireBabeltrace();
        assertSameAsBabeltrace(dir, tmp);
    }

    /** The same with every decoding program compiled to bytecode from its first run ({@link CompiledDecodeProgram}). */
    @ParameterizedTest
    @ValueSource(strings = {"scp_src", "scp_dest", "bug446190", "ust-tracef"})
    void sameEventsAsBabeltraceWithProgramsCompiledAtOnce(String name) throws Exception {
        Path dir = SharedCtfData.trace(name);
        SharedCtfData.requireBabeltrace();
        String before = System.getProperty("tracesync.ctf.compileAfter");
        System.setProperty("tracesync.ctf.compileAfter", "0");
        try {
            assertSameAsBabeltrace(dir, tmp);
        } finally {
            if (before == null) {
                System.clearProperty("tracesync.ctf.compileAfter");
            } else {
                System.setProperty("tracesync.ctf.compileAfter", before);
            }
        }
    }

    /** Decodes {@code dir} with both decoders and requires the same events (see the class comment). */
    static void assertSameAsBabeltrace(Path dir, Path tmp) throws Exception {
        CtfTrace trace = CtfTrace.open(dir);
        String host = trace.metadata().hostname();

        // ours
        Map<String, CtfEventClass> classes = new HashMap<>();
        List<String> ours = new ArrayList<>();
        List<String> ourStrings = new ArrayList<>();
        java.util.Set<String> emptyStrings = new java.util.HashSet<>();
        Map<String, Long> oursByName = new TreeMap<>();
        Map<Long, Long> oursByCpu = new TreeMap<>();
        trace.read(e -> {
            CtfEventClass ec = e.eventClass();
            classes.putIfAbsent(ec.name(), ec);
            CtfFieldRef cpuRef = ec.field("cpu_id");
            long cpu = cpuRef == null ? -1 : e.longValue(cpuRef);
            StringBuilder sb = new StringBuilder().append(e.timestamp()).append('|').append(ec.name()).append('|').append(cpu);
            String key = sb.toString();
            for (CtfFieldRef f : ec.payloadFields()) {
                String v = ourValue(e, f);
                if (v == null) {
                    continue;
                }
                String entry = key + '|' + CtfEventClass.displayPath(f);
                if (v.startsWith("\"")) {
                    if (v.equals("\"\"")) {
                        emptyStrings.add(entry);
                    } else {
                        ourStrings.add(entry + '=' + v);
                    }
                } else {
                    sb.append('|').append(CtfEventClass.displayPath(f)).append('=').append(v);
                }
            }
            ours.add(sb.toString());
            oursByName.merge(ec.name(), 1L, Long::sum);
            oursByCpu.merge(cpu, 1L, Long::sum);
        });

        // babeltrace2: without the muxer on the single-stream scp traces (its muxer stops at the
        // first timestamp going backwards), with it elsewhere (the pretty sink has one input).
        List<String> args = trace.streamFiles().size() == 1
                ? List.of("babeltrace2", "run", "--component=src:source.ctf.fs",
                "--params=inputs=[\"" + dir + "\"]", "--component=sink:sink.text.pretty",
                "--params=clock-seconds=true,no-delta=true", "--connect=src:sink")
                : List.of("babeltrace2", "--clock-seconds", "--no-delta", dir.toString());
        List<String> btLines = SharedCtfData.babeltrace(tmp, args);
        List<String> theirs = new ArrayList<>();
        List<String> theirStrings = new ArrayList<>();
        Map<String, Long> theirsByName = new TreeMap<>();
        Map<Long, Long> theirsByCpu = new TreeMap<>();
        for (String line : btLines) {
            if (!line.startsWith("[")) {
                continue;
            }
            BabeltraceText bt = BabeltraceText.parse(line, host);
            CtfEventClass ec = classes.get(bt.name());
            long cpu = -1;
            if (!bt.groups().isEmpty() && bt.groups().get(0).containsKey("cpu_id")) {
                cpu = Long.parseLong(bt.groups().get(0).get("cpu_id"));
            }
            StringBuilder sb = new StringBuilder().append(bt.timestamp()).append('|').append(bt.name()).append('|').append(cpu);
            if (ec != null && !ec.payloadFields().isEmpty() && !bt.groups().isEmpty()) {
                Map<String, String> payload = bt.groups().get(bt.groups().size() - 1);
                String key = sb.toString();
                for (CtfFieldRef f : ec.payloadFields()) {
                    String raw = payload.get(CtfEventClass.displayPath(f));
                    String v = raw == null ? null : theirValue(f, raw);
                    if (v == null) {
                        continue;
                    }
                    String entry = key + '|' + CtfEventClass.displayPath(f);
                    if (v.startsWith("\"")) {
                        if (!emptyStrings.contains(entry)) {
                            theirStrings.add(entry + '=' + v);
                        }
                    } else {
                        sb.append('|').append(CtfEventClass.displayPath(f)).append('=').append(v);
                    }
                }
            }
            theirs.add(sb.toString());
            theirsByName.merge(bt.name(), 1L, Long::sum);
            theirsByCpu.merge(cpu, 1L, Long::sum);
        }

        assertThat(ours).isNotEmpty();
        assertThat(oursByName).isEqualTo(theirsByName);
        assertThat(oursByCpu).isEqualTo(theirsByCpu);
        List<String> a = new ArrayList<>(ours);
        List<String> b = new ArrayList<>(theirs);
        a.sort(null);
        b.sort(null);
        if (!a.equals(b)) {
            List<String> onlyOurs = new ArrayList<>(a);
            onlyOurs.removeAll(b);
            List<String> onlyTheirs = new ArrayList<>(b);
            onlyTheirs.removeAll(a);
            assertThat(onlyOurs.subList(0, Math.min(10, onlyOurs.size())))
                    .as("events only we decode vs only babeltrace2 decodes: %s", onlyTheirs.subList(0, Math.min(10, onlyTheirs.size())))
                    .isEmpty();
            assertThat(a).containsExactlyElementsOf(b);
        }
        ourStrings.sort(null);
        theirStrings.sort(null);
        assertThat(ourStrings).containsExactlyElementsOf(theirStrings);
    }

    private static boolean printable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '\\' || c == '"' || c > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static boolean isText(CtfType t) {
        CtfType el = t instanceof ArrayType a ? a.element() : t instanceof SequenceType s ? s.element() : null;
        return el instanceof IntegerType it && it.size() == 8 && it.encoding() != Encoding.NONE;
    }

    static String ourValue(CtfEvent e, CtfFieldRef f) {
        CtfType t = f.type();
        if (t instanceof IntegerType it) {
            long v = e.longValue(f);
            return it.signed() ? Long.toString(v) : Long.toUnsignedString(v);
        }
        if (t instanceof EnumType et) {
            long v = e.longValue(f);
            return et.container().signed() ? Long.toString(v) : Long.toUnsignedString(v);
        }
        if (t instanceof StringType || isText(t)) {
            String s = e.stringValue(f);
            return s.isEmpty() ? "\"\"" : printable(s) ? "\"" + s + "\"" : "\"<skipped>\"";
        }
        return null;
    }

    static String theirValue(CtfFieldRef f, String raw) {
        CtfType t = f.type();
        if (t instanceof IntegerType it) {
            return canonical(raw, it.signed());
        }
        if (t instanceof EnumType et) {
            int c = raw.indexOf("container = ");
            String num = raw.substring(c + "container = ".length(), raw.lastIndexOf(')')).trim();
            return canonical(num, et.container().signed());
        }
        if (t instanceof StringType || isText(t)) {
            String s = raw.length() >= 2 ? raw.substring(1, raw.length() - 1) : raw;
            return printable(s) ? raw : "\"<skipped>\"";
        }
        return null;
    }

    private static String canonical(String raw, boolean signed) {
        BigInteger v;
        if (raw.startsWith("0x")) {
            v = new BigInteger(raw.substring(2), 16);
        } else if (raw.startsWith("0b")) {
            v = new BigInteger(raw.substring(2), 2);
        } else if (raw.length() > 1 && raw.startsWith("0")) {
            v = new BigInteger(raw.substring(1), 8);
        } else {
            v = new BigInteger(raw);
        }
        long l = v.longValue();
        return signed ? Long.toString(l) : Long.toUnsignedString(l);
    }
}
