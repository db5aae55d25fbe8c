package org.tracesync.formats.pcap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Unsigned integer reads from a byte array in a given byte order (no bounds beyond the array's).
 * The multi-byte reads go through byte-array views ({@link MethodHandles#byteArrayViewVarHandle}),
 * which the JIT compiles to one load (and a byte swap where the order differs from the machine's)
 * instead of one load, mask and shift per byte; an index out of the array throws an
 * {@link IndexOutOfBoundsException} as the per-byte reads did.
 */
final class Bytes {
    private Bytes() {
    }

    private static final VarHandle I16_BE = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I32_BE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I32_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle I64_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static int u8(byte[] b, int i) {
        return b[i] & 0xff;
    }

    static int u16be(byte[] b, int i) {
        return (short) I16_BE.get(b, i) & 0xffff;
    }

    static int u16(byte[] b, int i, boolean bigEndian) {
        return bigEndian ? u16be(b, i) : (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
    }

    static int i32be(byte[] b, int i) {
        return (int) I32_BE.get(b, i);
    }

    static int i32le(byte[] b, int i) {
        return (int) I32_LE.get(b, i);
    }

    static int i32(byte[] b, int i, boolean bigEndian) {
        return bigEndian ? i32be(b, i) : i32le(b, i);
    }

    static long u32(byte[] b, int i, boolean bigEndian) {
        return i32(b, i, bigEndian) & 0xffffffffL;
    }

    static long u32be(byte[] b, int i) {
        return i32be(b, i) & 0xffffffffL;
    }

    static long i64be(byte[] b, int i) {
        return (long) I64_BE.get(b, i);
    }

    static long i64le(byte[] b, int i) {
        return (long) I64_LE.get(b, i);
    }

    static void put16(byte[] b, int i, int v, boolean bigEndian) {
        if (bigEndian) {
            b[i] = (byte) (v >>> 8);
            b[i + 1] = (byte) v;
        } else {
            b[i] = (byte) v;
            b[i + 1] = (byte) (v >>> 8);
        }
    }

    static void put32(byte[] b, int i, int v, boolean bigEndian) {
        if (bigEndian) {
            b[i] = (byte) (v >>> 24);
            b[i + 1] = (byte) (v >>> 16);
            b[i + 2] = (byte) (v >>> 8);
            b[i + 3] = (byte) v;
        } else {
            b[i] = (byte) v;
            b[i + 1] = (byte) (v >>> 8);
            b[i + 2] = (byte) (v >>> 16);
            b[i + 3] = (byte) (v >>> 24);
        }
    }
}
