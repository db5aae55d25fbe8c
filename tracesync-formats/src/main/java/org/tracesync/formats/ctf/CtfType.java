package org.tracesync.formats.ctf;

import java.util.List;

/**
 * A CTF 1.8 field type, as declared in TSDL metadata (typed model produced by {@link TsdlParser}).
 * Sizes and alignments are in bits. Names are the raw TSDL names (leading underscores kept);
 * {@link #displayName} gives the name babeltrace2 shows.
 */
public sealed interface CtfType permits CtfType.IntegerType, CtfType.FloatType, CtfType.StringType,
        CtfType.EnumType, CtfType.StructType, CtfType.VariantType, CtfType.ArrayType,
        CtfType.SequenceType {

    /** Byte order as written; NATIVE means the trace's {@code byte_order}. */
    enum ByteOrder { NATIVE, LITTLE, BIG }

    /** Character encoding of integers/strings. */
    enum Encoding { NONE, UTF8, ASCII }

    /** Alignment in bits. */
    int alignment();

    record IntegerType(int size, int alignment, boolean signed, ByteOrder byteOrder, int base,
                       Encoding encoding, String clock) implements CtfType {
    }

    record FloatType(int exponentDigits, int mantissaDigits, int alignment, ByteOrder byteOrder)
            implements CtfType {
        public int size() {
            return exponentDigits + mantissaDigits;
        }
    }

    record StringType(Encoding encoding) implements CtfType {
        @Override
        public int alignment() {
            return 8;
        }
    }

    /** One label of an enum: the closed range [low, high] maps to {@code label}. */
    record EnumMapping(String label, long low, long high) {
    }

    record EnumType(IntegerType container, List<EnumMapping> mappings) implements CtfType {
        public EnumType {
            mappings = List.copyOf(mappings);
        }

        @Override
        public int alignment() {
            return container.alignment();
        }

        /** First label whose range holds {@code value} (signedness of the container applies), or null. */
        public String labelOf(long value) {
            for (EnumMapping m : mappings) {
                if (container.signed()
                        ? value >= m.low() && value <= m.high()
                        : Long.compareUnsigned(value, m.low()) >= 0 && Long.compareUnsigned(value, m.high()) <= 0) {
                    return m.label();
                }
            }
            return null;
        }
    }

    record Field(String name, CtfType type) {
    }

    /** A structure; {@code minAlignment} comes from {@code align(N)} (1 when absent). */
    record StructType(List<Field> fields, int minAlignment) implements CtfType {
        public StructType {
            fields = List.copyOf(fields);
        }

        @Override
        public int alignment() {
            int a = Math.max(1, minAlignment);
            for (Field f : fields) {
                a = Math.max(a, f.type().alignment());
            }
            return a;
        }

        public Field field(String name) {
            for (Field f : fields) {
                if (f.name().equals(name)) {
                    return f;
                }
            }
            return null;
        }
    }

    /** A variant selected by the enum field {@code tag} (a field reference, possibly dotted). */
    record VariantType(String tag, List<Field> options) implements CtfType {
        public VariantType {
            options = List.copyOf(options);
        }

        /** A variant is not aligned itself; its selected option is. */
        @Override
        public int alignment() {
            return 1;
        }
    }

    record ArrayType(CtfType element, long length) implements CtfType {
        @Override
        public int alignment() {
            return element.alignment();
        }
    }

    /** A sequence whose length is the value of the integer field {@code lengthRef}. */
    record SequenceType(CtfType element, String lengthRef) implements CtfType {
        @Override
        public int alignment() {
            return element.alignment();
        }
    }

    /** The name babeltrace2 shows: TSDL identifiers lose one leading underscore. */
    static String displayName(String name) {
        return name.startsWith("_") ? name.substring(1) : name;
    }
}
