package org.tracesync.formats.ctf;

import org.tracesync.formats.TraceFormatException;

/**
 * A compiled decoder for one field type (built once per stream and event class by
 * {@link DecoderCompiler}). Decoding writes values into a slot array and advances the stream's
 * bit position; it allocates nothing. One virtual call per field; byte-aligned 8/16/32/64-bit
 * integers take a fast path (one absolute buffer read).
 */
abstract class FieldDecoder {

    /** Roles of integers the stream reader itself needs. */
    static final int ROLE_NONE = 0;
    static final int ROLE_EVENT_ID = 1;
    static final int ROLE_TIMESTAMP = 2;
    static final int ROLE_PACKET_BEGIN = 3;

    abstract void decode(CtfStreamReader in, long[] slots) throws TraceFormatException;

    /** Minimum number of bits this field occupies (0 when it may be empty), for sanity checks. */
    abstract long minBits();

    /**
     * The least common multiple (bits) of {@code m} and every alignment a decoder in these trees
     * applies (null trees add nothing); {@code Long.MAX_VALUE} when it passes 2⁴⁰.
     */
    static long alignmentMultiple(long m, FieldDecoder... trees) {
        for (FieldDecoder d : trees) {
            if (d instanceof IntegerDecoder x) {
                m = lcm(m, x.align);
            } else if (d instanceof FloatDecoder x) {
                m = lcm(m, x.align);
            } else if (d instanceof StructDecoder x) {
                m = alignmentMultiple(lcm(m, x.align), x.fields);
            } else if (d instanceof FixedRunDecoder x) {
                m = alignmentMultiple(lcm(m, x.align), x.fields);
            } else if (d instanceof VariantDecoder x) {
                m = alignmentMultiple(m, x.options);
            } else if (d instanceof ArrayDecoder x) {
                m = alignmentMultiple(lcm(m, x.align), x.element);
            }
        }
        return m;
    }

    private static long lcm(long m, int align) {
        if (align <= 1 || m == Long.MAX_VALUE) {
            return m;
        }
        long g = m;
        long b = align;
        while (b != 0) {
            long t = g % b;
            g = b;
            b = t;
        }
        long l = m / g * align;
        return l > (1L << 40) ? Long.MAX_VALUE : l;
    }

    static final class IntegerDecoder extends FieldDecoder {
        final int slot;
        final int size;
        final int align;
        final boolean bigEndian;
        final boolean signed;
        final int role;

        IntegerDecoder(int slot, int size, int align, boolean bigEndian, boolean signed, int role) {
            this.slot = slot;
            this.size = size;
            this.align = align;
            this.bigEndian = bigEndian;
            this.signed = signed;
            this.role = role;
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            in.align(align);
            long v = in.readBits(size, bigEndian);
            if (signed && size < 64) {
                v = (v << (64 - size)) >> (64 - size);
            }
            slots[slot] = v;
            if (role != ROLE_NONE) {
                in.role(role, v, size);
            }
        }

        @Override
        long minBits() {
            return size;
        }
    }

    static final class FloatDecoder extends FieldDecoder {
        final int slot;
        final int size;
        final int align;
        final boolean bigEndian;

        FloatDecoder(int slot, int size, int align, boolean bigEndian) {
            this.slot = slot;
            this.size = size;
            this.align = align;
            this.bigEndian = bigEndian;
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            in.align(align);
            slots[slot] = in.readBits(size, bigEndian);
        }

        @Override
        long minBits() {
            return size;
        }
    }

    static final class StringDecoder extends FieldDecoder {
        final int slot;

        StringDecoder(int slot) {
            this.slot = slot;
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            in.align(8);
            int start = in.bytePosition();
            int len = in.skipString();
            slots[slot] = start + (in.positionBase() >>> 3);
            slots[slot + 1] = len;
        }

        @Override
        long minBits() {
            return 8;
        }
    }

    static final class StructDecoder extends FieldDecoder {
        final int align;
        final FieldDecoder[] fields;

        StructDecoder(int align, FieldDecoder[] fields) {
            this.align = align;
            this.fields = fields;
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            in.align(align);
            for (FieldDecoder f : fields) {
                f.decode(in, slots);
            }
        }

        @Override
        long minBits() {
            long s = 0;
            for (FieldDecoder f : fields) {
                s += f.minBits();
            }
            return s;
        }
    }

    /**
     * A run of consecutive fields of fixed size (integers, enums, floats, arrays of fixed length
     * and fixed-size elements) whose alignments all divide the run's starting alignment, so that
     * each field's bit offset from the run's (aligned) start is known when the decoder is built
     * ({@link PrunedDecoders}). Decoding checks the run's end against the content's end once, then
     * reads only the wanted fields at their offsets (an integer with a role is always read; a
     * wanted array gets its position and length) and moves past the run: fields nobody reads cost
     * nothing. When the run does not fit before the content's end it decodes field by field through
     * the fields' own decoders, so the error, and the field it names, are theirs.
     */
    static final class FixedRunDecoder extends FieldDecoder {
        static final int INTEGER = 0;
        static final int FLOAT = 1;
        static final int ARRAY = 2;

        final int align;
        /** Bits from the run's aligned start to the end of its last field. */
        final long bits;
        final FieldDecoder[] fields;
        private final long minBits;
        /** The wanted fields only: kind, offset from the run's start, size, byte order, sign, slot, role, length. */
        final int[] kind;
        final long[] offset;
        final int[] size;
        final boolean[] bigEndian;
        final boolean[] signed;
        final int[] slot;
        final int[] role;
        final long[] length;

        /**
         * @param fields decoders for which {@link #fixed} holds, whose alignments divide {@code align}
         * @param wanted per field: read it (integers with a role are read anyway)
         */
        FixedRunDecoder(int align, FieldDecoder[] fields, boolean[] wanted) {
            this.align = align;
            this.fields = fields;
            int n = fields.length;
            int k = 0;
            long[] offsets = new long[n];
            boolean[] read = new boolean[n];
            long off = 0;
            long min = 0;
            for (int i = 0; i < n; i++) {
                FieldDecoder f = fields[i];
                int a = alignment(f);
                if (a <= 0 || align % a != 0) {
                    throw new IllegalArgumentException("field alignment " + a + " does not divide the run's " + align);
                }
                off = alignUp(off, a);
                offsets[i] = off;
                off += fixedBits(f);
                min += f.minBits();
                read[i] = wanted[i] || (f instanceof IntegerDecoder d && d.role != ROLE_NONE);
                if (read[i]) {
                    k++;
                }
            }
            bits = off;
            minBits = min;
            kind = new int[k];
            offset = new long[k];
            size = new int[k];
            bigEndian = new boolean[k];
            signed = new boolean[k];
            slot = new int[k];
            role = new int[k];
            length = new long[k];
            int j = 0;
            for (int i = 0; i < n; i++) {
                if (!read[i]) {
                    continue;
                }
                offset[j] = offsets[i];
                if (fields[i] instanceof IntegerDecoder d) {
                    kind[j] = INTEGER;
                    size[j] = d.size;
                    bigEndian[j] = d.bigEndian;
                    signed[j] = d.signed;
                    slot[j] = d.slot;
                    role[j] = d.role;
                } else if (fields[i] instanceof FloatDecoder d) {
                    kind[j] = FLOAT;
                    size[j] = d.size;
                    bigEndian[j] = d.bigEndian;
                    slot[j] = d.slot;
                } else {
                    ArrayDecoder d = (ArrayDecoder) fields[i];
                    kind[j] = ARRAY;
                    slot[j] = d.slot;
                    length[j] = d.fixedLength;
                }
                j++;
            }
        }

        /** True when {@code f} can join a run: its size is fixed and known now. */
        static boolean fixed(FieldDecoder f) {
            return f instanceof IntegerDecoder || f instanceof FloatDecoder
                    || (f instanceof ArrayDecoder a && a.lengthSlot < 0 && a.stride > 0 && a.fixedLength >= 0
                    && a.fixedLength <= (1L << 24)); // longer arrays decode on their own: offsets stay small
        }

        private static long fixedBits(FieldDecoder f) {
            if (f instanceof IntegerDecoder d) {
                return d.size;
            }
            if (f instanceof FloatDecoder d) {
                return d.size;
            }
            ArrayDecoder a = (ArrayDecoder) f;
            return a.fixedLength * a.stride;
        }

        /** The alignment (bits) a fixed field's decoder applies before reading. */
        static int alignment(FieldDecoder f) {
            if (f instanceof IntegerDecoder d) {
                return Math.max(1, d.align);
            }
            if (f instanceof FloatDecoder d) {
                return Math.max(1, d.align);
            }
            if (f instanceof ArrayDecoder d) {
                return Math.max(1, d.align);
            }
            return -1;
        }

        private static long alignUp(long p, int bits) {
            return bits > 1 ? (p + bits - 1) & -(long) bits : p;
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            in.align(align);
            long p = in.bitPosition();
            if (bits > in.bitsLeft()) {
                for (FieldDecoder f : fields) {
                    f.decode(in, slots);
                }
                return;
            }
            for (int i = 0; i < kind.length; i++) {
                long q = p + offset[i];
                switch (kind[i]) {
                    case INTEGER -> {
                        int n = size[i];
                        long v = in.bitsAt(q, n, bigEndian[i]);
                        if (signed[i] && n < 64) {
                            v = (v << (64 - n)) >> (64 - n);
                        }
                        slots[slot[i]] = v;
                        if (role[i] != ROLE_NONE) {
                            in.role(role[i], v, n);
                        }
                    }
                    case FLOAT -> slots[slot[i]] = in.bitsAt(q, size[i], bigEndian[i]);
                    default -> {
                        slots[slot[i]] = q + in.positionBase();
                        slots[slot[i] + 1] = length[i];
                    }
                }
            }
            in.seek(p + bits);
        }

        /** As the fields' decoders say (the sum of their minima, as a structure of them would). */
        @Override
        long minBits() {
            return minBits;
        }
    }

    /** A variant: the tag's value (in {@code tagSlot}) selects an option through enum ranges. */
    static final class VariantDecoder extends FieldDecoder {
        final int slot;
        final int tagSlot;
        final boolean tagSigned;
        final long[] lows;
        final long[] highs;
        final int[] optionOfRange;
        final FieldDecoder[] options;
        final String path;
        /** {@link #option} of the tags 0..255, looked up instead of searched. */
        private final int[] small = new int[256];

        VariantDecoder(int slot, int tagSlot, boolean tagSigned, long[] lows, long[] highs, int[] optionOfRange,
                       FieldDecoder[] options, String path) {
            this.slot = slot;
            this.tagSlot = tagSlot;
            this.tagSigned = tagSigned;
            this.lows = lows;
            this.highs = highs;
            this.optionOfRange = optionOfRange;
            this.options = options;
            this.path = path;
            for (int t = 0; t < small.length; t++) {
                small[t] = search(t);
            }
        }

        /** The option the tag value selects (the first range holding it), or -1. */
        int option(long tag) {
            return tag >= 0 && tag < 256 ? small[(int) tag] : search(tag);
        }

        private int search(long tag) {
            for (int i = 0; i < lows.length; i++) {
                boolean inRange = tagSigned
                        ? tag >= lows[i] && tag <= highs[i]
                        : Long.compareUnsigned(tag, lows[i]) >= 0 && Long.compareUnsigned(tag, highs[i]) <= 0;
                if (inRange) {
                    return optionOfRange[i];
                }
            }
            return -1;
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            long tag = slots[tagSlot];
            int opt = option(tag);
            if (opt < 0) {
                throw in.error("variant '" + path + "': tag value " + tag + " selects no option");
            }
            slots[slot] = opt;
            options[opt].decode(in, slots);
        }

        @Override
        long minBits() {
            long m = Long.MAX_VALUE;
            for (FieldDecoder f : options) {
                m = Math.min(m, f.minBits());
            }
            return options.length == 0 ? 0 : m;
        }
    }

    /**
     * An array (fixed length) or sequence (length from {@code lengthSlot}). Elements of a fixed
     * size (integers, floats whose size is a multiple of their alignment) are skipped by arithmetic;
     * others are decoded one by one into the element's slots (the last element's values remain).
     */
    static final class ArrayDecoder extends FieldDecoder {
        final int slot;
        final long fixedLength;
        final int lengthSlot;
        final int align;
        final long stride;
        final FieldDecoder element;
        final long elementMinBits;
        final String path;

        ArrayDecoder(int slot, long fixedLength, int lengthSlot, int align, long stride, FieldDecoder element,
                     String path) {
            this.slot = slot;
            this.fixedLength = fixedLength;
            this.lengthSlot = lengthSlot;
            this.align = align;
            this.stride = stride;
            this.element = element;
            this.elementMinBits = element.minBits();
            this.path = path;
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            long n = lengthSlot >= 0 ? slots[lengthSlot] : fixedLength;
            in.align(align);
            long start = in.bitPosition();
            if (n < 0 || (n > 0 && Long.compareUnsigned(n, in.bitsLeft() / Math.max(1, elementMinBits)) > 0)
                    || (elementMinBits == 0 && n > (1 << 20))) {
                throw in.error((lengthSlot >= 0 ? "sequence '" : "array '") + path + "' of length "
                        + Long.toUnsignedString(n) + " extends past the end of the packet content");
            }
            slots[slot] = start + in.positionBase();
            slots[slot + 1] = n;
            if (stride > 0) {
                in.skipBits(n * stride);
            } else {
                for (long i = 0; i < n; i++) {
                    element.decode(in, slots);
                }
            }
        }

        @Override
        long minBits() {
            return lengthSlot >= 0 ? 0 : fixedLength * elementMinBits;
        }
    }
}
