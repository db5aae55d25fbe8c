package org.tracesync.formats.ctf;

import java.util.ArrayList;
import java.util.List;

/**
 * A {@link FieldDecoder} tree flattened into one array of fixed-width instructions, which
 * {@link CtfStreamReader#run} executes in a single loop: the bit position stays in a local
 * variable, there is no virtual call per field, and each integer's read is chosen when the
 * program is built (an aligned 8/16/32/64-bit field of either byte order is one buffer read;
 * other sizes and alignments assemble their bits as {@link CtfStreamReader#bitsAt} does).
 * Structures become an alignment followed by their fields, in which each run of fixed-size
 * fields ({@link PrunedDecoders}) is one {@link #RUN}: one alignment and one check against the
 * content's end for the run, then one read per wanted field at its offset from the run's start
 * (none for fields the reader does not want); a variant jumps to its option's instructions,
 * which follow it inline; arrays of elements of variable size run sub-programs.
 *
 * <p>Exactness: the instructions do what the tree's decoders do, in the same order, with the same
 * checks and error messages at the same positions (a run that does not fit decodes its fields one
 * by one to fail as they do); {@code PrunedDecodersTest} compares the two on real traces and
 * seeded random layouts. Cost: building is linear in the tree's size, once per event class;
 * running costs one dispatch per field read and per run (none per structure); once a program has
 * run often, {@link CompiledDecodeProgram} runs it as bytecode without any dispatch.
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
    /**
     * A variant ({@link FieldDecoder.VariantDecoder} in {@code refs[op4]}): continues at
     * {@code targets[op5 + option]}, where the option's instructions follow inline, each option
     * but the last ending with a {@link #JUMP} past the others.
     */
    static final int VARIANT = 12;
    static final int ALIGN = 13;
    /**
     * A run of fixed-size fields ({@link FieldDecoder.FixedRunDecoder}): align to op2, check that
     * its op3 bits fit before the content's end once (else run sub-program op4, its fields one by
     * one, which fails where field-by-field decoding fails), then read the wanted fields at their
     * offsets from the run's start: those of plan op1 (when ≥ 0) in one loop, the others (roles,
     * arrays, fields of more than 57 bits that may not start on a byte) by the op5 instructions
     * that follow; the position moves past the run.
     */
    static final int RUN = 14;
    // reads inside a run: slot, offset from the run's start (op2), size, sign shift (op4)
    static final int A8 = 15;
    static final int A16L = 16;
    static final int A16B = 17;
    static final int A32L = 18;
    static final int A32B = 19;
    static final int A64L = 20;
    static final int A64B = 21;
    static final int ABITS_L = 22;
    static final int ABITS_B = 23;
    /** An integer with a role inside a run: op4 = role, op5 = flags. */
    static final int AROLE = 24;
    /** A fixed-length array inside a run: its position and length (op3) into the slot and the next. */
    static final int AARRAY = 25;
    /** Continues at instruction index op2. */
    static final int JUMP = 26;
    /**
     * A {@link #RUN} that starts on a byte (its alignment a multiple of 8): the same operands, but
     * its plan op1 (when ≥ 0) is a {@link #bytePlan}, whose shifts are known when it is built.
     */
    static final int RUN8 = 27;
    static final int FLAG_BIG_ENDIAN = 1;
    static final int FLAG_SIGNED = 2;

    final int[] code;
    final DecodeProgram[] subs;
    final FieldDecoder[] refs;
    /** Where each variant option's instructions start (indices into {@link #code}). */
    final int[] targets;
    /**
     * Per {@link #RUN} with a plan: its fields that one 8-byte load holds, four ints each (bit
     * offset from the run's start, size, sign shift | {@link #PLAN_BIG_ENDIAN}, slot), read in one
     * loop without dispatch.
     */
    final int[][] plans;
    static final int PLAN_BIG_ENDIAN = 1 << 8;
    /** This program as bytecode, once {@link CtfStreamReader#run} has compiled it (null before, or when it cannot be). */
    CompiledDecodeProgram compiled;
    /** Runs so far, until the program is compiled (see {@link CtfStreamReader#run}). */
    int runs;

    /**
     * The plan of a {@link #RUN8} from the plan of a {@link #RUN} (four ints per field in offset
     * order, see {@link #plans}), for a run that starts on a byte: first the number of big-endian
     * fields, then three ints per field, the big-endian ones first (in offset order), then the
     * little-endian ones: the byte offset of the field's first byte from the run's start, its
     * shifts packed as {@code L | R << 8 | M << 16}, and its slot. A field's value is
     * {@code ((x << L) >> R) & (-1L >>> M)}, x being the 8-byte load at its first byte in its byte
     * order: L moves the field's last bit to the top (big-endian: its bit offset in its first byte;
     * little-endian: 64 − that offset − size), R = 64 − size brings it down with the sign, and M
     * (64 − size for unsigned fields, 0 for signed ones) clears the sign bits of the unsigned ones.
     * Java shifts a {@code long} by the low six bits of the count, so the packed int serves as L as
     * it is. One load per field, each loop without a branch but its own (two loops of a known
     * count: an inner loop over groups that one load holds, whose counts vary, measured slower).
     * (The load may pass the run's end: the heap copy has 8 bytes after the content.)
     */
    static int[] bytePlan(int[] plan) {
        List<Integer> big = new ArrayList<>();
        List<Integer> little = new ArrayList<>();
        for (int k = 0; k < plan.length; k += 4) {
            boolean be = (plan[k + 2] & PLAN_BIG_ENDIAN) != 0;
            int first = plan[k] / 8;
            int off = plan[k] - 8 * first;
            int size = plan[k + 1];
            boolean signed = (plan[k + 2] & 0xFF) != 0;
            int l = be ? off : 64 - off - size;
            int r = 64 - size;
            int m = signed ? 0 : 64 - size;
            List<Integer> out = be ? big : little;
            out.add(first);
            out.add(l | r << 8 | m << 16);
            out.add(plan[k + 3]);
        }
        int[] out = new int[1 + big.size() + little.size()];
        out[0] = big.size() / 3;
        for (int k = 0; k < big.size(); k++) {
            out[1 + k] = big.get(k);
        }
        for (int k = 0; k < little.size(); k++) {
            out[1 + big.size() + k] = little.get(k);
        }
        return out;
    }

    private DecodeProgram(int[] code, DecodeProgram[] subs, FieldDecoder[] refs, int[] targets, int[][] plans) {
        this.code = code;
        this.subs = subs;
        this.refs = refs;
        this.targets = targets;
        this.plans = plans;
    }

    /**
     * The program of {@code tree} (runs of fixed-size fields as {@link #RUN}s: a tree from
     * {@link PrunedDecoders} keeps its runs, which read only the fields it wants; in another tree
     * every structure's runs are made, reading every field); null for a null tree.
     */
    static DecodeProgram of(FieldDecoder tree) {
        if (tree == null) {
            return null;
        }
        Builder b = new Builder();
        b.emit(PrunedDecoders.prune(tree, null));
        return b.build();
    }

    /** One program decoding the non-null trees one after the other (an event's scopes after its header). */
    static DecodeProgram ofScopes(FieldDecoder... trees) {
        Builder b = new Builder();
        for (FieldDecoder t : trees) {
            if (t != null) {
                b.emit(PrunedDecoders.prune(t, null));
            }
        }
        return b.build();
    }

    /** Field by field, without runs: the fields of a run, for its error when it does not fit. */
    private static DecodeProgram ofFields(FieldDecoder[] fields) {
        Builder b = new Builder();
        for (FieldDecoder f : fields) {
            b.emit(f);
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
        private final List<Integer> targets = new ArrayList<>();
        private final List<int[]> plans = new ArrayList<>();

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
                // a first run aligned to a multiple of the structure's alignment aligns there itself
                boolean runAligns = x.fields.length > 0 && x.fields[0] instanceof FieldDecoder.FixedRunDecoder r
                        && r.align % Math.max(1, x.align) == 0;
                if (x.align > 1 && !runAligns) {
                    add(ALIGN, 0, x.align, 0, 0, 0);
                }
                for (FieldDecoder f : x.fields) {
                    emit(f);
                }
            } else if (d instanceof FieldDecoder.VariantDecoder x) {
                int first = targets.size();
                add(VARIANT, x.slot, 1, x.options.length, ref(x), first);
                for (FieldDecoder o : x.options) {
                    targets.add(-1); // reserved here: options' own variants add theirs after
                }
                List<int[]> jumps = new ArrayList<>();
                for (int k = 0; k < x.options.length; k++) {
                    targets.set(first + k, ops.size() * WIDTH);
                    emit(x.options[k]);
                    if (k < x.options.length - 1) {
                        int[] jump = {JUMP, 0, 0, 0, 0, 0};
                        ops.add(jump);
                        jumps.add(jump);
                    }
                }
                for (int[] jump : jumps) {
                    jump[2] = ops.size() * WIDTH;
                }
            } else if (d instanceof FieldDecoder.ArrayDecoder x) {
                int element = x.stride > 0 ? -1 : sub(of(x.element));
                add(ARRAY, x.slot, Math.max(1, x.align), 0, ref(x), element);
            } else if (d instanceof FieldDecoder.FixedRunDecoder x) {
                emitRun(x);
            } else {
                throw new IllegalArgumentException("no instruction for " + d);
            }
        }

        private void emitRun(FieldDecoder.FixedRunDecoder x) {
            if (x.fields.length == 1 && x.kind.length == 1 && x.kind[0] != FieldDecoder.FixedRunDecoder.ARRAY) {
                // one integer or float read: its own sequential instruction (one dispatch instead of two)
                if (x.align > FieldDecoder.FixedRunDecoder.alignment(x.fields[0])) {
                    add(ALIGN, 0, x.align, 0, 0, 0);
                }
                emit(x.fields[0]);
                return;
            }
            if (x.bits > Integer.MAX_VALUE / 2 || x.kind.length > 4096) {
                if (x.align > 1) {
                    add(ALIGN, 0, x.align, 0, 0, 0);
                }
                for (FieldDecoder f : x.fields) {
                    emit(f);
                }
                return;
            }
            // the fields one 8-byte load holds, wherever the run starts: read by the run's plan, without dispatch
            List<Integer> plan = new ArrayList<>();
            List<Integer> rest = new ArrayList<>();
            for (int k = 0; k < x.kind.length; k++) {
                int off = (int) x.offset[k];
                int size = x.size[k];
                int maxShift = x.align % 8 == 0 ? off % 8 : 7;
                boolean plain = x.kind[k] == FieldDecoder.FixedRunDecoder.FLOAT
                        || (x.kind[k] == FieldDecoder.FixedRunDecoder.INTEGER && x.role[k] == FieldDecoder.ROLE_NONE);
                if (plain && size >= 1 && maxShift + size <= 64) {
                    boolean signed = x.kind[k] == FieldDecoder.FixedRunDecoder.INTEGER && x.signed[k];
                    plan.add(off);
                    plan.add(size);
                    plan.add(shift(size, signed) | (x.bigEndian[k] ? PLAN_BIG_ENDIAN : 0));
                    plan.add(x.slot[k]);
                } else {
                    rest.add(k);
                }
            }
            int planIndex = -1;
            boolean bytes = x.align % 8 == 0;
            if (!plan.isEmpty()) {
                int[] p = plan.stream().mapToInt(Integer::intValue).toArray();
                plans.add(bytes ? bytePlan(p) : p);
                planIndex = plans.size() - 1;
            }
            add(bytes ? RUN8 : RUN, planIndex, Math.max(1, x.align), (int) x.bits, sub(ofFields(x.fields)), rest.size());
            for (int k : rest) {
                int off = (int) x.offset[k];
                int size = x.size[k];
                if (x.kind[k] == FieldDecoder.FixedRunDecoder.ARRAY) {
                    add(AARRAY, x.slot[k], off, (int) x.length[k], 0, 0);
                } else if (x.kind[k] == FieldDecoder.FixedRunDecoder.INTEGER && x.role[k] != FieldDecoder.ROLE_NONE) {
                    add(AROLE, x.slot[k], off, size, x.role[k], flags(x.bigEndian[k], x.signed[k]));
                } else {
                    boolean signed = x.kind[k] == FieldDecoder.FixedRunDecoder.INTEGER && x.signed[k];
                    add(at(size, off % 8 == 0 && x.align % 8 == 0, x.bigEndian[k]), x.slot[k], off, size, shift(size, signed), 0);
                }
            }
        }

        /** The read inside a run, by size and whether the field starts on a byte. */
        private static int at(int size, boolean byteAligned, boolean bigEndian) {
            if (byteAligned) {
                switch (size) {
                    case 8:
                        return A8;
                    case 16:
                        return bigEndian ? A16B : A16L;
                    case 32:
                        return bigEndian ? A32B : A32L;
                    case 64:
                        return bigEndian ? A64B : A64L;
                    default:
                        break;
                }
            }
            return bigEndian ? ABITS_B : ABITS_L;
        }

        DecodeProgram build() {
            int[] code = new int[ops.size() * WIDTH];
            for (int i = 0; i < ops.size(); i++) {
                System.arraycopy(ops.get(i), 0, code, i * WIDTH, WIDTH);
            }
            // jumps to a jump (an option ending where an enclosing option ends, an empty option) go to its end
            int[] t = targets.stream().mapToInt(Integer::intValue).toArray();
            for (int i = 0; i < code.length; i += WIDTH) {
                if (code[i] == JUMP) {
                    code[i + 2] = past(code, code[i + 2]);
                }
            }
            for (int k = 0; k < t.length; k++) {
                t[k] = past(code, t[k]);
            }
            return new DecodeProgram(code, subs.toArray(new DecodeProgram[0]), refs.toArray(new FieldDecoder[0]), t,
                    plans.toArray(new int[0][]));
        }

        /** Where control lands from {@code at}: past every jump it meets there. */
        private static int past(int[] code, int at) {
            while (at < code.length && code[at] == JUMP) {
                at = code[at + 2];
            }
            return at;
        }
    }
}
