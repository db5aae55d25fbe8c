package org.tracesync.formats.ctf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfFieldRef.Scope;
import org.tracesync.formats.ctf.CtfType.ArrayType;
import org.tracesync.formats.ctf.CtfType.ByteOrder;
import org.tracesync.formats.ctf.CtfType.EnumMapping;
import org.tracesync.formats.ctf.CtfType.EnumType;
import org.tracesync.formats.ctf.CtfType.Field;
import org.tracesync.formats.ctf.CtfType.FloatType;
import org.tracesync.formats.ctf.CtfType.IntegerType;
import org.tracesync.formats.ctf.CtfType.SequenceType;
import org.tracesync.formats.ctf.CtfType.StringType;
import org.tracesync.formats.ctf.CtfType.StructType;
import org.tracesync.formats.ctf.CtfType.VariantType;

/**
 * Turns the typed model of one stream class (and its event classes) into {@link FieldDecoder}
 * trees over one slot array, resolving variant tags and sequence lengths (relative names are
 * looked up in the enclosing structures, then in the earlier dynamic scopes; absolute names start
 * with a scope prefix such as {@code stream.event.context.}).
 */
final class DecoderCompiler {

    private final Path file;
    private final boolean traceBigEndian;
    private int nextSlot;
    private final Map<Scope, Map<String, CtfFieldRef>> maps = new EnumMap<>(Scope.class);
    private Scope scope;
    private int visits;

    DecoderCompiler(Path file, boolean traceBigEndian) {
        this.file = file;
        this.traceBigEndian = traceBigEndian;
        for (Scope s : Scope.values()) {
            maps.put(s, new LinkedHashMap<>());
        }
    }

    /** A copy sharing nothing mutable, continuing slot allocation from here (one per event class). */
    DecoderCompiler fork() {
        DecoderCompiler c = new DecoderCompiler(file, traceBigEndian);
        c.nextSlot = nextSlot;
        for (Scope s : Scope.values()) {
            c.maps.get(s).putAll(maps.get(s));
        }
        return c;
    }

    int slotCount() {
        return nextSlot;
    }

    Map<String, CtfFieldRef> fields(Scope s) {
        return maps.get(s);
    }

    /** Compiles one dynamic scope; returns null when {@code type} is null. */
    FieldDecoder compileScope(StructType type, Scope s) throws TraceFormatException {
        if (type == null) {
            return null;
        }
        scope = s;
        return compile(type, "", null);
    }

    private int roleOf(String path, CtfType t) {
        if (scope == Scope.EVENT_HEADER) {
            String leaf = path.substring(path.lastIndexOf('.') + 1);
            if (leaf.equals("id")) {
                return FieldDecoder.ROLE_EVENT_ID;
            }
            if (leaf.equals("timestamp") || (t instanceof IntegerType it && it.clock() != null)) {
                return FieldDecoder.ROLE_TIMESTAMP;
            }
        } else if (scope == Scope.PACKET_CONTEXT && path.equals("timestamp_begin")) {
            return FieldDecoder.ROLE_PACKET_BEGIN;
        }
        return FieldDecoder.ROLE_NONE;
    }

    private boolean bigEndian(ByteOrder o) {
        return o == ByteOrder.NATIVE ? traceBigEndian : o == ByteOrder.BIG;
    }

    /** Bound on decoded values per event: type aliases can make metadata expand exponentially. */
    static final int MAX_SLOTS = 1 << 16;

    private int alloc(int n) throws TraceFormatException {
        if (nextSlot + n > MAX_SLOTS) {
            throw new TraceFormatException(file, "", "metadata: a stream declares more than " + MAX_SLOTS
                    + " fields per event");
        }
        int s = nextSlot;
        nextSlot += n;
        return s;
    }

    private FieldDecoder compile(CtfType t, String path, String parent) throws TraceFormatException {
        if (++visits > 4 * MAX_SLOTS) {
            throw new TraceFormatException(file, "", "metadata: a stream declares more than " + MAX_SLOTS
                    + " fields per event");
        }
        FieldDecoder d;
        if (t instanceof IntegerType it) {
            int slot = alloc(1);
            register(path, t, slot);
            d = new FieldDecoder.IntegerDecoder(slot, it.size(), it.alignment(), bigEndian(it.byteOrder()), it.signed(),
                    roleOf(path, t));
        } else if (t instanceof EnumType et) {
            IntegerType it = et.container();
            int slot = alloc(1);
            register(path, t, slot);
            d = new FieldDecoder.IntegerDecoder(slot, it.size(), it.alignment(), bigEndian(it.byteOrder()), it.signed(),
                    roleOf(path, t));
        } else if (t instanceof FloatType ft) {
            int slot = alloc(1);
            register(path, t, slot);
            d = new FieldDecoder.FloatDecoder(slot, ft.size(), ft.alignment(), bigEndian(ft.byteOrder()));
        } else if (t instanceof StringType) {
            int slot = alloc(2);
            register(path, t, slot);
            d = new FieldDecoder.StringDecoder(slot);
        } else if (t instanceof StructType st) {
            FieldDecoder[] fs = new FieldDecoder[st.fields().size()];
            for (int i = 0; i < fs.length; i++) {
                Field f = st.fields().get(i);
                fs[i] = compile(f.type(), join(path, f.name()), path);
            }
            if (!path.isEmpty()) {
                register(path, t, -1);
            }
            d = new FieldDecoder.StructDecoder(st.alignment(), fs);
        } else if (t instanceof VariantType vt) {
            CtfFieldRef tag = resolve(vt.tag(), parent == null ? "" : parent);
            if (tag == null || !(tag.type() instanceof EnumType tagType)) {
                throw new TraceFormatException(file, "", "metadata: variant '" + path + "' tag '" + vt.tag()
                        + "' is not an enum field declared before it");
            }
            int slot = alloc(1);
            register(path, t, slot);
            FieldDecoder[] opts = new FieldDecoder[vt.options().size()];
            for (int i = 0; i < opts.length; i++) {
                Field f = vt.options().get(i);
                opts[i] = compile(f.type(), join(path, f.name()), parent);
            }
            List<long[]> ranges = new ArrayList<>();
            for (EnumMapping m : tagType.mappings()) {
                int opt = optionIndex(vt, m.label());
                if (opt >= 0) {
                    ranges.add(new long[] {m.low(), m.high(), opt});
                }
            }
            long[] lows = new long[ranges.size()];
            long[] highs = new long[ranges.size()];
            int[] optOf = new int[ranges.size()];
            for (int i = 0; i < lows.length; i++) {
                lows[i] = ranges.get(i)[0];
                highs[i] = ranges.get(i)[1];
                optOf[i] = (int) ranges.get(i)[2];
            }
            d = new FieldDecoder.VariantDecoder(slot, tag.slot(), tagType.container().signed(), lows, highs, optOf, opts,
                    path);
        } else if (t instanceof ArrayType at) {
            int slot = alloc(2);
            register(path, t, slot);
            FieldDecoder el = compile(at.element(), path + "[]", parent);
            d = new FieldDecoder.ArrayDecoder(slot, at.length(), -1, at.alignment(), stride(at.element()), el, path);
        } else if (t instanceof SequenceType sq) {
            CtfFieldRef len = resolve(sq.lengthRef(), parent == null ? "" : parent);
            if (len == null || !(len.type() instanceof IntegerType || len.type() instanceof EnumType)) {
                throw new TraceFormatException(file, "", "metadata: sequence '" + path + "' length '" + sq.lengthRef()
                        + "' is not an integer field declared before it");
            }
            int slot = alloc(2);
            register(path, t, slot);
            FieldDecoder el = compile(sq.element(), path + "[]", parent);
            d = new FieldDecoder.ArrayDecoder(slot, 0, len.slot(), sq.alignment(), stride(sq.element()), el, path);
        } else {
            throw new IllegalStateException("unknown type " + t);
        }
        return d;
    }

    private static int optionIndex(VariantType vt, String label) {
        for (int i = 0; i < vt.options().size(); i++) {
            if (vt.options().get(i).name().equals(label)) {
                return i;
            }
        }
        for (int i = 0; i < vt.options().size(); i++) {
            if (CtfType.displayName(vt.options().get(i).name()).equals(CtfType.displayName(label))) {
                return i;
            }
        }
        return -1;
    }

    private static long stride(CtfType t) {
        int size;
        int align;
        if (t instanceof IntegerType it) {
            size = it.size();
            align = it.alignment();
        } else if (t instanceof EnumType et) {
            size = et.container().size();
            align = et.container().alignment();
        } else if (t instanceof FloatType ft) {
            size = ft.size();
            align = ft.alignment();
        } else {
            return 0;
        }
        return size % align == 0 ? size : 0;
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    private void register(String path, CtfType t, int slot) {
        maps.get(scope).put(path, new CtfFieldRef(path, t, slot, scope));
    }

    /** Resolves a field reference from inside {@code at} (a path in the current scope). */
    private CtfFieldRef resolve(String ref, String at) {
        for (Scope s : Scope.values()) {
            String p = s.prefix() + ".";
            if (ref.startsWith(p)) {
                return maps.get(s).get(ref.substring(p.length()));
            }
        }
        String prefix = at;
        Map<String, CtfFieldRef> m = maps.get(scope);
        while (true) {
            CtfFieldRef r = m.get(join(prefix, ref));
            if (r != null) {
                return r;
            }
            if (prefix.isEmpty()) {
                break;
            }
            int dot = prefix.lastIndexOf('.');
            prefix = dot < 0 ? "" : prefix.substring(0, dot);
        }
        for (int i = scope.ordinal() - 1; i >= 0; i--) {
            CtfFieldRef r = maps.get(Scope.values()[i]).get(ref);
            if (r != null) {
                return r;
            }
        }
        return null;
    }
}
