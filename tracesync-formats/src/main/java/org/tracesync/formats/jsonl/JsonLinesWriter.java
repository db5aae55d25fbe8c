package org.tracesync.formats.jsonl;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.io.Closeable;
import java.io.IOException;
import java.io.Writer;
import org.tracesync.core.model.Direction;

/**
 * Writes a JSON-lines event log that {@link JsonLinesReader} reads back: one line per event,
 * {@code {"node":"a","t":1700000000123456789,"dir":"send","msg":"req-42","to":"b"}}, timestamps as
 * exact integers. O(1) per event; the caller owns buffering (pass a {@link java.io.BufferedWriter}).
 */
public final class JsonLinesWriter implements Closeable {

    private final Writer out;
    private final String nodeField;

    /** Events of node {@code node} go to {@code out}. */
    public JsonLinesWriter(Writer out, String node) {
        this.out = out;
        this.nodeField = "{\"node\":\"" + quote(node) + "\",\"t\":";
    }

    /**
     * One event.
     *
     * @param peer the receiver of a send ("to") or the sender of a receive ("from"); null to omit
     */
    public void write(Direction direction, long t, String msg, String peer) throws IOException {
        out.write(nodeField);
        out.write(Long.toString(t));
        out.write(direction == Direction.SEND ? ",\"dir\":\"send\",\"msg\":\"" : ",\"dir\":\"recv\",\"msg\":\"");
        out.write(quote(msg));
        out.write('"');
        if (peer != null) {
            out.write(direction == Direction.SEND ? ",\"to\":\"" : ",\"from\":\"");
            out.write(quote(peer));
            out.write('"');
        }
        out.write("}\n");
    }

    private static String quote(String s) {
        return new String(JsonStringEncoder.getInstance().quoteAsString(s));
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
