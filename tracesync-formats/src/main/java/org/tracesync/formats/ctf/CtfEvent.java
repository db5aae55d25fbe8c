package org.tracesync.formats.ctf;

/**
 * The event a {@link CtfTrace} is positioned on: a reusable view (flyweight) valid only during the
 * handler call. Reading a value is an array access; nothing is allocated except by
 * {@link #stringValue} and {@link #bytes}.
 */
public interface CtfEvent {

    CtfEventClass eventClass();

    /** Timestamp in ns from the clock's origin (the Unix epoch for LTTng), exact. */
    long timestamp();

    /** The raw clock value (cycles), after wrap-around reconstruction. */
    long cycles();

    /** Index of the stream (file) in {@link CtfTrace#streamFiles()}. */
    int streamIndex();

    /** Byte offset of the event in its stream file. */
    long offset();

    /** Integer or enum value (see {@link CtfFieldRef} for other kinds). */
    long longValue(CtfFieldRef field);

    /** Float/double value of a floating-point field. */
    double doubleValue(CtfFieldRef field);

    /** String value of a string field or of an array/sequence of 8-bit integers (up to the first NUL). */
    String stringValue(CtfFieldRef field);

    /** Raw bytes of an array/sequence of byte-aligned integers, as stored (for addresses). */
    byte[] bytes(CtfFieldRef field);

    /** Length in bytes of {@link #bytes}'s result, without the copy. */
    default int byteLength(CtfFieldRef field) {
        return bytes(field).length;
    }

    /**
     * Bytes {@code from} to {@code from + count − 1} (count ≤ 8) of {@link #bytes}'s result as one
     * big-endian number (addresses in network order), without the copy.
     */
    default long bigEndianBytes(CtfFieldRef field, int from, int count) {
        byte[] b = bytes(field);
        long v = 0;
        for (int i = 0; i < count; i++) {
            v = v << 8 | (b[from + i] & 0xFFL);
        }
        return v;
    }

    /** Label of an enum field's value, or null when no label matches. */
    default String enumLabel(CtfFieldRef field) {
        if (field.type() instanceof CtfType.EnumType e) {
            return e.labelOf(longValue(field));
        }
        return null;
    }
}
