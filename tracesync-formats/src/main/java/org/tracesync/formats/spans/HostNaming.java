package org.tracesync.formats.spans;

import java.util.Map;

/**
 * Which attribute names a span's host (its clock), per format: the one rule the readers and the
 * rewriter share. Kubernetes: {@code host.name} is the pod, so {@code k8s.node.name} comes before it.
 */
final class HostNaming {

    /** A host name and the attribute it came from; {@code fallback} when a requested key was missing. */
    record Named(String name, String by, boolean fallback) {
    }

    private static final String[] OTLP_CHAIN = {"host.id", "k8s.node.name", "host.name", "service.name"};
    private static final String[] JAEGER_CHAIN = {"hostname", "ip"};

    private HostNaming() {
    }

    /** OTLP: resource attributes. */
    static Named otlp(Map<String, String> attributes, String key) {
        if (key != null) {
            String v = attributes.get(key);
            if (v != null && !v.isEmpty()) {
                return new Named(v, key, false);
            }
        }
        for (String k : OTLP_CHAIN) {
            String v = attributes.get(k);
            if (v != null && !v.isEmpty()) {
                return new Named(v, k, key != null);
            }
        }
        return new Named("unknown", "(no host attribute)", key != null);
    }

    /** Jaeger: a process's service name and tags. */
    static Named jaeger(String service, Map<String, String> tags, String key) {
        if (key != null) {
            String v = key.equals("serviceName") ? service : tags.get(key);
            if (v != null && !v.isEmpty()) {
                return new Named(v, key, false);
            }
        }
        for (String k : JAEGER_CHAIN) {
            String v = tags.get(k);
            if (v != null && !v.isEmpty()) {
                return new Named(v, k, key != null);
            }
        }
        return new Named(service == null || service.isEmpty() ? "unknown" : service, "serviceName", key != null);
    }

    /** Zipkin: a span's {@code localEndpoint}. */
    static Named zipkin(String ipv4, String ipv6, String service, String key) {
        if (key != null) {
            String v = switch (key) {
                case "ipv4" -> ipv4;
                case "ipv6" -> ipv6;
                case "serviceName" -> service;
                default -> null;
            };
            if (v != null && !v.isEmpty()) {
                return new Named(v, key, false);
            }
        }
        if (ipv4 != null && !ipv4.isEmpty()) {
            return new Named(ipv4, "ipv4", key != null);
        }
        if (ipv6 != null && !ipv6.isEmpty()) {
            return new Named(ipv6, "ipv6", key != null);
        }
        return new Named(service == null || service.isEmpty() ? "unknown" : service, "serviceName", key != null);
    }
}
