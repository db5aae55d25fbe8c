package org.tracesync.formats.ctf;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FieldDecoder} tree flattened into one array of fixed-width instructions, which
 * {@link CtfStreamReader#run} executes in a single loop: the bit position stays in a local
 * variable, there is no virtual call per field, and each integer's read is chosen when the
 * program is built (an aligned 8/16/32/64-bit field of either byte order is one buffer read;
 * other sizes and alignments assemble their bits as {@link CtfStreamReader#bitsAt} does).
 * Structures become an alignment followed by their fields; variants and arrays of elements of
 * variable size run sub-programs. Only whole trees are compiled: a reader that wants some fields
 * decodes with the trees {@link PrunedDecoders} builds (measured faster than programs of them).
 *
 * <p>Exactness: the instructions do what the tree's decoders do, in the same order, with the same
 * checks and error messages at the same positions; {@code PrunedDecodersTest} compares the two
 * on real traces and seeded random layouts. Cost: building is linear in the tree's size, once per
 * event class; running costs one dispatch per field (none per structure).
 */
final class DecodeProgram {

    /** Instruction width in ints: opcode, slot, alignment, size, two operands. */
    static final int WIDTH = 6;

    // sequential reads: align, check against the content's end, read, advance
    static final int S8 = 0;
    static final int S16L = 1;
    static final int S16B = 2;
    static final int S32L = 3;
    static final int S32B = 4;
    static final int S64L = 5;
    static final int S64B = 6;
    static final int SBITS_L = 7;
    static final int SBITS_B = 8;
    /** An integer with a role (event id, timestamp, packet begin): operand 4 = role, 5 = flags. */
    static final int SROLE = 9;
    static final int STRING = 10;
    /** An array or sequence ({@link FieldDecoder.ArrayDecoder} in {@code refs[op4]}, element sub-program op5 or -1). */
    static final int ARRAY = 11;
    /** A variant ({@link FieldDecoder.VariantDecoder} in {@code refs[op4]}, options' sub-programs from op5). */
    static final int VARIANT = 12;
    static final int ALIGN = 13;
    static final int FLAG_BIG_ENDIAN = 1;
    static final int FLAG_SIGNED = 2;

    final int[] code;
    final DecodeProgram[] subs;
    final FieldDecoder[] refs;

    private DecodeProgram(int[] code, DecodeProgram[] subs, FieldDecoder[] refs) {
        this.code = code;
        this.subs = subs;
        this.refs = refs;
    }

    /** The program of {@code tree}; null for a null tree. */
    static DecodeProgram of(FieldDecoder tree) {
        if (tree == null) {
            return null;
        }
        Builder b = new Builder();
        b.emit(tree);
        return b.build();
    }

    /** One program decoding the non-null trees one after the other (an event's scopes after its header). */
    static DecodeProgram ofScopes(FieldDecoder... trees) {
        Builder b = new Builder();
        for (FieldDecoder t : trees) {
            if (t != null) {
                b.emit(t);
            }
        }
        return b.build();
    }

    /** Sign-extension shift: 64 − size for signed fields narrower than 64 bits, else 0. */
    private static int shift(int size, boolean signed) {
        return signed && size < 64 ? 64 - size : 0;
    }

    private static final class Builder {
        private final List<int[]> ops = new ArrayList<>();
        private final List<DecodeProgram> subs = new ArrayList<>();
        private final List<FieldDecoder> refs = new ArrayList<>();

        private void add(int op, int slot, int align, int size, int op4, int op5) {
            ops.add(new int[] {op, slot, align, size, op4, op5});
        }

        private int sub(DecodeProgram p) {
            subs.add(p);
            return subs.size() - 1;
        }

        private int ref(FieldDecoder d) {
            refs.add(d);
            return refs.size() - 1;
        }

        /** The sequential read for an integer or float, by size and whether the alignment makes it byte-aligned. */
        private static int sequential(int size, int align, boolean bigEndian) {
            if (align % 8 == 0) {
                switch (size) {
                    case 8:
                        return S8;
                    case 16:
                        return bigEndian ? S16B : S16L;
                    case 32:
                        return bigEndian ? S32B : S32L;
                    case 64:
                        return bigEndian ? S64B : S64L;
                    default:
                        break;
                }
            }
            return bigEndian ? SBITS_B : SBITS_L;
        }

        private static int flags(boolean bigEndian, boolean signed) {
            return (bigEndian ? FLAG_BIG_ENDIAN : 0) | (signed ? FLAG_SIGNED : 0);
        }

        void emit(FieldDecoder d) {
            if (d instanceof FieldDecoder.IntegerDecoder x) {
                int align = Math.max(1, x.align);
                if (x.role != FieldDecoder.ROLE_NONE) {
                    add(SROLE, x.slot, align, x.size, x.role, flags(x.bigEndian, x.signed));
                } else {
                    add(sequential(x.size, align, x.bigEndian), x.slot, align, x.size, shift(x.size, x.signed), 0);
                }
            } else if (d instanceof FieldDecoder.FloatDecoder x) {
                int align = Math.max(1, x.align);
                add(sequential(x.size, align, x.bigEndian), x.slot, align, x.size, 0, 0);
            } else if (d instanceof FieldDecoder.StringDecoder x) {
                add(STRING, x.slot, 8, 0, 0, 0);
            } else if (d instanceof FieldDecoder.StructDecoder x) {
                if (x.align > 1) {
                    add(ALIGN, 0, x.align, 0, 0, 0);
                }
                for (FieldDecoder f : x.fields) {
                    emit(f);
                }
            } else if (d instanceof FieldDecoder.VariantDecoder x) {
                int first = subs.size();
                for (FieldDecoder o : x.options) {
                    sub(of(o));
                }
                add(VARIANT, x.slot, 1, 0, ref(x), first);
            } else if (d instanceof FieldDecoder.ArrayDecoder x) {
                int element = x.stride > 0 ? -1 : sub(of(x.element));
                add(ARRAY, x.slot, Math.max(1, x.align), 0, ref(x), element);
            } else {
                // a FixedRunDecoder: pruned trees are decoded as trees (see CtfStreamReader#readOnly)
                throw new IllegalArgumentException("no instruction for " + d);
            }
        }

        DecodeProgram build() {
            int[] code = new int[ops.size() * WIDTH];
            for (int i = 0; i < ops.size(); i++) {
                System.arraycopy(ops.get(i), 0, code, i * WIDTH, WIDTH);
            }
            return new DecodeProgram(code, subs.toArray(new DecodeProgram[0]), refs.toArray(new FieldDecoder[0]));
        }
    }
}
