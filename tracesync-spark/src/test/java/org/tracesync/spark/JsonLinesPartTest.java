package org.tracesync.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link JsonLinesPart} against {@code BufferedReader.readLine} (the one-machine reader's cut): a
 * file of seeded random lines ended by "\n", "\r" or "\r\n" (multi-byte UTF-8 included), cut into
 * two parts at every byte offset and into seeded random parts, reads every line exactly once, in
 * order, with the right start offsets.
 */
class JsonLinesPartTest {

    @TempDir
    Path tmp;

    private static final String[] ENDS = {"\n", "\r", "\r\n"};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void everyCutReadsEveryLineOnce(long seed) throws IOException {
        Random rnd = new Random(seed);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            int n = rnd.nextInt(6);
            for (int k = 0; k < n; k++) {
                text.append("aé{\" 1€".charAt(rnd.nextInt(7)));
            }
            if (i < 39 || rnd.nextBoolean()) {
                text.append(ENDS[rnd.nextInt(3)]);
            }
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        Path file = tmp.resolve("f" + seed + ".jsonl");
        Files.write(file, bytes);
        List<String> expected = new BufferedReader(new StringReader(text.toString())).lines().toList();
        for (int cut = 0; cut <= bytes.length + 1; cut++) {
            assertThat(read(file, List.of(0L, (long) cut))).as("cut at %d", cut).isEqualTo(expected);
        }
        for (int trial = 0; trial < 50; trial++) {
            List<Long> cuts = new ArrayList<>(List.of(0L));
            int parts = 2 + rnd.nextInt(10);
            for (int k = 1; k < parts; k++) {
                cuts.add((long) rnd.nextInt(bytes.length + 2));
            }
            cuts.sort(null);
            assertThat(read(file, cuts)).as("cuts %s", cuts).isEqualTo(expected);
        }
    }

    /** The lines of every part [cuts[k], cuts[k+1]) (the last to the end), in order. */
    private static List<String> read(Path file, List<Long> cuts) throws IOException {
        List<String> lines = new ArrayList<>();
        byte[] bytes = Files.readAllBytes(file);
        for (int k = 0; k < cuts.size(); k++) {
            long end = k + 1 < cuts.size() ? cuts.get(k + 1) : Long.MAX_VALUE;
            try (JsonLinesPart p = new JsonLinesPart(file.toString(), file, cuts.get(k), end, new Configuration(false))) {
                String line;
                while ((line = p.next()) != null) {
                    long at = p.lineStart();
                    assertThat(at).isBetween(cuts.get(k), end - 1);
                    assertThat(at == 0 || bytes[(int) at - 1] == '\n' || bytes[(int) at - 1] == '\r').isTrue();
                    lines.add(line);
                }
            }
        }
        return lines;
    }
}
