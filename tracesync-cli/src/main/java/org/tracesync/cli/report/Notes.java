package org.tracesync.cli.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sorts what the readers, the matcher and the reduction say into what needs the user's attention
 * (warnings) and what only describes the run (statistics): matching counts (messages, ambiguous
 * keys dropped, exchanges, broadcasts) and benign reading notes. LTTng per-CPU packets that overlap
 * their predecessor by a few µs ("timestamp goes backwards: packet begins …") are normal and become
 * one line per trace; everything not recognised stays a warning. Shared by {@code sync}'s summary
 * and the HTML report, so both say the same. Cost: linear in the number of notes.
 */
public record Notes(List<String> statistics, List<String> warnings) {

    /** "NODE: FILE:offset N: timestamp goes backwards: packet begins at T ns, D ns before the previous packet's end". */
    private static final Pattern PACKET_OVERLAP = Pattern.compile(
            "^(?:(.+?): )?(.+?):offset \\d+: timestamp goes backwards: packet begins at -?\\d+ ns, (\\d+) ns before the"
                    + " previous packet's end$");

    public Notes {
        statistics = List.copyOf(statistics);
        warnings = List.copyOf(warnings);
    }

    /** Classifies {@code notes} (duplicates removed, order kept). */
    public static Notes of(List<String> notes) {
        List<String> statistics = new ArrayList<>();
        List<String> warnings = new ArrayList<>();
        Map<String, long[]> overlaps = new LinkedHashMap<>(); // trace -> {count, max ns}
        for (String n : notes.stream().distinct().toList()) {
            Matcher m = PACKET_OVERLAP.matcher(n);
            if (m.matches()) {
                String trace = m.group(1) != null ? m.group(1) : m.group(2);
                long[] c = overlaps.computeIfAbsent(trace, k -> new long[2]);
                c[0]++;
                c[1] = Math.max(c[1], Long.parseLong(m.group(3)));
            } else if (isStatistic(n)) {
                statistics.add(n);
            } else {
                warnings.add(n);
            }
        }
        overlaps.forEach((trace, c) -> statistics.add(String.format(Locale.ROOT,
                "%s: %d %s before the previous one ends (by at most %d ns): LTTng's per-CPU packets overlap"
                        + " slightly; every event is read", trace, c[0], c[0] == 1 ? "packet begins" : "packets begin",
                c[1])));
        return new Notes(statistics, warnings);
    }

    private static boolean isStatistic(String n) {
        return n.startsWith("TCP matching: ") || n.startsWith("broadcast: ")
                || n.matches("\\d+ keys sent or received more than once .*were dropped")
                || n.matches("\\d+ messages between a node and itself were discarded");
    }
}
