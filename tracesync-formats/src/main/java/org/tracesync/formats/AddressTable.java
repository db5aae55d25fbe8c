package org.tracesync.formats;

import java.util.Arrays;

/**
 * Small map from a 128-bit address (hi, lo; IPv4 as ::ffff:a.b.c.d) to a dense id and an owner
 * node: the addresses of the traced hosts (owner = node index), plus the other addresses a kernel
 * trace names ({@link #intern}, owner -1). One table serves every trace of a matching pass, so an
 * address has one id whatever the trace format. Open addressing, O(1) expected lookup, no
 * allocation per lookup. Ids fit the matcher's 16 bits: at most {@value #MAX_IDS} addresses.
 */
public final class AddressTable {

    /** Ids are 16-bit in the matcher's keys. */
    public static final int MAX_IDS = 1 << 16;
    private long[] hi = new long[64];
    private long[] lo = new long[64];
    private int[] id = new int[64];
    private int[] owner = new int[64];
    private int size;
    private int[] ownerById = new int[16];
    private long[] hiById = new long[16];
    private long[] loById = new long[16];

    public int size() {
        return size;
    }

    private static int hash(long h, long l) {
        long x = (h * 0x9E3779B97F4A7C15L) ^ (l * 0xC2B2AE3D27D4EB4FL);
        return (int) (x ^ (x >>> 31));
    }

    /** Adds an address owned by {@code node}; returns false if it was already present. */
    public boolean add(long h, long l, int node) {
        if (find(h, l) >= 0) {
            return false;
        }
        if ((size + 1) * 2 > hi.length) {
            long[] oh = hi;
            long[] ol = lo;
            int[] oi = id;
            int[] oo = owner;
            hi = new long[oh.length * 2];
            lo = new long[oh.length * 2];
            id = new int[oh.length * 2];
            owner = new int[oh.length * 2];
            Arrays.fill(id, -1);
            for (int i = 0; i < oh.length; i++) {
                if (oi[i] >= 0) {
                    put(oh[i], ol[i], oi[i], oo[i]);
                }
            }
        }
        if (size == ownerById.length) {
            ownerById = Arrays.copyOf(ownerById, size * 2);
            hiById = Arrays.copyOf(hiById, size * 2);
            loById = Arrays.copyOf(loById, size * 2);
        }
        ownerById[size] = node;
        hiById[size] = h;
        loById[size] = l;
        put(h, l, size++, node);
        return true;
    }

    private void put(long h, long l, int ident, int node) {
        int mask = hi.length - 1;
        int i = hash(h, l) & mask;
        while (id[i] >= 0) {
            i = (i + 1) & mask;
        }
        hi[i] = h;
        lo[i] = l;
        id[i] = ident;
        owner[i] = node;
    }

    {
        Arrays.fill(id, -1);
    }

    private int slot(long h, long l) {
        int mask = hi.length - 1;
        int i = hash(h, l) & mask;
        while (true) {
            if (id[i] < 0) {
                return -1;
            }
            if (hi[i] == h && lo[i] == l) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /** The address's id, or -1. */
    public int find(long h, long l) {
        int s = slot(h, l);
        return s < 0 ? -1 : id[s];
    }

    /**
     * The address's id, adding it (owner -1) when absent; -1 when the table already holds
     * {@value #MAX_IDS} addresses.
     */
    public int intern(long h, long l) {
        int id = find(h, l);
        if (id >= 0 || size >= MAX_IDS) {
            return id;
        }
        add(h, l, -1);
        return size - 1;
    }

    /**
     * Adds a textual address ("10.0.0.1", "fe80::1") owned by {@code node}; returns false when it is
     * not a numeric IP address (host names are not resolved) or was already present.
     */
    public boolean add(String text, int node) {
        String t = text.trim();
        if (!(t.contains(":") || t.matches("\\d{1,3}(\\.\\d{1,3}){3}"))) {
            return false;
        }
        byte[] b;
        try {
            b = java.net.InetAddress.getByName(t).getAddress();
        } catch (java.net.UnknownHostException e) {
            return false;
        }
        long h = 0;
        long l = 0;
        if (b.length == 4) {
            l = 0xffff_0000_0000L | (b[0] & 0xffL) << 24 | (b[1] & 0xffL) << 16 | (b[2] & 0xffL) << 8 | (b[3] & 0xffL);
        } else {
            for (int i = 0; i < 8; i++) {
                h = h << 8 | (b[i] & 0xffL);
                l = l << 8 | (b[i + 8] & 0xffL);
            }
        }
        return add(h, l, node);
    }

    /** The address's id from its bytes (4 for IPv4, 16 for IPv6), interned; -1 when full or malformed. */
    public int intern(byte[] address) {
        if (address == null) {
            return -1;
        }
        if (address.length == 4) {
            long v4 = (address[0] & 0xffL) << 24 | (address[1] & 0xffL) << 16 | (address[2] & 0xffL) << 8
                    | (address[3] & 0xffL);
            return intern(0, 0xffff_0000_0000L | v4);
        }
        if (address.length == 16) {
            long h = 0;
            long l = 0;
            for (int i = 0; i < 8; i++) {
                h = h << 8 | (address[i] & 0xffL);
                l = l << 8 | (address[i + 8] & 0xffL);
            }
            return intern(h, l);
        }
        return -1;
    }

    /** The node owning address {@code id} (from {@link #find}). */
    public int ownerOf(int id) {
        return ownerById[id];
    }

    /** The high 64 bits of address {@code id} (0 for IPv4). */
    public long hiOf(int id) {
        return hiById[id];
    }

    /** The low 64 bits of address {@code id} (IPv4 as ::ffff:a.b.c.d). */
    public long loOf(int id) {
        return loById[id];
    }

    /** The node owning the address, or -1. */
    public int owner(long h, long l) {
        int s = slot(h, l);
        return s < 0 ? -1 : owner[s];
    }
}
