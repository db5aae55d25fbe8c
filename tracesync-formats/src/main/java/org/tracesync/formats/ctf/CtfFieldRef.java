package org.tracesync.formats.ctf;

/**
 * A compiled handle on one field of an event class in one stream: where its decoded value lives
 * in the event's slot array. Obtain it once per event class ({@link CtfEventClass#field}), then read
 * values from each {@link CtfEvent} without lookups or allocation.
 *
 * <p>Slot contents by type: integer/enum → the value (sign-extended when signed); float → the raw
 * IEEE-754 bits; string → byte offset in the current window, then (slot+1) byte length without the
 * NUL; array/sequence → bit position of the first element, then (slot+1) element count;
 * variant → index of the selected option (-1 before decoding).
 *
 * @param path        raw dotted path inside its scope (TSDL names, underscores kept)
 * @param elementBits for an array or sequence whose elements have a fixed size without padding
 *                    (integers, enums, arrays of them), that size in bits; else -1 (computed once
 *                    here so that reading an address does not walk the type per event)
 */
public record CtfFieldRef(String path, CtfType type, int slot, Scope scope, long elementBits) {

    public CtfFieldRef(String path, CtfType type, int slot, Scope scope) {
        this(path, type, slot, scope, fixedBits(type instanceof CtfType.SequenceType s ? s.element()
                : type instanceof CtfType.ArrayType a ? a.element() : null));
    }

    /** Size in bits of a fixed-size, padding-free type (integers and arrays of them), else -1. */
    static long fixedBits(CtfType t) {
        if (t instanceof CtfType.IntegerType it) {
            return it.size() % it.alignment() == 0 ? it.size() : -1;
        }
        if (t instanceof CtfType.EnumType et) {
            return fixedBits(et.container());
        }
        if (t instanceof CtfType.ArrayType a) {
            long e = fixedBits(a.element());
            return e < 0 ? -1 : e * a.length();
        }
        return -1;
    }

    /** The dynamic scope a field lives in. Packet scopes live in the packet's slot array. */
    public enum Scope {
        PACKET_HEADER, PACKET_CONTEXT, EVENT_HEADER, STREAM_EVENT_CONTEXT, EVENT_CONTEXT, EVENT_FIELDS;

        public boolean perPacket() {
            return this == PACKET_HEADER || this == PACKET_CONTEXT;
        }

        /** The TSDL prefix of absolute paths into this scope. */
        public String prefix() {
            return switch (this) {
                case PACKET_HEADER -> "trace.packet.header";
                case PACKET_CONTEXT -> "stream.packet.context";
                case EVENT_HEADER -> "stream.event.header";
                case STREAM_EVENT_CONTEXT -> "stream.event.context";
                case EVENT_CONTEXT -> "event.context";
                case EVENT_FIELDS -> "event.fields";
            };
        }
    }
}
