package org.tracesync.formats.pcap;

/** The LINKTYPE_ values the packet decoder understands (tcpdump.org/linktypes.html). */
public final class LinkTypes {
    public static final int NULL = 0;
    public static final int ETHERNET = 1;
    public static final int RAW_OLD = 12;
    public static final int RAW = 101;
    public static final int LINUX_SLL = 113;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    public static final int LINUX_SLL2 = 276;

    private LinkTypes() {
    }

    /** A name for people: "Ethernet", "Linux cooked (SLL2)", …, or "unsupported". */
    public static String describe(int linkType) {
        return switch (linkType) {
            case NULL -> "BSD loopback";
            case ETHERNET -> "Ethernet";
            case RAW_OLD, RAW -> "raw IP";
            case LINUX_SLL -> "Linux cooked (SLL)";
            case IPV4 -> "raw IPv4";
            case IPV6 -> "raw IPv6";
            case LINUX_SLL2 -> "Linux cooked (SLL2)";
            default -> "unsupported";
        };
    }

    public static boolean supported(int linkType) {
        return switch (linkType) {
            case NULL, ETHERNET, RAW_OLD, RAW, LINUX_SLL, IPV4, IPV6, LINUX_SLL2 -> true;
            default -> false;
        };
    }
}
