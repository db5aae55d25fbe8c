package org.tracesync.formats.jsonl;

/**
 * The common shape of an event line read straight from its bytes, without a JSON parser: one flat
 * object of plain ASCII strings (no escape, no control character), integers, {@code true},
 * {@code false} and {@code null}, separated by spaces or tabs, with {@code node}, {@code t},
 * {@code dir} and {@code msg} present, valid and on the expected node. {@link #scan} accepts such a
 * line and says nothing about any other: the caller then parses it with Jackson
 * ({@link JsonLinesReader}), which reads every valid line and names what is wrong with an invalid
 * one. So a line the scanner accepts is one Jackson accepts with the same node, time, direction
 * and message id ({@code JsonLineScannerTest} checks it on seeded random lines); the scanner only
 * saves the parser's work on the lines that make up nearly every real log.
 */
final class JsonLineScanner {

    /** Lines longer than this go to the parser (which applies Jackson's length limits). */
    static final int MAX_LINE = 1 << 16;
    /** Other fields a line may have and still be scanned (duplicates are checked among them). */
    private static final int MAX_OTHER_FIELDS = 8;

    private static final int NODE = 1;
    private static final int T = 2;
    private static final int DIR = 4;
    private static final int MSG = 8;
    private static final int TO = 16;
    private static final int FROM = 32;
    private static final int REQUIRED = NODE | T | DIR | MSG;

    private final byte[] field;
    private final int[] otherNames = new int[2 * MAX_OTHER_FIELDS];
    private byte[] expectedNode;

    /** The last accepted line's time (ns). */
    long t;
    /** The last accepted line's direction. */
    boolean send;
    /** The last accepted line's message id: its bytes (a string's content, or an integer's digits). */
    int msgFrom;
    int msgTo;
    /** The last accepted line's node name: its bytes. */
    int nodeFrom;
    int nodeTo;
    /** Where the last accepted line's {@code t} digits are, and its object's closing brace. */
    int tFrom;
    int tTo;
    int close;
    /** True when the last accepted line has a top-level field named {@code field}. */
    boolean hasField;

    /**
     * A scanner of lines on any node until {@link #expect} names one.
     *
     * @param field the UTF-8 bytes of a field name whose presence {@link #hasField} reports, or null
     */
    JsonLineScanner(byte[] field) {
        this.field = field;
    }

    /** From now on, a line must name the node whose UTF-8 bytes are {@code node}. */
    void expect(byte[] node) {
        this.expectedNode = node;
    }

    /** True when {@code b[from, to)} is a line of the common shape; its fields are then set. */
    boolean scan(byte[] b, int from, int to) {
        if (to - from > MAX_LINE) {
            return false;
        }
        int i = skipSpace(b, from, to);
        if (i >= to || b[i] != '{') {
            return false;
        }
        i = skipSpace(b, i + 1, to);
        int seen = 0;
        int others = 0;
        hasField = false;
        while (true) {
            if (i >= to || b[i] != '"') {
                return false;
            }
            int nameFrom = i + 1;
            int nameTo = stringEnd(b, nameFrom, to);
            if (nameTo < 0) {
                return false;
            }
            i = skipSpace(b, nameTo + 1, to);
            if (i >= to || b[i] != ':') {
                return false;
            }
            i = skipSpace(b, i + 1, to);
            if (i >= to) {
                return false;
            }
            if (field != null && sameBytes(b, nameFrom, nameTo, field)) {
                hasField = true;
            }
            int kind = field(b, nameFrom, nameTo);
            if (kind != 0) {
                if ((seen & kind) != 0) {
                    return false;
                }
                seen |= kind;
            } else {
                if (others == MAX_OTHER_FIELDS || seenBefore(b, nameFrom, nameTo, others)) {
                    return false;
                }
                otherNames[2 * others] = nameFrom;
                otherNames[2 * others + 1] = nameTo;
                others++;
            }
            byte c = b[i];
            int end;
            switch (kind) {
                case NODE -> {
                    if (c != '"' || (end = stringEnd(b, i + 1, to)) <= i + 1) {
                        return false;
                    }
                    nodeFrom = i + 1;
                    nodeTo = end;
                    i = end + 1;
                }
                case T -> {
                    if ((end = time(b, i, to)) < 0) {
                        return false;
                    }
                    tFrom = i;
                    tTo = end;
                    i = end;
                }
                case DIR -> {
                    if (c != '"' || (end = stringEnd(b, i + 1, to)) != i + 5) {
                        return false;
                    }
                    if (b[i + 1] == 's' && b[i + 2] == 'e' && b[i + 3] == 'n' && b[i + 4] == 'd') {
                        send = true;
                    } else if (b[i + 1] == 'r' && b[i + 2] == 'e' && b[i + 3] == 'c' && b[i + 4] == 'v') {
                        send = false;
                    } else {
                        return false;
                    }
                    i = end + 1;
                }
                case MSG -> {
                    if (c == '"') {
                        if ((end = stringEnd(b, i + 1, to)) <= i + 1) {
                            return false;
                        }
                        msgFrom = i + 1;
                        msgTo = end;
                        i = end + 1;
                    } else {
                        if ((end = integerEnd(b, i, to)) < 0) {
                            return false;
                        }
                        msgFrom = i;
                        msgTo = end;
                        i = end;
                    }
                }
                case TO, FROM -> {
                    if ((end = c == '"' ? stringEnd(b, i + 1, to) + 1 : literalEnd(b, i, to, NULL)) <= 0) {
                        return false;
                    }
                    i = end;
                }
                default -> {
                    if (c == '"') {
                        end = stringEnd(b, i + 1, to) + 1;
                    } else if (c == 't') {
                        end = literalEnd(b, i, to, TRUE);
                    } else if (c == 'f') {
                        end = literalEnd(b, i, to, FALSE);
                    } else if (c == 'n') {
                        end = literalEnd(b, i, to, NULL);
                    } else {
                        end = integerEnd(b, i, to);
                    }
                    if (end <= 0) {
                        return false;
                    }
                    i = end;
                }
            }
            i = skipSpace(b, i, to);
            if (i >= to) {
                return false;
            }
            if (b[i] == ',') {
                i = skipSpace(b, i + 1, to);
            } else if (b[i] == '}') {
                close = i;
                break;
            } else {
                return false;
            }
        }
        return skipSpace(b, i + 1, to) == to && (seen & REQUIRED) == REQUIRED
                && (expectedNode == null || sameBytes(b, nodeFrom, nodeTo, expectedNode));
    }

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private static int skipSpace(byte[] b, int i, int to) {
        while (i < to && (b[i] == ' ' || b[i] == '\t')) {
            i++;
        }
        return i;
    }

    /**
     * The closing quote of a string whose content starts at {@code i}, or -1 when the string ends
     * the line or holds an escape, a control character or a non-ASCII byte (negative as a byte).
     */
    private static int stringEnd(byte[] b, int i, int to) {
        for (; i < to; i++) {
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            if (c < 0x20 || c == '\\') {
                return -1;
            }
        }
        return -1;
    }

    /** The end of an unsigned integer's digits at {@code i} (no leading zero, at most 19 digits), or -1. */
    private static int digitsEnd(byte[] b, int i, int to) {
        int j = i;
        while (j < to && b[j] >= '0' && b[j] <= '9') {
            j++;
        }
        int n = j - i;
        if (n == 0 || n > 19 || (n > 1 && b[i] == '0')) {
            return -1;
        }
        return j;
    }

    /** The end of an integer, {@code -}? then digits, at {@code i}, or -1. */
    private static int integerEnd(byte[] b, int i, int to) {
        int j = i < to && b[i] == '-' ? i + 1 : i;
        return digitsEnd(b, j, to);
    }

    private static int literalEnd(byte[] b, int i, int to, byte[] word) {
        if (to - i < word.length) {
            return -1;
        }
        for (int k = 0; k < word.length; k++) {
            if (b[i + k] != word[k]) {
                return -1;
            }
        }
        return i + word.length;
    }

    /**
     * Sets {@link #t} from the unsigned integer at {@code i} and returns its end, or -1 when there
     * is none, it has a leading zero or it exceeds int64. Nineteen digits are below 2^64, so their
     * value wraps to a negative long exactly when it exceeds {@link Long#MAX_VALUE}.
     */
    private int time(byte[] b, int i, int to) {
        long v = 0;
        int j = i;
        for (; j < to; j++) {
            int d = b[j] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            v = v * 10 + d;
        }
        int n = j - i;
        if (n == 0 || n > 19 || (n > 1 && b[i] == '0') || v < 0) {
            return -1;
        }
        t = v;
        return j;
    }

    private static int field(byte[] b, int from, int to) {
        int n = to - from;
        if (n == 1) {
            return b[from] == 't' ? T : 0;
        }
        if (n == 2) {
            return b[from] == 't' && b[from + 1] == 'o' ? TO : 0;
        }
        if (n == 3) {
            if (b[from] == 'd' && b[from + 1] == 'i' && b[from + 2] == 'r') {
                return DIR;
            }
            return b[from] == 'm' && b[from + 1] == 's' && b[from + 2] == 'g' ? MSG : 0;
        }
        if (n == 4) {
            if (b[from] == 'n' && b[from + 1] == 'o' && b[from + 2] == 'd' && b[from + 3] == 'e') {
                return NODE;
            }
            return b[from] == 'f' && b[from + 1] == 'r' && b[from + 2] == 'o' && b[from + 3] == 'm' ? FROM : 0;
        }
        return 0;
    }

    private boolean seenBefore(byte[] b, int from, int to, int others) {
        for (int k = 0; k < others; k++) {
            int f = otherNames[2 * k];
            int e = otherNames[2 * k + 1];
            if (e - f == to - from && java.util.Arrays.equals(b, f, e, b, from, to)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameBytes(byte[] b, int from, int to, byte[] other) {
        return to - from == other.length && java.util.Arrays.equals(b, from, to, other, 0, other.length);
    }
}
