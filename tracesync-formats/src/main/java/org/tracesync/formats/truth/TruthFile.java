package org.tracesync.formats.truth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tracesync.core.simulate.ClockEvent;
import org.tracesync.core.simulate.ClockModel;
import org.tracesync.formats.TraceFormatException;

/**
 * The true clocks of a simulated or rewritten trace set, in the form of
 * ../shared/data/pcap/three-hosts/truth.json:
 * <pre>{"T0": 1795276271412493002, "nodes": [{"name": "h1", "alpha": 0, "beta": 0.0, "delta": 0.0}, …], "messages": 8501}</pre>
 * meaning {@code local(t) = t + alpha + beta·(t − T0) + delta·(t − T0)²} for true time t (ns).
 * {@code T0} and {@code alpha} are integers (read exactly as longs), {@code beta} and {@code delta}
 * doubles (written in the shortest form that reads back to the same double, as Python does).
 *
 * <p>Wandering clocks (DESIGN §6) add, per node, an optional {@code "events"} array of rate changes
 * {@code {"at": t, "rate": r}} (r added to the rate from true time t on) and steps
 * {@code {"at": t, "step": s}} (s ns added from t on):
 * {@code local(t) = t + alpha + beta·(t − T0) + delta·(t − T0)² + Σ rate·(t − at)⁺ + Σ step·[t ≥ at]}.
 * Files without events are written exactly as before.
 *
 * @param t0       origin of the drift terms (ns, true time)
 * @param clocks   one clock per node, in node order (each with {@code t0} as its origin)
 * @param messages number of messages in the trace set
 */
public record TruthFile(long t0, List<ClockModel> clocks, long messages) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public TruthFile {
        clocks = List.copyOf(clocks);
        for (ClockModel c : clocks) {
            if (c.t0() != t0) {
                throw new IllegalArgumentException("clock " + c.name() + " has origin " + c.t0() + ", not T0 " + t0);
            }
        }
    }

    /** The clock of node {@code name}. */
    public ClockModel clock(String name) {
        for (ClockModel c : clocks) {
            if (c.name().equals(name)) {
                return c;
            }
        }
        throw new IllegalArgumentException("truth has no node named '" + name + "'");
    }

    public boolean hasNode(String name) {
        return clocks.stream().anyMatch(c -> c.name().equals(name));
    }

    /** Writes the file in the exact layout of the shared truth files (one-space indents). */
    public void write(Writer out) throws IOException {
        out.write("{\n \"T0\": " + t0 + ",\n \"nodes\": [\n");
        for (int i = 0; i < clocks.size(); i++) {
            ClockModel c = clocks.get(i);
            out.write("  {\n   \"name\": " + MAPPER.writeValueAsString(c.name()) + ",\n");
            out.write("   \"alpha\": " + c.alpha() + ",\n");
            out.write("   \"beta\": " + pythonRepr(c.beta()) + ",\n");
            out.write("   \"delta\": " + pythonRepr(c.delta()));
            if (!c.events().isEmpty()) {
                out.write(",\n   \"events\": [");
                for (int k = 0; k < c.events().size(); k++) {
                    ClockEvent e = c.events().get(k);
                    out.write((k == 0 ? "\n    " : ",\n    ") + "{\"at\": " + e.at()
                            + (e.isStep() ? ", \"step\": " + e.step() : ", \"rate\": " + pythonRepr(e.rate())) + "}");
                }
                out.write("\n   ]");
            }
            out.write("\n  }");
            out.write(i + 1 < clocks.size() ? ",\n" : "\n");
        }
        out.write(" ],\n \"messages\": " + messages + "\n}");
    }

    public void write(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(w);
        }
    }

    /** Reads a truth file; every problem is a {@link TraceFormatException} naming the field. */
    public static TruthFile read(Path file) throws IOException {
        JsonNode root;
        try {
            root = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            long line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw TraceFormatException.atLine(file, line, "not valid JSON (" + TraceFormatException.plainJson(e.getOriginalMessage()) + ")");
        }
        if (root == null || !root.isObject()) {
            throw new TraceFormatException(file, null, "expected a JSON object with T0, nodes, messages");
        }
        long t0 = integer(file, root, "T0");
        JsonNode nodes = root.get("nodes");
        if (nodes == null || !nodes.isArray()) {
            throw new TraceFormatException(file, "nodes", "expected an array of {name, alpha, beta, delta}");
        }
        List<ClockModel> clocks = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode n = nodes.get(i);
            String where = "nodes[" + i + "]";
            if (!n.isObject() || n.get("name") == null || !n.get("name").isTextual()) {
                throw new TraceFormatException(file, where, "expected an object with a string \"name\"");
            }
            try {
                clocks.add(new ClockModel(n.get("name").asText(), t0, integer(file, n, "alpha"),
                        number(file, n, "beta"), n.has("delta") ? number(file, n, "delta") : 0.0,
                        events(file, n.get("events"), where)));
            } catch (IllegalArgumentException e) {
                throw new TraceFormatException(file, where, e.getMessage());
            }
        }
        long messages = root.has("messages") ? integer(file, root, "messages") : -1;
        return new TruthFile(t0, clocks, messages);
    }

    private static List<ClockEvent> events(Path file, JsonNode array, String where) throws TraceFormatException {
        List<ClockEvent> events = new ArrayList<>();
        if (array == null) {
            return events;
        }
        if (!array.isArray()) {
            throw new TraceFormatException(file, where + ".events", "expected an array of {at, rate} or {at, step}");
        }
        for (int k = 0; k < array.size(); k++) {
            JsonNode e = array.get(k);
            String at = where + ".events[" + k + "]";
            if (!e.isObject() || e.has("rate") == e.has("step")) {
                throw new TraceFormatException(file, at, "expected {\"at\": t, \"rate\": r} or {\"at\": t, \"step\": ns}");
            }
            long t = integer(file, e, "at");
            events.add(e.has("step") ? ClockEvent.step(t, integer(file, e, "step"))
                    : ClockEvent.rateChange(t, number(file, e, "rate")));
        }
        return events;
    }

    private static long integer(Path file, JsonNode parent, String field) throws TraceFormatException {
        JsonNode v = parent.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new TraceFormatException(file, field, "expected an int64 integer");
        }
        return v.longValue();
    }

    private static double number(Path file, JsonNode parent, String field) throws TraceFormatException {
        JsonNode v = parent.get(field);
        if (v == null || !v.isNumber()) {
            throw new TraceFormatException(file, field, "expected a number");
        }
        return v.doubleValue();
    }

    /**
     * {@code x} as Python's {@code repr} writes it: the digits of Java's round-tripping
     * {@link Double#toString}, fixed notation for exponents in [−4, 16), else {@code 1.5e-05}.
     */
    static String pythonRepr(double x) {
        if (x == 0.0) {
            return (1 / x < 0) ? "-0.0" : "0.0";
        }
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("not a finite number: " + x);
        }
        BigDecimal bd = new BigDecimal(Double.toString(x)).stripTrailingZeros();
        String digits = bd.unscaledValue().abs().toString();
        int exp = digits.length() - 1 - bd.scale();
        String sign = x < 0 ? "-" : "";
        if (exp >= -4 && exp < 16) {
            String plain = bd.abs().toPlainString();
            return sign + (plain.contains(".") ? plain : plain + ".0");
        }
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String e = Integer.toString(Math.abs(exp));
        return sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
    }
}
