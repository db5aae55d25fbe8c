package org.tracesync.formats.lttv;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Decimal digits read eight bytes at a time (SWAR: one 64-bit word holds eight ASCII bytes, the
 * first byte in the low bits): how many of a word's first bytes are digits, and the value of
 * those digits. Exact integer arithmetic only; a constant number of operations per word instead
 * of a branch per byte. The LTTV text reader's plain-line path parses its times with it.
 *
 * <ul>
 *   <li>{@link #digitCount}: a byte is a digit iff its high nibble is 3 and adding 6 keeps it 3
 *       (0x30–0x39). A carry out of a byte ≥ 0xFA can only disturb later bytes, and that byte is
 *       itself no digit, so the first non-digit is always found exactly.</li>
 *   <li>{@link #value}: the k digits are moved to the word's top bytes (zero bytes in front are
 *       leading zeros), then combined pairwise in three multiplications (1 → 2 → 4 → 8 digits).</li>
 * </ul>
 */
final class DigitWords {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ZEROS = 0x3030303030303030L;
    private static final long HIGH_NIBBLES = 0xF0F0F0F0F0F0F0F0L;
    private static final long SIXES = 0x0606060606060606L;

    private DigitWords() {
    }

    /** The eight bytes {@code buf[i…i+7]} as one word, {@code buf[i]} in the low bits. */
    static long word(byte[] buf, int i) {
        return (long) LONGS.get(buf, i);
    }

    /** How many of the word's bytes, from the first, are ASCII digits: 0 to 8. */
    static int digitCount(long w) {
        long notDigit = ((w & HIGH_NIBBLES) ^ ZEROS) | (((w + SIXES) & HIGH_NIBBLES) ^ ZEROS);
        return Long.numberOfTrailingZeros(notDigit) >>> 3;
    }

    /** Whether all eight bytes of the word are ASCII digits. */
    static boolean allDigits(long w) {
        return (((w & HIGH_NIBBLES) ^ ZEROS) | (((w + SIXES) & HIGH_NIBBLES) ^ ZEROS)) == 0;
    }

    /** The value of the word's first {@code k} bytes, all digits, 1 ≤ k ≤ 8 (the first is the most significant). */
    static long value(long w, int k) {
        long d = (w - ZEROS) << (64 - 8 * k); // bytes after the k digits (and their borrows) leave the word
        d = (d * 10 + (d >>> 8)) & 0x00FF00FF00FF00FFL; // pairs: 2-digit values in every other byte
        d = (d * 100 + (d >>> 16)) & 0x0000FFFF0000FFFFL; // quads
        return (d * 10_000 + (d >>> 32)) & 0xFFFFFFFFL; // the 8 digits
    }
}
