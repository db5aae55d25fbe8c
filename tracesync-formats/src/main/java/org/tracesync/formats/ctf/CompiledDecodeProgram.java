package org.tracesync.formats.ctf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * A {@link DecodeProgram} turned into straight-line bytecode: one hidden class per distinct
 * program, whose {@link #run} does what {@link CtfStreamReader}'s interpreter does for each
 * instruction, without the dispatch (no switch on an opcode, no operand loaded from the code
 * array, the runs' plans unrolled into one load, two shifts and a mask per field with their
 * constants in the code; a variant is a {@code tableswitch} to its options' code, a jump a
 * {@code goto}).
 *
 * <p>What it does not do, it gives up on: whenever a read would pass the end of what may be read
 * (the copy or the content), a string has no NUL before it, a variant's tag selects no option or an
 * array's length does not fit, {@link #run} returns −1 and the interpreter decodes the same bits
 * again from the same position ({@link CtfStreamReader#run}), so that errors, their messages and
 * positions, and the larger copies of {@code Refill} are the interpreter's. Slots written before
 * giving up are written again by the interpreter; the clock and event id are restored by the
 * caller. Programs with arrays of elements of variable size, and programs too long for the JIT to
 * compile the generated method (HotSpot skips methods over 8,000 bytes of bytecode), are not
 * compiled ({@link #of} returns null) and stay interpreted.
 *
 * <p>Exactness: the reads are those of the interpreter, to the bit ({@code PrunedDecodersTest}
 * compares the compiled, interpreted and tree decoders on the shared traces and on seeded random
 * layouts, with copies that make events cross the copy's end). Cost: building a class takes
 * about a millisecond and is done once per distinct program (cached by its content, so the streams
 * of a trace and the traces of one tracer share their classes); the JIT then compiles each class's
 * {@code run} like any hot method.
 */
abstract class CompiledDecodeProgram {

    /**
     * Decodes from bit {@code p} of {@code b} (reads stop at bit {@code lim}), into {@code slots};
     * {@code toPacket} is added to copy positions to give packet positions (strings, arrays).
     * Returns the position after the program, or −1 when the interpreter must decode this instead.
     */
    abstract long run(CtfStreamReader r, byte[] b, long p, long lim, long[] slots, long toPacket);

    /** Instructions plus plan fields plus variant options above which a program is not compiled (its method would be too long). */
    static final int MAX_WEIGHT = 160;

    /** Whether ASM can be loaded (a program embedding tracesync-formats without it decodes by the interpreter). */
    private static final boolean ASM_PRESENT = asmPresent();

    private static boolean asmPresent() {
        try {
            Class.forName("org.objectweb.asm.ClassWriter", false, CompiledDecodeProgram.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static final Map<String, CompiledDecodeProgram> CACHE = new ConcurrentHashMap<>();
    private static final int MAX_CACHED = 4096;
    private static final String NAME = "org/tracesync/formats/ctf/CompiledDecodeProgram";
    private static final String READER = "org/tracesync/formats/ctf/CtfStreamReader";
    private static final String VARIANT = "org/tracesync/formats/ctf/FieldDecoder$VariantDecoder";
    private static final String ARRAY = "org/tracesync/formats/ctf/FieldDecoder$ArrayDecoder";
    private static final String RUN_DESC = "(L" + READER + ";[BJJ[JJ)J";

    /** The compiled form of {@code prog}, or null when it is not compiled (see above, or when ASM is not on the class path). */
    static CompiledDecodeProgram of(DecodeProgram prog) {
        if (!compilable(prog) || !ASM_PRESENT) {
            return null;
        }
        String key = key(prog);
        CompiledDecodeProgram c = CACHE.get(key);
        if (c == null) {
            c = define(prog);
            if (CACHE.size() < MAX_CACHED) {
                CompiledDecodeProgram earlier = CACHE.putIfAbsent(key, c);
                if (earlier != null) {
                    c = earlier;
                }
            }
        }
        return c;
    }

    private static boolean compilable(DecodeProgram prog) {
        int[] c = prog.code;
        int weight = c.length / DecodeProgram.WIDTH;
        for (int i = 0; i < c.length; i += DecodeProgram.WIDTH) {
            switch (c[i]) {
                case DecodeProgram.ARRAY -> {
                    if (c[i + 5] >= 0) {
                        return false; // elements of variable size: sub-programs, left to the interpreter
                    }
                }
                case DecodeProgram.RUN, DecodeProgram.RUN8 -> {
                    if (c[i + 1] >= 0) {
                        weight += prog.plans[c[i + 1]].length / 3;
                    }
                }
                case DecodeProgram.VARIANT -> weight += c[i + 3];
                default -> {
                }
            }
        }
        return weight <= MAX_WEIGHT;
    }

    /** What the generated code depends on: the instructions, targets, plans, and the variants' and arrays' parameters. */
    private static String key(DecodeProgram prog) {
        StringBuilder sb = new StringBuilder(Arrays.toString(prog.code)).append(Arrays.toString(prog.targets));
        for (int[] plan : prog.plans) {
            sb.append(Arrays.toString(plan));
        }
        for (FieldDecoder d : prog.refs) {
            if (d instanceof FieldDecoder.VariantDecoder v) {
                sb.append("|v").append(v.slot).append(',').append(v.tagSlot).append(',').append(v.tagSigned)
                        .append(Arrays.toString(v.lows)).append(Arrays.toString(v.highs))
                        .append(Arrays.toString(v.optionOfRange)).append(v.options.length);
            } else if (d instanceof FieldDecoder.ArrayDecoder a) {
                sb.append("|a").append(a.slot).append(',').append(a.fixedLength).append(',').append(a.lengthSlot)
                        .append(',').append(a.align).append(',').append(a.stride).append(',').append(a.elementMinBits);
            } else {
                sb.append("|?").append(System.identityHashCode(d));
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ reads the generated code calls

    // through the interpreter's views of the bytes (CtfStreamReader's VarHandles): both read a field alike

    static long u8(byte[] b, int o) {
        return b[o] & 0xFFL;
    }

    static long le16(byte[] b, int o) {
        return (short) CtfStreamReader.SHORT_LE.get(b, o) & 0xFFFFL;
    }

    static long be16(byte[] b, int o) {
        return (short) CtfStreamReader.SHORT_BE.get(b, o) & 0xFFFFL;
    }

    static long le32(byte[] b, int o) {
        return (int) CtfStreamReader.INT_LE.get(b, o) & 0xFFFFFFFFL;
    }

    static long be32(byte[] b, int o) {
        return (int) CtfStreamReader.INT_BE.get(b, o) & 0xFFFFFFFFL;
    }

    static long le64(byte[] b, int o) {
        return (long) CtfStreamReader.LONG_LE.get(b, o);
    }

    static long be64(byte[] b, int o) {
        return (long) CtfStreamReader.LONG_BE.get(b, o);
    }

    /**
     * The position after an array of fixed-size elements of length {@code n} aligned at {@code p},
     * or −1 where the interpreter's {@code ARRAY} instruction fails (same conditions).
     */
    static long arrayEnd(FieldDecoder.ArrayDecoder a, long n, long p, long lim) {
        if (n < 0 || (n > 0 && CtfStreamReader.exceeds(n, Math.max(1, a.elementMinBits), Math.max(0, lim - p)))
                || (a.elementMinBits == 0 && n > (1 << 20))) {
            return -1;
        }
        long bits = n * a.stride;
        if (bits < 0 || bits > lim - p) {
            return -1;
        }
        return p + bits;
    }

    // ------------------------------------------------------------------ the generator

    // locals of the generated run
    private static final int R = 1;
    private static final int B = 2;
    private static final int P = 3;
    private static final int LIM = 5;
    private static final int SLOTS = 7;
    private static final int TO_PACKET = 8;
    private static final int BASE = 10;
    private static final int V = 12;
    private static final int OPT = 14;
    private static final int AT = 15;
    private static final int END = 16;
    private static final int N = 17;

    private static CompiledDecodeProgram define(DecodeProgram prog) {
        Generator g = new Generator(prog);
        byte[] bytes = g.generate();
        try {
            MethodHandles.Lookup l = MethodHandles.lookup().defineHiddenClassWithClassData(bytes, g.constants.toArray(), true);
            return (CompiledDecodeProgram) l.findConstructor(l.lookupClass(), MethodType.methodType(void.class)).invoke();
        } catch (Throwable e) {
            throw new IllegalStateException("compiling a CTF decoding program: " + e, e);
        }
    }

    /** The bytecode of one program's class (see the class comment). */
    private static final class Generator implements Opcodes {
        private final DecodeProgram prog;
        private final int[] c;
        /** Static final fields of the class, filled from its class data: plans of unaligned runs, variants, arrays. */
        final List<Object> constants = new ArrayList<>();
        private final List<String> constantTypes = new ArrayList<>();
        private final Label[] at;
        private final Label fail = new Label();
        private MethodVisitor mv;

        Generator(DecodeProgram prog) {
            this.prog = prog;
            this.c = prog.code;
            this.at = new Label[c.length / DecodeProgram.WIDTH + 1];
            for (int k = 0; k < at.length; k++) {
                at[k] = new Label();
            }
        }

        private Label label(int codeIndex) {
            return at[codeIndex / DecodeProgram.WIDTH];
        }

        private int constant(Object value, String descriptor) {
            constants.add(value);
            constantTypes.add(descriptor);
            return constants.size() - 1;
        }

        byte[] generate() {
            ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
                @Override
                protected String getCommonSuperClass(String a, String b) {
                    return "java/lang/Object";
                }
            };
            String self = NAME + "$Program";
            cw.visit(V17, ACC_FINAL | ACC_SUPER, self, null, NAME, null);
            mv = cw.visitMethod(0, "<init>", "()V", null, null);
            mv.visitCode();
            mv.visitVarInsn(ALOAD, 0);
            mv.visitMethodInsn(INVOKESPECIAL, NAME, "<init>", "()V", false);
            mv.visitInsn(RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();

            mv = cw.visitMethod(0, "run", RUN_DESC, null, null);
            mv.visitCode();
            mv.visitInsn(LCONST_0);
            mv.visitVarInsn(LSTORE, BASE);
            for (int i = 0; i < c.length; i += DecodeProgram.WIDTH) {
                mv.visitLabel(label(i));
                instruction(i);
            }
            mv.visitLabel(at[at.length - 1]);
            mv.visitVarInsn(LLOAD, P);
            mv.visitInsn(LRETURN);
            mv.visitLabel(fail);
            mv.visitLdcInsn(-1L);
            mv.visitInsn(LRETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();

            for (int k = 0; k < constants.size(); k++) {
                cw.visitField(ACC_PRIVATE | ACC_STATIC | ACC_FINAL, "c" + k, constantTypes.get(k), null, null).visitEnd();
            }
            mv = cw.visitMethod(ACC_STATIC, "<clinit>", "()V", null, null);
            mv.visitCode();
            if (!constants.isEmpty()) {
                mv.visitMethodInsn(INVOKESTATIC, "java/lang/invoke/MethodHandles", "lookup",
                        "()Ljava/lang/invoke/MethodHandles$Lookup;", false);
                mv.visitLdcInsn("_");
                mv.visitLdcInsn(org.objectweb.asm.Type.getType(Object[].class));
                mv.visitMethodInsn(INVOKESTATIC, "java/lang/invoke/MethodHandles", "classData",
                        "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;Ljava/lang/Class;)Ljava/lang/Object;", false);
                mv.visitTypeInsn(CHECKCAST, "[Ljava/lang/Object;");
                mv.visitVarInsn(ASTORE, 0);
                for (int k = 0; k < constants.size(); k++) {
                    String d = constantTypes.get(k);
                    mv.visitVarInsn(ALOAD, 0);
                    push(k);
                    mv.visitInsn(AALOAD);
                    mv.visitTypeInsn(CHECKCAST, d.startsWith("[") ? d : d.substring(1, d.length() - 1));
                    mv.visitFieldInsn(PUTSTATIC, self, "c" + k, d);
                }
            }
            mv.visitInsn(RETURN);
            mv.visitMaxs(0, 0);
            mv.visitEnd();
            cw.visitEnd();
            return cw.toByteArray();
        }

        private void getConstant(int k) {
            mv.visitFieldInsn(GETSTATIC, NAME + "$Program", "c" + k, constantTypes.get(k));
        }

        private void push(int v) {
            if (v >= -1 && v <= 5) {
                mv.visitInsn(ICONST_0 + v);
            } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
                mv.visitIntInsn(BIPUSH, v);
            } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
                mv.visitIntInsn(SIPUSH, v);
            } else {
                mv.visitLdcInsn(v);
            }
        }

        private void pushLong(long v) {
            if (v == 0 || v == 1) {
                mv.visitInsn(LCONST_0 + (int) v);
            } else {
                mv.visitLdcInsn(v);
            }
        }

        /** p = up(p, align). */
        private void align(int align) {
            if (align > 1) {
                mv.visitVarInsn(LLOAD, P);
                pushLong(align - 1);
                mv.visitInsn(LADD);
                pushLong(-(long) align);
                mv.visitInsn(LAND);
                mv.visitVarInsn(LSTORE, P);
            }
        }

        /** if (bits > lim − p) give up. */
        private void check(int bits) {
            pushLong(bits);
            mv.visitVarInsn(LLOAD, LIM);
            mv.visitVarInsn(LLOAD, P);
            mv.visitInsn(LSUB);
            mv.visitInsn(LCMP);
            mv.visitJumpInsn(IFGT, fail);
        }

        /** p += bits. */
        private void advance(int bits) {
            mv.visitVarInsn(LLOAD, P);
            pushLong(bits);
            mv.visitInsn(LADD);
            mv.visitVarInsn(LSTORE, P);
        }

        /** Pushes (int) ((pos + off) >>> 3) for pos = local {@code posLocal}. */
        private void byteIndex(int posLocal, int off) {
            mv.visitVarInsn(LLOAD, posLocal);
            if (off != 0) {
                pushLong(off);
                mv.visitInsn(LADD);
            }
            mv.visitInsn(ICONST_3);
            mv.visitInsn(LUSHR);
            mv.visitInsn(L2I);
        }

        /** Calls the static read {@code name(byte[], int)} with b and the index on the stack (b pushed first by the caller). */
        private void read(String name) {
            mv.visitMethodInsn(INVOKESTATIC, NAME, name, "([BI)J", false);
        }

        /** (v << s) >> s on the long on the stack. */
        private void signExtend(int s) {
            if (s != 0) {
                push(s);
                mv.visitInsn(LSHL);
                push(s);
                mv.visitInsn(LSHR);
            }
        }

        /** Pushes slots and the slot index (the value follows, then LASTORE). */
        private void slot(int slot) {
            mv.visitVarInsn(ALOAD, SLOTS);
            push(slot);
        }

        private static String byteRead(int op) {
            return switch (op) {
                case DecodeProgram.S8, DecodeProgram.A8 -> "u8";
                case DecodeProgram.S16L, DecodeProgram.A16L -> "le16";
                case DecodeProgram.S16B, DecodeProgram.A16B -> "be16";
                case DecodeProgram.S32L, DecodeProgram.A32L -> "le32";
                case DecodeProgram.S32B, DecodeProgram.A32B -> "be32";
                case DecodeProgram.S64L, DecodeProgram.A64L -> "le64";
                case DecodeProgram.S64B, DecodeProgram.A64B -> "be64";
                default -> throw new IllegalArgumentException("not a byte read: " + op);
            };
        }

        private static int byteReadSize(int op) {
            return switch (op) {
                case DecodeProgram.S8, DecodeProgram.A8 -> 8;
                case DecodeProgram.S16L, DecodeProgram.S16B, DecodeProgram.A16L, DecodeProgram.A16B -> 16;
                case DecodeProgram.S32L, DecodeProgram.S32B, DecodeProgram.A32L, DecodeProgram.A32B -> 32;
                default -> 64;
            };
        }

        /** Pushes CtfStreamReader.unalignedBitsAt(b, pos + off, size, big) for pos = local {@code posLocal}. */
        private void bits(int posLocal, int off, int size, boolean big) {
            mv.visitVarInsn(ALOAD, B);
            mv.visitVarInsn(LLOAD, posLocal);
            if (off != 0) {
                pushLong(off);
                mv.visitInsn(LADD);
            }
            push(size);
            push(big ? 1 : 0);
            mv.visitMethodInsn(INVOKESTATIC, READER, "unalignedBitsAt", "([BJIZ)J", false);
        }

        /** An integer with a role: value (on the stack) signed if flagged, into its slot and local V, then r.role(role, v, size). */
        private void roleValue(int slot, int size, int role, int flags) {
            if ((flags & DecodeProgram.FLAG_SIGNED) != 0 && size < 64) {
                signExtend(64 - size);
            }
            mv.visitVarInsn(LSTORE, V);
            slot(slot);
            mv.visitVarInsn(LLOAD, V);
            mv.visitInsn(LASTORE);
            mv.visitVarInsn(ALOAD, R);
            push(role);
            mv.visitVarInsn(LLOAD, V);
            push(size);
            mv.visitMethodInsn(INVOKEVIRTUAL, READER, "role", "(IJI)V", false);
        }

        private void instruction(int i) {
            int op = c[i];
            switch (op) {
                case DecodeProgram.RUN, DecodeProgram.RUN8 -> {
                    align(c[i + 2]);
                    check(c[i + 3]);
                    mv.visitVarInsn(LLOAD, P);
                    mv.visitVarInsn(LSTORE, BASE);
                    advance(c[i + 3]);
                    if (c[i + 1] >= 0) {
                        int[] plan = prog.plans[c[i + 1]];
                        if (op == DecodeProgram.RUN8) {
                            bytePlan(plan);
                        } else {
                            int k = constant(plan, "[I");
                            getConstant(k);
                            mv.visitVarInsn(ALOAD, B);
                            mv.visitVarInsn(LLOAD, BASE);
                            mv.visitVarInsn(ALOAD, SLOTS);
                            mv.visitMethodInsn(INVOKESTATIC, READER, "readPlan", "([I[BJ[J)V", false);
                        }
                    }
                }
                case DecodeProgram.A8, DecodeProgram.A16L, DecodeProgram.A16B, DecodeProgram.A32L, DecodeProgram.A32B,
                     DecodeProgram.A64L, DecodeProgram.A64B -> {
                    slot(c[i + 1]);
                    mv.visitVarInsn(ALOAD, B);
                    byteIndex(BASE, c[i + 2]);
                    read(byteRead(op));
                    if (byteReadSize(op) < 64) {
                        signExtend(c[i + 4]);
                    }
                    mv.visitInsn(LASTORE);
                }
                case DecodeProgram.ABITS_L, DecodeProgram.ABITS_B -> {
                    slot(c[i + 1]);
                    bits(BASE, c[i + 2], c[i + 3], op == DecodeProgram.ABITS_B);
                    signExtend(c[i + 4]);
                    mv.visitInsn(LASTORE);
                }
                case DecodeProgram.AROLE -> {
                    bits(BASE, c[i + 2], c[i + 3], (c[i + 5] & DecodeProgram.FLAG_BIG_ENDIAN) != 0);
                    roleValue(c[i + 1], c[i + 3], c[i + 4], c[i + 5]);
                }
                case DecodeProgram.AARRAY -> {
                    slot(c[i + 1]);
                    mv.visitVarInsn(LLOAD, BASE);
                    pushLong(c[i + 2]);
                    mv.visitInsn(LADD);
                    mv.visitVarInsn(LLOAD, TO_PACKET);
                    mv.visitInsn(LADD);
                    mv.visitInsn(LASTORE);
                    slot(c[i + 1] + 1);
                    pushLong(c[i + 3]);
                    mv.visitInsn(LASTORE);
                }
                case DecodeProgram.S8, DecodeProgram.S16L, DecodeProgram.S16B, DecodeProgram.S32L, DecodeProgram.S32B,
                     DecodeProgram.S64L, DecodeProgram.S64B -> {
                    int size = byteReadSize(op);
                    align(c[i + 2]);
                    check(size);
                    slot(c[i + 1]);
                    mv.visitVarInsn(ALOAD, B);
                    byteIndex(P, 0);
                    read(byteRead(op));
                    if (size < 64) {
                        signExtend(c[i + 4]);
                    }
                    mv.visitInsn(LASTORE);
                    advance(size);
                }
                case DecodeProgram.SBITS_L, DecodeProgram.SBITS_B -> {
                    int size = c[i + 3];
                    align(c[i + 2]);
                    check(size);
                    slot(c[i + 1]);
                    bits(P, 0, size, op == DecodeProgram.SBITS_B);
                    signExtend(c[i + 4]);
                    mv.visitInsn(LASTORE);
                    advance(size);
                }
                case DecodeProgram.SROLE -> {
                    int size = c[i + 3];
                    align(c[i + 2]);
                    check(size);
                    bits(P, 0, size, (c[i + 5] & DecodeProgram.FLAG_BIG_ENDIAN) != 0);
                    roleValue(c[i + 1], size, c[i + 4], c[i + 5]);
                    advance(size);
                }
                case DecodeProgram.STRING -> string(c[i + 1]);
                case DecodeProgram.ARRAY -> array((FieldDecoder.ArrayDecoder) prog.refs[c[i + 4]], c[i + 1], c[i + 2]);
                case DecodeProgram.VARIANT -> variant((FieldDecoder.VariantDecoder) prog.refs[c[i + 4]], c[i + 1], c[i + 5]);
                case DecodeProgram.JUMP -> mv.visitJumpInsn(GOTO, label(c[i + 2]));
                case DecodeProgram.ALIGN -> align(c[i + 2]);
                default -> throw new IllegalStateException("bad instruction " + op);
            }
        }

        /** A RUN8's plan ({@link DecodeProgram#bytePlan}): per field one load at its first byte, then its constant shifts and mask. */
        private void bytePlan(int[] plan) {
            byteIndex(BASE, 0);
            mv.visitVarInsn(ISTORE, AT);
            int mid = 1 + 3 * plan[0];
            for (int k = 1; k < plan.length; k += 3) {
                int packed = plan[k + 1];
                int l = packed & 63;
                int r = (packed >>> 8) & 63;
                int m = (packed >>> 16) & 63;
                slot(plan[k + 2]);
                mv.visitVarInsn(ALOAD, B);
                mv.visitVarInsn(ILOAD, AT);
                if (plan[k] != 0) {
                    push(plan[k]);
                    mv.visitInsn(IADD);
                }
                read(k < mid ? "be64" : "le64");
                if (l != 0) {
                    push(l);
                    mv.visitInsn(LSHL);
                }
                if (r != 0) {
                    push(r);
                    mv.visitInsn(LSHR);
                }
                if (m != 0) {
                    pushLong(-1L >>> m);
                    mv.visitInsn(LAND);
                }
                mv.visitInsn(LASTORE);
            }
        }

        private void string(int slot) {
            align(8);
            byteIndex(P, 0);
            mv.visitVarInsn(ISTORE, AT);
            byteIndex(LIM, 0);
            mv.visitVarInsn(ISTORE, END);
            mv.visitVarInsn(ALOAD, B);
            mv.visitVarInsn(ILOAD, AT);
            mv.visitVarInsn(ILOAD, END);
            mv.visitMethodInsn(INVOKESTATIC, READER, "nul", "([BII)I", false);
            mv.visitVarInsn(ISTORE, OPT);
            mv.visitVarInsn(ILOAD, OPT);
            mv.visitVarInsn(ILOAD, END);
            mv.visitJumpInsn(IF_ICMPGE, fail);
            slot(slot);
            mv.visitVarInsn(ILOAD, AT);
            mv.visitInsn(I2L);
            mv.visitVarInsn(LLOAD, TO_PACKET);
            mv.visitInsn(ICONST_3);
            mv.visitInsn(LUSHR);
            mv.visitInsn(LADD);
            mv.visitInsn(LASTORE);
            slot(slot + 1);
            mv.visitVarInsn(ILOAD, OPT);
            mv.visitVarInsn(ILOAD, AT);
            mv.visitInsn(ISUB);
            mv.visitInsn(I2L);
            mv.visitInsn(LASTORE);
            mv.visitVarInsn(ILOAD, OPT);
            mv.visitInsn(ICONST_1);
            mv.visitInsn(IADD);
            mv.visitInsn(I2L);
            mv.visitInsn(ICONST_3);
            mv.visitInsn(LSHL);
            mv.visitVarInsn(LSTORE, P);
        }

        /** An array of fixed-size elements (stride > 0): its position and length into the slot and the next, then past it. */
        private void array(FieldDecoder.ArrayDecoder a, int slot, int align) {
            if (a.lengthSlot >= 0) {
                mv.visitVarInsn(ALOAD, SLOTS);
                push(a.lengthSlot);
                mv.visitInsn(LALOAD);
            } else {
                pushLong(a.fixedLength);
            }
            mv.visitVarInsn(LSTORE, N);
            align(align);
            getConstant(constant(a, "L" + ARRAY + ";"));
            mv.visitVarInsn(LLOAD, N);
            mv.visitVarInsn(LLOAD, P);
            mv.visitVarInsn(LLOAD, LIM);
            mv.visitMethodInsn(INVOKESTATIC, NAME, "arrayEnd", "(L" + ARRAY + ";JJJ)J", false);
            mv.visitVarInsn(LSTORE, V);
            mv.visitVarInsn(LLOAD, V);
            mv.visitInsn(LCONST_0);
            mv.visitInsn(LCMP);
            mv.visitJumpInsn(IFLT, fail);
            slot(slot);
            mv.visitVarInsn(LLOAD, P);
            mv.visitVarInsn(LLOAD, TO_PACKET);
            mv.visitInsn(LADD);
            mv.visitInsn(LASTORE);
            slot(slot + 1);
            mv.visitVarInsn(LLOAD, N);
            mv.visitInsn(LASTORE);
            mv.visitVarInsn(LLOAD, V);
            mv.visitVarInsn(LSTORE, P);
        }

        /** The option the tag selects (its index into the slot), then a tableswitch to its code; no option: give up. */
        private void variant(FieldDecoder.VariantDecoder v, int slot, int firstTarget) {
            getConstant(constant(v, "L" + VARIANT + ";"));
            mv.visitVarInsn(ALOAD, SLOTS);
            push(v.tagSlot);
            mv.visitInsn(LALOAD);
            mv.visitMethodInsn(INVOKEVIRTUAL, VARIANT, "option", "(J)I", false);
            mv.visitVarInsn(ISTORE, OPT);
            mv.visitVarInsn(ILOAD, OPT);
            mv.visitJumpInsn(IFLT, fail);
            slot(slot);
            mv.visitVarInsn(ILOAD, OPT);
            mv.visitInsn(I2L);
            mv.visitInsn(LASTORE);
            int n = v.options.length;
            if (n == 0) {
                mv.visitJumpInsn(GOTO, fail);
                return;
            }
            Label[] options = new Label[n];
            for (int k = 0; k < n; k++) {
                options[k] = label(prog.targets[firstTarget + k]);
            }
            mv.visitVarInsn(ILOAD, OPT);
            mv.visitTableSwitchInsn(0, n - 1, fail, options);
        }
    }
}
