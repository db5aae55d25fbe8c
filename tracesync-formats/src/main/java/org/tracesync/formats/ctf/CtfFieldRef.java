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
 * @param path raw dotted path inside its scope (TSDL names, underscores kept)
 */
public record CtfFieldRef(String path, CtfType type, int slot, Scope scope) {

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
