package org.tracesync.formats.ctf;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tracesync.formats.TraceFormatException;
import org.tracesync.formats.ctf.CtfMetadata.ClockClass;
import org.tracesync.formats.ctf.CtfMetadata.EventClass;
import org.tracesync.formats.ctf.CtfMetadata.StreamClass;
import org.tracesync.formats.ctf.CtfMetadata.TraceClass;
import org.tracesync.formats.ctf.CtfType.ArrayType;
import org.tracesync.formats.ctf.CtfType.ByteOrder;
import org.tracesync.formats.ctf.CtfType.Encoding;
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
 * Parses CTF 1.8 TSDL metadata text into a {@link CtfMetadata}.
 *
 * <p><b>Why hand-written recursive descent rather than ANTLR 4.</b> TSDL is a small, C-like
 * declaration language (about 15 productions that matter to LTTng: typealias/typedef, the
 * trace/env/clock/stream/event blocks, integer/floating_point/string/enum/struct/variant type
 * specifiers, array and sequence declarators). A hand-written parser keeps the formats module free
 * of a runtime dependency and of a code-generation step, resolves type aliases while parsing (TSDL
 * type names are scoped and multi-word, e.g. {@code unsigned long}, which is awkward in a
 * context-free grammar), and reports every error as one {@link TraceFormatException} naming the
 * metadata line and what was expected, which is what the CLI prints. Its input is untrusted and
 * fuzzed (Jazzer): recursion depth is bounded ({@value #MAX_DEPTH}) so hostile nesting cannot
 * overflow the stack.
 *
 * <p>Cost: linear in the metadata size (one token of look-ahead, no backtracking except the
 * two-token peek that tells a declaration from an assignment).
 *
 * <p>Not supported (rejected with a clear error or ignored): {@code callsite} blocks (ignored),
 * CTF 2 JSON metadata, variants without a tag.
 */
public final class TsdlParser {

    static final int MAX_DEPTH = 64;

    private final Path file;
    private final Lexer lex;
    private int depth;

    /** Type-name scopes: innermost last. Keys are alias names ("uint32_t", "unsigned long", "struct x"). */
    private final Deque<Map<String, CtfType>> scopes = new ArrayDeque<>();

    private TraceClass trace;
    private final Map<String, Object> env = new LinkedHashMap<>();
    private final List<ClockClass> clocks = new ArrayList<>();
    private final Map<Long, StreamClass> streams = new LinkedHashMap<>();
    private final List<EventClass> events = new ArrayList<>();

    private TsdlParser(Path file, String text) {
        this.file = file;
        this.lex = new Lexer(text);
        scopes.push(new HashMap<>());
    }

    /**
     * Parses metadata text.
     *
     * @param file for error messages only
     */
    public static CtfMetadata parse(Path file, String text) throws TraceFormatException {
        TsdlParser p = new TsdlParser(file, text);
        try {
            p.parseTop();
        } catch (StackOverflowError e) {
            throw p.error("nesting too deep");
        }
        if (p.trace == null) {
            throw new TraceFormatException(file, "", "TSDL metadata has no trace block");
        }
        return new CtfMetadata(p.trace, p.env, p.clocks, p.streams, p.events);
    }

    // ------------------------------------------------------------------ top level

    private void parseTop() throws TraceFormatException {
        while (lex.peek().kind != Tok.EOF) {
            Token t = lex.peek();
            if (t.isIdent("typealias")) {
                parseTypealias();
            } else if (t.isIdent("typedef")) {
                parseTypedef();
            } else if (t.isIdent("trace")) {
                lex.next();
                parseTraceBlock();
            } else if (t.isIdent("env")) {
                lex.next();
                Map<String, Object> m = parseAttributeBlock();
                env.putAll(m);
            } else if (t.isIdent("clock")) {
                lex.next();
                parseClockBlock();
            } else if (t.isIdent("stream")) {
                lex.next();
                parseStreamBlock();
            } else if (t.isIdent("event")) {
                lex.next();
                parseEventBlock();
            } else if (t.isIdent("callsite")) {
                lex.next();
                parseAttributeBlock();
            } else if (t.isIdent("struct") || t.isIdent("variant") || t.isIdent("enum")
                    || t.isIdent("integer") || t.isIdent("floating_point") || t.isIdent("string")) {
                // a named type declaration, e.g. "struct packet_context { ... };"
                parseTypeSpecifier();
                expect(";");
            } else if (t.kind == Tok.PUNCT && t.text.equals(";")) {
                lex.next();
            } else {
                throw error("expected a top-level declaration (trace, env, clock, stream, event, typealias, struct...)"
                        + " but found '" + t.text + "'");
            }
        }
    }

    private void parseTypealias() throws TraceFormatException {
        expectIdent("typealias");
        CtfType type = parseTypeSpecifier();
        expect(":=");
        StringBuilder name = new StringBuilder();
        while (lex.peek().kind == Tok.IDENT) {
            if (name.length() > 0) {
                name.append(' ');
            }
            name.append(lex.next().text);
        }
        if (name.length() == 0) {
            throw error("expected the alias name after ':='");
        }
        expect(";");
        scopes.peek().put(name.toString(), type);
    }

    private void parseTypedef() throws TraceFormatException {
        expectIdent("typedef");
        CtfType type = parseTypeSpecifier();
        String name = expectIdentAny();
        type = parseDeclaratorSuffix(type);
        expect(";");
        scopes.peek().put(name, type);
    }

    private void parseTraceBlock() throws TraceFormatException {
        Block b = parseBlock();
        int major = (int) b.longValue("major", 1);
        int minor = (int) b.longValue("minor", 8);
        if (major != 1) {
            throw error("unsupported CTF version " + major + "." + minor + " (this reader reads CTF 1.8)");
        }
        Object bo = b.values.get("byte_order");
        boolean big = bo != null && (bo.equals("be") || bo.equals("network"));
        if (bo == null) {
            throw error("trace block has no byte_order");
        }
        Object uuid = b.values.get("uuid");
        CtfType header = b.types.get("packet.header");
        trace = new TraceClass(major, minor, uuid == null ? null : uuid.toString(), big, asStruct(header, "packet.header"));
    }

    private void parseClockBlock() throws TraceFormatException {
        Block b = parseBlock();
        Object name = b.values.get("name");
        if (name == null) {
            throw error("clock block has no name");
        }
        long freq = b.longValue("freq", 1_000_000_000L);
        if (freq <= 0) {
            throw error("clock " + name + ": freq must be positive");
        }
        Object uuid = b.values.get("uuid");
        Object desc = b.values.get("description");
        Object abs = b.values.get("absolute");
        clocks.add(new ClockClass(name.toString(), uuid == null ? null : uuid.toString(),
                desc == null ? null : desc.toString(), freq, b.longValue("offset_s", 0), b.longValue("offset", 0),
                b.longValue("precision", 0), abs != null && (abs.equals("true") || abs.equals(1L) || abs.equals("TRUE"))));
    }

    private void parseStreamBlock() throws TraceFormatException {
        Block b = parseBlock();
        long id = b.longValue("id", 0);
        if (streams.containsKey(id)) {
            throw error("duplicate stream id " + id);
        }
        streams.put(id, new StreamClass(id, asStruct(b.types.get("packet.context"), "packet.context"),
                asStruct(b.types.get("event.header"), "event.header"),
                asStruct(b.types.get("event.context"), "event.context")));
    }

    private void parseEventBlock() throws TraceFormatException {
        Block b = parseBlock();
        Object name = b.values.get("name");
        if (name == null) {
            throw error("event block has no name");
        }
        events.add(new EventClass(name.toString(), b.longValue("id", 0), b.longValue("stream_id", 0),
                b.longValue("loglevel", -1), asStruct(b.types.get("context"), "context"),
                asStruct(b.types.get("fields"), "fields")));
    }

    private StructType asStruct(CtfType t, String what) throws TraceFormatException {
        if (t == null) {
            return null;
        }
        if (t instanceof StructType s) {
            return s;
        }
        throw error(what + " must be a struct");
    }

    /** The contents of a trace/clock/stream/event/env block. */
    private static final class Block {
        final Map<String, Object> values = new HashMap<>();
        final Map<String, CtfType> types = new HashMap<>();

        long longValue(String key, long dflt) {
            Object v = values.get(key);
            return v instanceof Long l ? l : dflt;
        }
    }

    private Block parseBlock() throws TraceFormatException {
        expect("{");
        scopes.push(new HashMap<>());
        enter();
        Block b = new Block();
        while (!lex.peek().isPunct("}")) {
            Token t = lex.peek();
            if (t.isIdent("typealias")) {
                parseTypealias();
                continue;
            }
            if (t.isIdent("typedef")) {
                parseTypedef();
                continue;
            }
            if (t.isPunct(";")) {
                lex.next();
                continue;
            }
            String key = parseDottedKey();
            if (lex.peek().isPunct(":=")) {
                lex.next();
                CtfType type = parseTypeSpecifier();
                type = parseDeclaratorSuffix(type);
                b.types.put(key, type);
            } else if (lex.peek().isPunct("=")) {
                lex.next();
                b.values.put(key, parseValue());
            } else {
                throw error("expected '=' or ':=' after '" + key + "'");
            }
            expect(";");
        }
        lex.next();
        leave();
        scopes.pop();
        expect(";");
        return b;
    }

    private Map<String, Object> parseAttributeBlock() throws TraceFormatException {
        return parseBlock().values;
    }

    private String parseDottedKey() throws TraceFormatException {
        StringBuilder sb = new StringBuilder(expectIdentAny());
        while (lex.peek().isPunct(".")) {
            lex.next();
            sb.append('.').append(expectIdentAny());
        }
        return sb.toString();
    }

    /** A right-hand value: integer (possibly negative), string literal, identifier or dotted path. */
    private Object parseValue() throws TraceFormatException {
        Token t = lex.peek();
        if (t.kind == Tok.NUMBER || t.isPunct("-") || t.isPunct("+")) {
            return parseInteger();
        }
        if (t.kind == Tok.STRING) {
            lex.next();
            return t.text;
        }
        if (t.kind == Tok.IDENT) {
            return parseDottedKey();
        }
        throw error("expected a value but found '" + t.text + "'");
    }

    private long parseInteger() throws TraceFormatException {
        boolean neg = false;
        if (lex.peek().isPunct("-")) {
            lex.next();
            neg = true;
        } else if (lex.peek().isPunct("+")) {
            lex.next();
        }
        Token t = lex.next();
        if (t.kind != Tok.NUMBER) {
            throw error(t, "expected an integer but found '" + t.text + "'");
        }
        long v = parseNumber(t);
        return neg ? -v : v;
    }

    private long parseNumber(Token t) throws TraceFormatException {
        String s = t.text;
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == 'u' || s.charAt(end - 1) == 'U'
                || s.charAt(end - 1) == 'l' || s.charAt(end - 1) == 'L')) {
            end--;
        }
        s = s.substring(0, end);
        try {
            if (s.startsWith("0x") || s.startsWith("0X")) {
                return Long.parseUnsignedLong(s.substring(2), 16);
            }
            if (s.length() > 1 && s.startsWith("0")) {
                return Long.parseUnsignedLong(s.substring(1), 8);
            }
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw error(t, "bad integer literal '" + t.text + "'");
        }
    }

    // ------------------------------------------------------------------ types

    private CtfType parseTypeSpecifier() throws TraceFormatException {
        Token t = lex.peek();
        if (t.kind != Tok.IDENT) {
            throw error("expected a type but found '" + t.text + "'");
        }
        switch (t.text) {
            case "integer":
                lex.next();
                return parseInteger(parseAttributeList());
            case "floating_point":
                lex.next();
                return parseFloat(parseAttributeList());
            case "string": {
                lex.next();
                Encoding enc = Encoding.UTF8;
                if (lex.peek().isPunct("{")) {
                    Map<String, Object> a = parseAttributeList();
                    enc = encoding(a.get("encoding"));
                }
                return new StringType(enc);
            }
            case "enum":
                lex.next();
                return parseEnum();
            case "struct":
                lex.next();
                return parseStruct();
            case "variant":
                lex.next();
                return parseVariant();
            default:
                return parseAliasReference();
        }
    }

    /** One or more identifiers naming a type alias ("uint32_t", "unsigned long"). */
    private CtfType parseAliasReference() throws TraceFormatException {
        // The longest run of identifiers that names an alias, leaving the rest (the declarator).
        List<Token> idents = new ArrayList<>();
        int i = 0;
        while (lex.peek(i).kind == Tok.IDENT) {
            idents.add(lex.peek(i));
            i++;
        }
        for (int n = idents.size(); n >= 1; n--) {
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < n; k++) {
                if (k > 0) {
                    sb.append(' ');
                }
                sb.append(idents.get(k).text);
            }
            CtfType type = lookupType(sb.toString());
            if (type != null) {
                for (int k = 0; k < n; k++) {
                    lex.next();
                }
                return type;
            }
        }
        throw error("unknown type '" + idents.get(0).text + "'");
    }

    private CtfType lookupType(String name) {
        for (Map<String, CtfType> s : scopes) {
            CtfType t = s.get(name);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    private Map<String, Object> parseAttributeList() throws TraceFormatException {
        expect("{");
        Map<String, Object> m = new HashMap<>();
        while (!lex.peek().isPunct("}")) {
            if (lex.peek().isPunct(";")) {
                lex.next();
                continue;
            }
            String key = parseDottedKey();
            expect("=");
            m.put(key, parseValue());
            expect(";");
        }
        lex.next();
        return m;
    }

    private IntegerType parseInteger(Map<String, Object> a) throws TraceFormatException {
        Object size = a.get("size");
        if (!(size instanceof Long s) || s < 1 || s > 64) {
            throw error("integer size must be 1..64, got " + size);
        }
        int sz = (int) (long) s;
        int align = alignAttr(a.get("align"), sz % 8 == 0 ? 8 : 1);
        boolean signed = bool(a.get("signed"));
        int base = 10;
        Object b = a.get("base");
        if (b instanceof Long l) {
            base = (int) (long) l;
        } else if (b != null) {
            String bs = b.toString();
            base = switch (bs) {
                case "hex", "x", "X", "p" -> 16;
                case "oct", "o" -> 8;
                case "bin", "b" -> 2;
                default -> 10;
            };
        }
        String clock = null;
        Object map = a.get("map");
        if (map != null) {
            String ms = map.toString();
            if (ms.startsWith("clock.") && ms.endsWith(".value")) {
                clock = ms.substring(6, ms.length() - 6);
            }
        }
        return new IntegerType(sz, align, signed, byteOrder(a.get("byte_order")), base, encoding(a.get("encoding")), clock);
    }

    private FloatType parseFloat(Map<String, Object> a) throws TraceFormatException {
        Object e = a.get("exp_dig");
        Object m = a.get("mant_dig");
        if (!(e instanceof Long el) || !(m instanceof Long ml)) {
            throw error("floating_point needs exp_dig and mant_dig");
        }
        if (!((el == 8 && ml == 24) || (el == 11 && ml == 53))) {
            throw error("only 32-bit (8/24) and 64-bit (11/53) floating_point are supported, got exp_dig="
                    + el + " mant_dig=" + ml);
        }
        return new FloatType((int) (long) el, (int) (long) ml, alignAttr(a.get("align"), 8), byteOrder(a.get("byte_order")));
    }

    private int alignAttr(Object v, int dflt) throws TraceFormatException {
        if (v == null) {
            return dflt;
        }
        if (!(v instanceof Long l) || l < 1 || l > (1 << 16) || Long.bitCount(l) != 1) {
            throw error("align must be a power of two, got " + v);
        }
        return (int) (long) l;
    }

    private static boolean bool(Object v) {
        if (v instanceof Long l) {
            return l != 0;
        }
        return v != null && (v.equals("true") || v.equals("TRUE"));
    }

    private ByteOrder byteOrder(Object v) throws TraceFormatException {
        if (v == null) {
            return ByteOrder.NATIVE;
        }
        return switch (v.toString()) {
            case "le" -> ByteOrder.LITTLE;
            case "be", "network" -> ByteOrder.BIG;
            case "native" -> ByteOrder.NATIVE;
            default -> throw error("unknown byte_order '" + v + "'");
        };
    }

    private Encoding encoding(Object v) {
        if (v == null) {
            return Encoding.NONE;
        }
        return switch (v.toString()) {
            case "UTF8", "utf8" -> Encoding.UTF8;
            case "ASCII", "ascii" -> Encoding.ASCII;
            default -> Encoding.NONE;
        };
    }

    private CtfType parseEnum() throws TraceFormatException {
        String name = null;
        if (lex.peek().kind == Tok.IDENT) {
            name = lex.next().text;
        }
        if (!lex.peek().isPunct(":") && !lex.peek().isPunct("{")) {
            CtfType t = name == null ? null : lookupType("enum " + name);
            if (t == null) {
                throw error("unknown enum '" + name + "'");
            }
            return t;
        }
        IntegerType container;
        if (lex.peek().isPunct(":")) {
            lex.next();
            CtfType c = parseTypeSpecifier();
            if (!(c instanceof IntegerType it)) {
                throw error("enum container must be an integer type");
            }
            container = it;
        } else {
            CtfType c = lookupType("int");
            if (!(c instanceof IntegerType it)) {
                throw error("enum without container type needs an 'int' typealias");
            }
            container = it;
        }
        expect("{");
        List<EnumMapping> mappings = new ArrayList<>();
        long next = 0;
        while (!lex.peek().isPunct("}")) {
            Token lt = lex.next();
            if (lt.kind != Tok.IDENT && lt.kind != Tok.STRING) {
                throw error(lt, "expected an enum label but found '" + lt.text + "'");
            }
            long lo = next;
            long hi = next;
            if (lex.peek().isPunct("=")) {
                lex.next();
                lo = parseInteger();
                hi = lo;
                if (lex.peek().isPunct("...")) {
                    lex.next();
                    hi = parseInteger();
                }
            }
            mappings.add(new EnumMapping(lt.text, lo, hi));
            next = hi + 1;
            if (lex.peek().isPunct(",")) {
                lex.next();
            } else if (!lex.peek().isPunct("}")) {
                throw error("expected ',' or '}' in enum");
            }
        }
        lex.next();
        EnumType e = new EnumType(container, mappings);
        if (name != null) {
            scopes.peek().put("enum " + name, e);
        }
        return e;
    }

    private CtfType parseStruct() throws TraceFormatException {
        String name = null;
        if (lex.peek().kind == Tok.IDENT && !lex.peek().isIdent("align")) {
            name = lex.next().text;
        }
        if (!lex.peek().isPunct("{")) {
            CtfType t = name == null ? null : lookupType("struct " + name);
            if (t == null) {
                throw error("unknown struct '" + name + "'");
            }
            return t;
        }
        List<Field> fields = parseFieldList();
        int align = 1;
        if (lex.peek().isIdent("align")) {
            lex.next();
            expect("(");
            align = alignAttr(parseInteger(), 1);
            expect(")");
        }
        StructType s = new StructType(fields, align);
        if (name != null) {
            scopes.peek().put("struct " + name, s);
        }
        return s;
    }

    private CtfType parseVariant() throws TraceFormatException {
        String name = null;
        if (lex.peek().kind == Tok.IDENT) {
            name = lex.next().text;
        }
        String tag = null;
        if (lex.peek().isPunct("<")) {
            lex.next();
            tag = parseDottedKey();
            expect(">");
        }
        if (!lex.peek().isPunct("{")) {
            CtfType t = name == null ? null : lookupType("variant " + name);
            if (!(t instanceof VariantType v)) {
                throw error("unknown variant '" + name + "'");
            }
            if (tag == null) {
                throw error("variant '" + name + "' used without a tag");
            }
            return new VariantType(tag, v.options());
        }
        List<Field> options = parseFieldList();
        VariantType v = new VariantType(tag, options);
        if (name != null) {
            scopes.peek().put("variant " + name, v);
        }
        if (tag == null && name == null) {
            throw error("variant without a tag");
        }
        return v;
    }

    private List<Field> parseFieldList() throws TraceFormatException {
        expect("{");
        enter();
        scopes.push(new HashMap<>());
        List<Field> fields = new ArrayList<>();
        while (!lex.peek().isPunct("}")) {
            Token t = lex.peek();
            if (t.isIdent("typealias")) {
                parseTypealias();
                continue;
            }
            if (t.isIdent("typedef")) {
                parseTypedef();
                continue;
            }
            if (t.isPunct(";")) {
                lex.next();
                continue;
            }
            CtfType type = parseTypeSpecifier();
            if (lex.peek().isPunct(";")) {
                // a type declared inside a struct, no field
                lex.next();
                continue;
            }
            String fname = expectIdentAny();
            type = parseDeclaratorSuffix(type);
            for (Field f : fields) {
                if (f.name().equals(fname)) {
                    throw error("duplicate field '" + fname + "'");
                }
            }
            fields.add(new Field(fname, type));
            expect(";");
        }
        lex.next();
        scopes.pop();
        leave();
        return fields;
    }

    /** {@code [N]} (array) or {@code [ref]} (sequence) suffixes, applied right to left as in C. */
    private CtfType parseDeclaratorSuffix(CtfType type) throws TraceFormatException {
        List<Object> dims = new ArrayList<>();
        while (lex.peek().isPunct("[")) {
            lex.next();
            Token t = lex.peek();
            if (t.kind == Tok.NUMBER) {
                long n = parseNumber(lex.next());
                if (n < 0 || n > Integer.MAX_VALUE) {
                    throw error(t, "array length out of range: " + t.text);
                }
                dims.add(n);
            } else if (t.kind == Tok.IDENT) {
                dims.add(parseDottedKey());
            } else {
                throw error("expected an array length or a length field name");
            }
            expect("]");
        }
        for (int i = dims.size() - 1; i >= 0; i--) {
            Object d = dims.get(i);
            type = d instanceof Long n ? new ArrayType(type, n) : new SequenceType(type, (String) d);
        }
        return type;
    }

    // ------------------------------------------------------------------ helpers

    private void enter() throws TraceFormatException {
        if (++depth > MAX_DEPTH) {
            throw error("nesting deeper than " + MAX_DEPTH);
        }
    }

    private void leave() {
        depth--;
    }

    private void expect(String punct) throws TraceFormatException {
        Token t = lex.next();
        if (!t.isPunct(punct)) {
            throw error(t, "expected '" + punct + "' but found '" + (t.kind == Tok.EOF ? "end of metadata" : t.text) + "'");
        }
    }

    private void expectIdent(String word) throws TraceFormatException {
        Token t = lex.next();
        if (!t.isIdent(word)) {
            throw error(t, "expected '" + word + "' but found '" + t.text + "'");
        }
    }

    private String expectIdentAny() throws TraceFormatException {
        Token t = lex.next();
        if (t.kind != Tok.IDENT) {
            throw error(t, "expected a name but found '" + (t.kind == Tok.EOF ? "end of metadata" : t.text) + "'");
        }
        return t.text;
    }

    private TraceFormatException error(String msg) {
        try {
            return error(lex.peek(), msg);
        } catch (TraceFormatException e) {
            return e;
        }
    }

    private TraceFormatException error(Token t, String msg) {
        return TraceFormatException.atLine(file, t.line, "metadata: " + msg);
    }

    // ------------------------------------------------------------------ lexer

    enum Tok { IDENT, NUMBER, STRING, PUNCT, EOF }

    static final class Token {
        final Tok kind;
        final String text;
        final int line;

        Token(Tok kind, String text, int line) {
            this.kind = kind;
            this.text = text;
            this.line = line;
        }

        boolean isPunct(String p) {
            return kind == Tok.PUNCT && text.equals(p);
        }

        boolean isIdent(String w) {
            return kind == Tok.IDENT && text.equals(w);
        }
    }

    private final class Lexer {
        private final String s;
        private int pos;
        private int line = 1;
        private final List<Token> ahead = new ArrayList<>();

        Lexer(String s) {
            this.s = s;
        }

        Token peek() throws TraceFormatException {
            return peek(0);
        }

        Token peek(int i) throws TraceFormatException {
            while (ahead.size() <= i) {
                ahead.add(scan());
            }
            return ahead.get(i);
        }

        Token next() throws TraceFormatException {
            Token t = peek(0);
            ahead.remove(0);
            return t;
        }

        private Token scan() throws TraceFormatException {
            skipSpaceAndComments();
            if (pos >= s.length()) {
                return new Token(Tok.EOF, "", line);
            }
            char c = s.charAt(pos);
            int start = pos;
            if (Character.isLetter(c) || c == '_') {
                while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                    pos++;
                }
                return new Token(Tok.IDENT, s.substring(start, pos), line);
            }
            if (c >= '0' && c <= '9') {
                while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)))) {
                    pos++;
                }
                return new Token(Tok.NUMBER, s.substring(start, pos), line);
            }
            if (c == '"' || c == '\'') {
                return scanString(c);
            }
            if (s.startsWith(":=", pos)) {
                pos += 2;
                return new Token(Tok.PUNCT, ":=", line);
            }
            if (s.startsWith("...", pos)) {
                pos += 3;
                return new Token(Tok.PUNCT, "...", line);
            }
            if ("{}[]()<>;,=:.-+*".indexOf(c) >= 0) {
                pos++;
                return new Token(Tok.PUNCT, String.valueOf(c), line);
            }
            throw TraceFormatException.atLine(file, line, "metadata: unexpected character '"
                    + (c < 32 || c > 126 ? String.format("\\x%02x", (int) c) : String.valueOf(c)) + "'");
        }

        private Token scanString(char quote) throws TraceFormatException {
            int startLine = line;
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw TraceFormatException.atLine(file, startLine, "metadata: unterminated string literal");
                }
                char c = s.charAt(pos++);
                if (c == quote) {
                    break;
                }
                if (c == '\n') {
                    line++;
                }
                if (c == '\\' && pos < s.length()) {
                    char e = s.charAt(pos++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case '0' -> sb.append('\0');
                        default -> sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
            return new Token(Tok.STRING, sb.toString(), startLine);
        }

        private void skipSpaceAndComments() throws TraceFormatException {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c == '\n') {
                    line++;
                    pos++;
                } else if (Character.isWhitespace(c)) {
                    pos++;
                } else if (s.startsWith("/*", pos)) {
                    int end = s.indexOf("*/", pos + 2);
                    if (end < 0) {
                        throw TraceFormatException.atLine(file, line, "metadata: unterminated comment");
                    }
                    for (int i = pos; i < end; i++) {
                        if (s.charAt(i) == '\n') {
                            line++;
                        }
                    }
                    pos = end + 2;
                } else if (s.startsWith("//", pos)) {
                    while (pos < s.length() && s.charAt(pos) != '\n') {
                        pos++;
                    }
                } else {
                    break;
                }
            }
        }
    }
}
