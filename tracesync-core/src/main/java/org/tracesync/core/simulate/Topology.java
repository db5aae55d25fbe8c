package org.tracesync.core.simulate;

import java.util.ArrayList;
import java.util.List;

/** Generators of link lists. */
public enum Topology {
    /** 0–1, 1–2, …, (n−2)–(n−1). */
    CHAIN,
    /** 0–i for every i ≥ 1. */
    STAR,
    /** every pair. */
    MESH;

    /** The links of this topology over {@code n} nodes, all with {@code latency}. */
    public List<Link> links(int n, LatencyModel latency) {
        List<Link> links = new ArrayList<>();
        switch (this) {
            case CHAIN -> {
                for (int i = 0; i + 1 < n; i++) {
                    links.add(new Link(i, i + 1, latency));
                }
            }
            case STAR -> {
                for (int i = 1; i < n; i++) {
                    links.add(new Link(0, i, latency));
                }
            }
            case MESH -> {
                for (int i = 0; i < n; i++) {
                    for (int j = i + 1; j < n; j++) {
                        links.add(new Link(i, j, latency));
                    }
                }
            }
        }
        return links;
    }
}
