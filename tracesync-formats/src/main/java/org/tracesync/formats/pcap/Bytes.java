package org.tracesync.formats.pcap;

/** Unsigned integer reads from a byte array in a given byte order (no bounds beyond the array's). */
final class Bytes {
    private Bytes() {
    }

    static int u8(byte[] b, int i) {
        return b[i] & 0xff;
    }

    static int u16be(byte[] b, int i) {
        return (b[i] & 0xff) << 8 | (b[i + 1] & 0xff);
    }

    static int u16(byte[] b, int i, boolean bigEndian) {
        return bigEndian ? u16be(b, i) : (b[i] & 0xff) | (b[i + 1] & 0xff) << 8;
    }

    static int i32be(byte[] b, int i) {
        return (b[i] & 0xff) << 24 | (b[i + 1] & 0xff) << 16 | (b[i + 2] & 0xff) << 8 | (b[i + 3] & 0xff);
    }

    static int i32le(byte[] b, int i) {
        return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
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
        return (long) i32be(b, i) << 32 | (i32be(b, i + 4) & 0xffffffffL);
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
