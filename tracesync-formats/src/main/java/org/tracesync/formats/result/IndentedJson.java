package org.tracesync.formats.result;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A streaming JSON writer whose output is byte for byte what Jackson 2.18's {@code JsonGenerator}
 * writes in UTF-8 with its default pretty printer: objects indented by two spaces per enclosing
 * object, one entry a line, {@code "name" : value}, an empty object as {@code { }}; arrays on one
 * line as {@code [ a, b ]}, an empty one as {@code [ ]}; line ends {@code line.separator}. Strings:
 * {@code "} and {@code \} escaped, {@code \b \t \f \n \r} as such, other characters below U+0020 and
 * every UTF-16 surrogate as {@code \}{@code uXXXX} (upper-case hex), everything else as UTF-8.
 * Numbers: {@link Long#toString(long)} and {@link Double#toString(double)}, a non-finite double quoted.
 *
 * <p>It exists so that writing the result file on {@code sync}'s path loads this one small class instead
 * of about 75 of Jackson's ({@code ResultFileBytesTest} compares both on seeded random results).
 * The caller keeps the structure well formed (no checks). O(1) memory beyond an 8 KB buffer and the
 * nesting depth; {@link #finish()} flushes it (the stream is not closed).
 */
final class IndentedJson {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final String LINE_END = lineEnd();

    private final OutputStream out;
    private final byte[] buf = new byte[8192];
    private int pos;
    /** Per open container: entries or values written so far. */
    private int[] count = new int[16];
    private int depth;
    /** Objects open (the indentation level). */
    private int objects;
    /** A field name was just written: the next value follows it on the same line. */
    private boolean afterName;

    IndentedJson(OutputStream out) {
        this.out = out;
    }

    private static String lineEnd() {
        String lf = System.getProperty("line.separator");
        return lf == null ? "\n" : lf;
    }

    void startObject() throws IOException {
        beforeValue();
        push();
        objects++;
        ascii('{');
    }

    void endObject() throws IOException {
        objects--;
        if (count[--depth] > 0) {
            indent();
        } else {
            ascii(' ');
        }
        ascii('}');
    }

    void startArray() throws IOException {
        beforeValue();
        push();
        ascii('[');
    }

    void endArray() throws IOException {
        ascii(' ');
        depth--;
        ascii(']');
    }

    void name(String name) throws IOException {
        if (count[depth - 1]++ > 0) {
            ascii(',');
        }
        indent();
        quoted(name);
        ascii(' ');
        ascii(':');
        ascii(' ');
        afterName = true;
    }

    void string(String s) throws IOException {
        if (s == null) {
            nullValue();
            return;
        }
        beforeValue();
        quoted(s);
    }

    void number(long v) throws IOException {
        beforeValue();
        ascii(Long.toString(v));
    }

    /** A double as Jackson writes it: NaN and infinities as strings ({@code "NaN"}, {@code "-Infinity"}). */
    void number(double v) throws IOException {
        beforeValue();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            quoted(Double.toString(v));
        } else {
            ascii(Double.toString(v));
        }
    }

    void bool(boolean v) throws IOException {
        beforeValue();
        ascii(v ? "true" : "false");
    }

    void nullValue() throws IOException {
        beforeValue();
        ascii("null");
    }

    void stringField(String name, String value) throws IOException {
        name(name);
        string(value);
    }

    void numberField(String name, long value) throws IOException {
        name(name);
        number(value);
    }

    /**
     * Values of the open array already rendered: {@code text} holds {@code values} of them, each
     * after the separator {@link #beforeValue} would write before it (so the first after a space
     * when the array is still empty, else after a comma and a space). Copied as they are.
     */
    void renderedValues(byte[] text, int values) throws IOException {
        count[depth - 1] += values;
        if (text.length > buf.length - pos) {
            out.write(buf, 0, pos);
            pos = 0;
            out.write(text);
        } else {
            System.arraycopy(text, 0, buf, pos, text.length);
            pos += text.length;
        }
    }

    /** Writes what is buffered to the stream (not closed). */
    void finish() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
        out.flush();
    }

    private void beforeValue() throws IOException {
        if (afterName) {
            afterName = false;
        } else if (depth > 0) { // in an array: "[ a, b"
            if (count[depth - 1]++ > 0) {
                ascii(',');
            }
            ascii(' ');
        }
    }

    private void push() {
        if (depth == count.length) {
            count = java.util.Arrays.copyOf(count, depth * 2);
        }
        count[depth++] = 0;
    }

    private void indent() throws IOException {
        ascii(LINE_END);
        for (int i = 0; i < objects; i++) {
            ascii(' ');
            ascii(' ');
        }
    }

    private void quoted(String s) throws IOException {
        ascii('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (c >= 0x20 && c != '"' && c != '\\') {
                    ascii(c);
                } else {
                    escape(c);
                }
            } else if (c < 0x800) {
                room(2);
                buf[pos++] = (byte) (0xC0 | (c >> 6));
                buf[pos++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isSurrogate(c)) {
                escape(c); // Jackson 2.18's default: each half escaped, paired or not
            } else {
                room(3);
                buf[pos++] = (byte) (0xE0 | (c >> 12));
                buf[pos++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buf[pos++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        ascii('"');
    }

    private void escape(char c) throws IOException {
        char shortForm = switch (c) {
            case '"' -> '"';
            case '\\' -> '\\';
            case '\b' -> 'b';
            case '\t' -> 't';
            case '\f' -> 'f';
            case '\n' -> 'n';
            case '\r' -> 'r';
            default -> 0;
        };
        room(6);
        buf[pos++] = '\\';
        if (shortForm != 0) {
            buf[pos++] = (byte) shortForm;
        } else {
            buf[pos++] = 'u';
            buf[pos++] = HEX[(c >> 12) & 0xF];
            buf[pos++] = HEX[(c >> 8) & 0xF];
            buf[pos++] = HEX[(c >> 4) & 0xF];
            buf[pos++] = HEX[c & 0xF];
        }
    }

    private void ascii(char c) throws IOException {
        room(1);
        buf[pos++] = (byte) c;
    }

    private void ascii(String s) throws IOException {
        for (int i = 0, n = s.length(); i < n; i++) {
            ascii(s.charAt(i));
        }
    }

    private void room(int bytes) throws IOException {
        if (pos + bytes > buf.length) {
            out.write(buf, 0, pos);
            pos = 0;
        }
    }
}
