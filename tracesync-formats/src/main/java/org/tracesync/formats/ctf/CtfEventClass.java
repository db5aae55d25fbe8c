package org.tracesync.formats.ctf;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.tracesync.formats.ctf.CtfFieldRef.Scope;
import org.tracesync.formats.ctf.CtfMetadata.EventClass;

/**
 * An event class compiled for one stream: its decoders and its field handles. Field lookup
 * ({@link #field}) accepts raw TSDL paths ({@code _network_header._ipv4._saddr}) or the names
 * babeltrace2 shows ({@code network_header.ipv4.saddr}); it searches the event's payload, then
 * its context, the stream event context, the event header and the packet scopes.
 */
public final class CtfEventClass {

    private final EventClass meta;
    FieldDecoder context;
    FieldDecoder fields;
    /** The stream's event context tree (shared by the stream's event classes), or null. */
    private final FieldDecoder streamContext;
    /** The stream event context, this class's context and its fields as one program, which the stream reader runs. */
    DecodeProgram program;
    private final Map<String, CtfFieldRef> byPath = new LinkedHashMap<>();
    private final List<CtfFieldRef> payload = new ArrayList<>();
    /** Per-class cache of {@link CtfNetworkEvents} (which network layout, resolved fields). */
    Object networkLayout;

    CtfEventClass(EventClass meta, FieldDecoder streamContext, FieldDecoder context, FieldDecoder fields,
                  DecoderCompiler compiled) {
        this.meta = meta;
        this.context = context;
        this.fields = fields;
        this.streamContext = streamContext;
        this.program = DecodeProgram.ofScopes(streamContext, context, fields);
        Scope[] order = {Scope.EVENT_FIELDS, Scope.EVENT_CONTEXT, Scope.STREAM_EVENT_CONTEXT, Scope.EVENT_HEADER,
                Scope.PACKET_CONTEXT, Scope.PACKET_HEADER};
        for (Scope s : order) {
            for (CtfFieldRef r : compiled.fields(s).values()) {
                byPath.putIfAbsent(r.path(), r);
                byPath.putIfAbsent(display(r.path()), r);
                if (s == Scope.EVENT_FIELDS && !r.path().contains(".") && !r.path().contains("[")) {
                    payload.add(r);
                }
            }
        }
    }

    /**
     * From now on, reads only the context and payload fields whose slots are in {@code wanted}
     * (plus what decoding itself needs: {@link PrunedDecoders}); the other fields' values are stale.
     * The program is rebuilt from the pruned trees.
     */
    void readOnly(BitSet wanted) {
        BitSet w = (BitSet) wanted.clone();
        w.or(PrunedDecoders.referencedSlots(context, fields));
        context = PrunedDecoders.prune(context, w);
        fields = PrunedDecoders.prune(fields, w);
        program = DecodeProgram.ofScopes(streamContext, context, fields);
    }

    private static String display(String path) {
        StringBuilder sb = new StringBuilder();
        for (String part : path.split("\\.")) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(CtfType.displayName(part));
        }
        return sb.toString();
    }

    public String name() {
        return meta.name();
    }

    public long id() {
        return meta.id();
    }

    public EventClass metadata() {
        return meta;
    }

    /** The field at that path, or null. */
    public CtfFieldRef field(String path) {
        return byPath.get(path);
    }

    /** Top-level payload fields, in declaration order. */
    public List<CtfFieldRef> payloadFields() {
        return List.copyOf(payload);
    }

    /** Display name of a field (babeltrace2 style: one leading underscore removed per component). */
    public static String displayPath(CtfFieldRef ref) {
        return display(ref.path());
    }
}
