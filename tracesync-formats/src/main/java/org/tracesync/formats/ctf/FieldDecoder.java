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
            slots[slot] = start;
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
        }

        @Override
        void decode(CtfStreamReader in, long[] slots) throws TraceFormatException {
            long tag = slots[tagSlot];
            for (int i = 0; i < lows.length; i++) {
                boolean inRange = tagSigned
                        ? tag >= lows[i] && tag <= highs[i]
                        : Long.compareUnsigned(tag, lows[i]) >= 0 && Long.compareUnsigned(tag, highs[i]) <= 0;
                if (inRange) {
                    int opt = optionOfRange[i];
                    slots[slot] = opt;
                    options[opt].decode(in, slots);
                    return;
                }
            }
            throw in.error("variant '" + path + "': tag value " + tag + " selects no option");
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
            slots[slot] = start;
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
