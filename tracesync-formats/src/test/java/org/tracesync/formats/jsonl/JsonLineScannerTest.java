package org.tracesync.formats.jsonl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tracesync.formats.TraceFormatException;

/**
 * The scanner against Jackson: every line it accepts, the parser accepts with the same time,
 * direction and message id; lines of the common shape are accepted (else it would save nothing).
 */
class JsonLineScannerTest {

    private static final Path FILE = Path.of("scan.jsonl");

    /** Values a generated field may take: the plain ones the scanner reads, and many it must leave to Jackson. */
    private static final String[] STRINGS = {"\"a\"", "\"b\"", "\"\"", "\"x y\"", "\"req-42\"", "\"é\"", "\"a\\\"b\"",
        "\"tab\there\"", "\"\\u0061\"", "\"~\u007f\"", "\"unterminated"};
    private static final String[] NUMBERS = {"0", "7", "-3", "-0", "00", "01", "1.5", "1e9", "1E9", "-", "12a",
        "1700000000123456789", "9223372036854775807", "9223372036854775808", "99999999999999999999",
        "123456789012345678", "-9223372036854775808"};
    private static final String[] FIELDS = {"tracesync", "level", "x", "t", "to"};
    private static final String[] OTHERS = {"null", "true", "false", "nul", "truex", "[1,2]", "{\"y\":1}", "{}"};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void acceptedLinesReadAsJacksonReadsThem(long seed) throws TraceFormatException {
        Random r = new Random(seed);
        int accepted = 0;
        int parsed = 0;
        for (int k = 0; k < 4000; k++) {
            String line = line(r);
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            int before = r.nextInt(4);
            byte[] buffer = new byte[before + bytes.length + r.nextInt(4)];
            java.util.Arrays.fill(buffer, (byte) '}');
            System.arraycopy(bytes, 0, buffer, before, bytes.length);
            // every other line: no node expected yet (a rewrite's first event), and a field asked about
            boolean anyNode = k % 2 == 1;
            String field = FIELDS[r.nextInt(FIELDS.length)];
            JsonLineScanner scanner = new JsonLineScanner(field.getBytes(StandardCharsets.UTF_8));
            if (!anyNode) {
                scanner.expect("a".getBytes(StandardCharsets.UTF_8));
            }
            boolean scanned = scanner.scan(buffer, before, before + bytes.length);
            JsonLinesReader.PlacedEvent event = null;
            try {
                event = JsonLinesReader.parsePlaced(FILE, line, 1, anyNode ? null : "a", field);
                parsed++;
            } catch (TraceFormatException e) {
                if (scanned) {
                    fail("scanned a line Jackson rejects: " + line + " (" + e.getMessage() + ")");
                }
            }
            if (scanned) {
                accepted++;
                JsonLinesReader.LineEvent read = JsonLinesReader.parseLine(FILE, line, 1, anyNode ? null : "a");
                assertThat(scanner.t).as(line).isEqualTo(read.t());
                assertThat(scanner.send).as(line).isEqualTo(read.send());
                String msg = new String(buffer, scanner.msgFrom, scanner.msgTo - scanner.msgFrom, StandardCharsets.UTF_8);
                assertThat(msg).as(line).isEqualTo(read.msg());
                String node = new String(buffer, scanner.nodeFrom, scanner.nodeTo - scanner.nodeFrom, StandardCharsets.UTF_8);
                assertThat(node).as(line).isEqualTo(event.node());
                // a scanned line is ASCII: its byte offsets are the parser's char offsets
                assertThat(scanner.tFrom - before).as(line).isEqualTo(event.tStart());
                assertThat(scanner.tTo - before).as(line).isEqualTo(event.tEnd());
                assertThat(scanner.close - before).as(line).isEqualTo(event.close());
                assertThat(scanner.hasField).as(line).isEqualTo(event.hasField());
            }
        }
        // the generator makes both kinds often; most lines Jackson reads are of the common shape
        assertThat(accepted).isGreaterThan(250);
        assertThat(parsed).isGreaterThan(accepted);
    }

    @Test
    void theCommonShapesAreScanned() {
        JsonLineScanner scanner = new JsonLineScanner(null);
        scanner.expect("h1".getBytes(StandardCharsets.UTF_8));
        for (String line : List.of(
                "{\"node\":\"h1\",\"t\":1700000000000694788,\"dir\":\"send\",\"msg\":\"m1\",\"to\":\"h3\"}",
                "{\"node\":\"h1\",\"t\":1700000000000983072,\"dir\":\"recv\",\"msg\":\"m2\",\"from\":\"h2\"}",
                " { \"msg\" : 42 , \"dir\" : \"recv\" ,\t\"t\" : 0 , \"node\" : \"h1\" , \"level\" : \"info\" , \"n\" : -1 , \"ok\" : true , \"to\" : null } ",
                "{\"t\":9223372036854775807,\"node\":\"h1\",\"dir\":\"send\",\"msg\":\"x\"}")) {
            byte[] b = line.getBytes(StandardCharsets.US_ASCII);
            assertThat(scanner.scan(b, 0, b.length)).as(line).isTrue();
        }
        byte[] other = "{\"node\":\"h2\",\"t\":1,\"dir\":\"send\",\"msg\":\"x\"}".getBytes(StandardCharsets.US_ASCII);
        assertThat(scanner.scan(other, 0, other.length)).as("another node: the parser says so").isFalse();
    }

    /** A flat or not-so-flat object of shuffled fields, each chosen to be plain most of the time. */
    private static String line(Random r) {
        List<String> fields = new ArrayList<>();
        if (r.nextInt(20) != 0) {
            fields.add(field(r, "node", r.nextInt(6) != 0 ? "\"a\"" : pick(r, STRINGS, NUMBERS, OTHERS)));
        }
        if (r.nextInt(20) != 0) {
            fields.add(field(r, "t", r.nextInt(3) != 0 ? Long.toString(r.nextLong() >>> 1 >>> r.nextInt(63))
                    : pick(r, NUMBERS, STRINGS, OTHERS)));
        }
        if (r.nextInt(20) != 0) {
            fields.add(field(r, "dir", r.nextInt(5) != 0 ? (r.nextBoolean() ? "\"send\"" : "\"recv\"")
                    : pick(r, new String[] {"\"sent\"", "\"SEND\"", "\"recv \"", "\"se\\u006ed\""}, STRINGS, OTHERS)));
        }
        if (r.nextInt(20) != 0) {
            fields.add(field(r, "msg", r.nextInt(4) != 0 ? "\"m" + r.nextInt(1000) + "\"" : pick(r, STRINGS, NUMBERS, OTHERS)));
        }
        for (String optional : new String[] {"to", "from", "level", "x", "tt", "nodes"}) {
            if (r.nextInt(4) == 0) {
                fields.add(field(r, optional, r.nextBoolean() ? "\"v\"" : pick(r, STRINGS, NUMBERS, OTHERS)));
            }
        }
        if (r.nextInt(10) == 0 && !fields.isEmpty()) {
            fields.add(fields.get(r.nextInt(fields.size()))); // a duplicate
        }
        Collections.shuffle(fields, r);
        StringBuilder b = new StringBuilder();
        b.append(space(r)).append('{').append(space(r));
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                b.append(space(r)).append(r.nextInt(100) == 0 ? ";" : ",").append(space(r));
            }
            b.append(fields.get(i));
        }
        b.append(space(r)).append('}').append(space(r));
        if (r.nextInt(40) == 0) {
            b.append(pick(r, new String[] {"x", "{}", "\u0000", "//"}));
        }
        if (r.nextInt(40) == 0) {
            b.setLength(r.nextInt(b.length() + 1));
        }
        return b.toString();
    }

    private static String field(Random r, String name, String value) {
        String quoted = r.nextInt(30) == 0 ? "\"" + name + "\\u0020\"" : "\"" + name + "\"";
        return quoted + space(r) + ":" + space(r) + value;
    }

    private static String space(Random r) {
        return switch (r.nextInt(12)) {
            case 0 -> " ";
            case 1 -> "\t";
            case 2 -> "  \t ";
            case 3 -> r.nextInt(4) == 0 ? "\u000b" : "";
            default -> "";
        };
    }

    @SafeVarargs
    private static String pick(Random r, String[]... sets) {
        String[] set = sets[r.nextInt(sets.length)];
        return set[r.nextInt(set.length)];
    }
}
