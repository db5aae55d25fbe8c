package org.tracesync.formats.evaluate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.evaluate.TrueClock;
import org.tracesync.core.evaluate.TruthModel;
import org.tracesync.formats.TraceFormatException;

/**
 * The truth file of simulations and testbeds:
 * <pre>{"T0": 1795276271412493002, "nodes": [{"name": "h2", "alpha": 675342405,
 *   "beta": -2.93e-05, "delta": 0.0}, ...]}</pre>
 * meaning {@code local(t) = t + alpha + beta·(t − T0) + delta·(t − T0)²} (ns), t the true time.
 * T0 is read as an exact int64.
 */
public final class TruthFile {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TruthFile() {
    }

    public static TruthModel read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no such truth file");
        }
        JsonNode root;
        try {
            root = JSON.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new TraceFormatException(file, "line " + e.getLocation().getLineNr(), "not JSON: "
                    + e.getOriginalMessage());
        }
        JsonNode t0 = root == null ? null : root.get("T0");
        if (t0 == null || !t0.canConvertToExactIntegral() || !t0.canConvertToLong()) {
            throw new TraceFormatException(file, "", "expected an integer \"T0\" (ns)");
        }
        JsonNode nodes = root.get("nodes");
        if (nodes == null || !nodes.isArray()) {
            throw new TraceFormatException(file, "", "expected a \"nodes\" array");
        }
        List<TrueClock> clocks = new ArrayList<>();
        for (JsonNode n : nodes) {
            if (!n.hasNonNull("name")) {
                throw new TraceFormatException(file, "", "a node without \"name\"");
            }
            clocks.add(new TrueClock(n.get("name").asText(), n.path("alpha").asDouble(0),
                    n.path("beta").asDouble(0), n.path("delta").asDouble(0)));
        }
        return new TruthModel(t0.asLong(), clocks);
    }

    public static void write(Path file, TruthModel truth, long messages) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("T0", truth.t0());
        ArrayNode nodes = root.putArray("nodes");
        for (TrueClock c : truth.clocks()) {
            ObjectNode o = nodes.addObject();
            o.put("name", c.name());
            if (c.alpha() == Math.rint(c.alpha()) && Math.abs(c.alpha()) < 9e15) {
                o.put("alpha", (long) c.alpha());
            } else {
                o.put("alpha", c.alpha());
            }
            o.put("beta", c.beta());
            o.put("delta", c.delta());
        }
        if (messages >= 0) {
            root.put("messages", messages);
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), root);
    }
}
