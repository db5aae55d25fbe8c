package org.tracesync.formats.ctf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses babeltrace2's {@code sink.text.pretty} lines printed with {@code clock-seconds} and
 * {@code no-delta}: {@code [s.nnnnnnnnn] host name: { ctx }, ..., { payload }}.
 */
record BabeltraceText(long timestamp, String name, List<Map<String, String>> groups) {

    static BabeltraceText parse(String line, String host) {
        int close = line.indexOf(']');
        String ts = line.substring(1, close);
        int dot = ts.indexOf('.');
        long t = Long.parseLong(ts.substring(0, dot)) * 1_000_000_000L + Long.parseLong(ts.substring(dot + 1));
        String rest = line.substring(close + 2);
        if (host != null && rest.startsWith(host + " ")) {
            rest = rest.substring(host.length() + 1);
        }
        int colon = rest.indexOf(": ");
        String name;
        String body;
        if (colon < 0) {
            name = rest.endsWith(":") ? rest.substring(0, rest.length() - 1) : rest;
            body = "";
        } else {
            name = rest.substring(0, colon);
            body = rest.substring(colon + 2);
        }
        List<Map<String, String>> groups = new ArrayList<>();
        for (String g : split(body, ',')) {
            g = g.trim();
            if (g.startsWith("{") && g.endsWith("}")) {
                Map<String, String> m = new LinkedHashMap<>();
                for (String kv : split(g.substring(1, g.length() - 1), ',')) {
                    kv = kv.trim();
                    int eq = kv.indexOf(" = ");
                    if (eq > 0) {
                        m.put(kv.substring(0, eq), kv.substring(eq + 3));
                    }
                }
                groups.add(m);
            }
        }
        return new BabeltraceText(t, name, groups);
    }

    /** Splits at {@code sep} outside brackets, braces, parentheses and quotes. */
    static List<String> split(String s, char sep) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        boolean quote = false;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quote = false;
                }
            } else if (c == '"') {
                quote = true;
            } else if (c == '{' || c == '[' || c == '(') {
                depth++;
            } else if (c == '}' || c == ']' || c == ')') {
                depth--;
            } else if (c == sep && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (start < s.length()) {
            out.add(s.substring(start));
        }
        return out;
    }
}
