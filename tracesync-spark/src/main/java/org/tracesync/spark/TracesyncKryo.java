package org.tracesync.spark;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.apache.spark.serializer.KryoRegistrator;

/**
 * Kryo registrations of the rows the job shuffles: {@link SegmentEvent} as variable-length fields
 * (the times as a signed delta would need state; plain varlongs keep it stateless).
 */
public final class TracesyncKryo implements KryoRegistrator {

    @Override
    public void registerClasses(Kryo kryo) {
        kryo.register(SegmentEvent.class, new Serializer<SegmentEvent>() {
            @Override
            public void write(Kryo k, Output out, SegmentEvent e) {
                out.writeLong(e.a);
                out.writeVarLong(e.b, true);
                out.writeVarLong(e.c, true);
                out.writeLong(e.time);
                out.writeVarLong(e.order - e.time, true); // >= 0, small unless timestamps jump back
                out.writeVarLong(e.offset, true);
                out.writeVarInt(e.node << 2 | (e.datagram ? 2 : 0) | (e.send ? 1 : 0), true);
            }

            @Override
            public SegmentEvent read(Kryo k, Input in, Class<SegmentEvent> type) {
                SegmentEvent e = new SegmentEvent();
                e.a = in.readLong();
                e.b = in.readVarLong(true);
                e.c = in.readVarLong(true);
                e.time = in.readLong();
                e.order = e.time + in.readVarLong(true);
                e.offset = in.readVarLong(true);
                int f = in.readVarInt(true);
                e.node = f >>> 2;
                e.datagram = (f & 2) != 0;
                e.send = (f & 1) != 0;
                return e;
            }
        });
        // records: Kryo 4's field serializer cannot build them; they are few (one per task)
        kryo.register(PartSpec.class, new com.esotericsoftware.kryo.serializers.JavaSerializer());
        kryo.register(PartReport.class, new com.esotericsoftware.kryo.serializers.JavaSerializer());
        kryo.register(MatchStats.class, new com.esotericsoftware.kryo.serializers.JavaSerializer());
        kryo.register(TraceSpec.class, new com.esotericsoftware.kryo.serializers.JavaSerializer());
        kryo.register(TraceReport.class, new com.esotericsoftware.kryo.serializers.JavaSerializer());
        kryo.register(LineWalk.class, new com.esotericsoftware.kryo.serializers.JavaSerializer());
        kryo.register(PairPart.class);
        kryo.register(org.tracesync.core.accumulate.PairAccumulator.class);
        kryo.register(org.tracesync.core.accumulate.HalfHull.class);
        kryo.register(org.tracesync.core.accumulate.HalfHull.Side.class);
        kryo.register(long[].class);
    }
}
