package org.tracesync.formats.spans;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The hosts (clocks) found in span files, in order of first appearance, with the attribute that
 * named each one and the services seen on it. O(1) per lookup; memory grows with hosts and
 * services, never with spans.
 */
public final class SpanHosts {

    /** One host: its name, the attribute that named it ({@code host.id}, {@code ipv4}, ...), its services. */
    public record Host(String name, String namedBy, List<String> services, long spans) {
    }

    /** The coarsest resolution inferred from timestamps (ns). */
    public static final long MAX_RESOLUTION = 1_000_000;

    private final Map<String, Integer> index = new HashMap<>();
    private final List<String> names = new ArrayList<>();
    private final List<String> namedBy = new ArrayList<>();
    private final List<TreeSet<String>> services = new ArrayList<>();
    private long[] spans = new long[16];
    private long[] resolution = new long[16];
    private final Map<String, Long> fallbacks = new LinkedHashMap<>();

    /** The index of host {@code name} (added when new), recording who named it and the service. */
    public int host(String name, String attribute, String service) {
        Integer i = index.get(name);
        if (i == null) {
            i = names.size();
            index.put(name, i);
            names.add(name);
            namedBy.add(attribute);
            services.add(new TreeSet<>());
            if (i == spans.length) {
                spans = java.util.Arrays.copyOf(spans, 2 * i);
                resolution = java.util.Arrays.copyOf(resolution, 2 * i);
            }
            resolution[i] = MAX_RESOLUTION;
        }
        if (service != null && services.get(i).size() < 64) {
            services.get(i).add(service);
        }
        return i;
    }

    /** Counts a span of {@code host} and narrows the host's observed resolution by its times. */
    void countSpan(int host, long start, long end) {
        spans[host]++;
        long r = resolution[host];
        while (r > 1 && ((start != SpanRecord.MISSING && start % r != 0) || (end != SpanRecord.MISSING && end % r != 0))) {
            r /= 10;
        }
        resolution[host] = r;
    }

    /**
     * The largest power of ten (up to 1 ms) dividing every timestamp of {@code host} seen so far: the
     * resolution its tracer really recorded (OTLP from a µs clock carries ns fields ending in 000).
     */
    public long observedResolution(int host) {
        return resolution[host];
    }

    /** Adds a named host (counting a fallback from a missing requested key). */
    static int add(SpanHosts hosts, HostNaming.Named named, String service) {
        if (named.fallback()) {
            hosts.fallback(named.by());
        }
        return hosts.host(named.name(), named.by(), service);
    }

    /** Notes that a span lacked the requested node key and was named by {@code attribute} instead. */
    void fallback(String attribute) {
        fallbacks.merge(attribute, 1L, Long::sum);
    }

    public int size() {
        return names.size();
    }

    public String name(int i) {
        return names.get(i);
    }

    public List<String> names() {
        return List.copyOf(names);
    }

    public int indexOf(String name) {
        Integer i = index.get(name);
        return i == null ? -1 : i;
    }

    public List<Host> hosts() {
        List<Host> list = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            list.add(new Host(names.get(i), namedBy.get(i), List.copyOf(services.get(i)), spans[i]));
        }
        return list;
    }

    /** Spans that lacked the requested {@code --node-key}, by the attribute that named them instead. */
    public Map<String, Long> fallbacks() {
        return Map.copyOf(fallbacks);
    }
}
