package org.tracesync.core.matching;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * KeyWindow against a plain map and queue: same ids, same "inserted" answers, same lookups, while
 * the window grows, shrinks (every removal shifting its probe run back), doubles its probe table
 * and grows its ring of chunks (reusing the chunks the head has left, doubling the table of chunks
 * while some are live).
 */
class KeyWindowTest {

    private record Key(long a, long b, long c) {
    }

    /** Keys of a few connections with sequence numbers advancing: the shape of real keys. */
    private static Key key(SplittableRandom r) {
        int conn = r.nextInt(40);
        return new Key(0x0001_0002_0000_0000L | conn, (long) r.nextInt(6000) << 32 | 77, 0x10L << 32 | r.nextInt(3));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void behavesAsAMapWithFifoRemoval(long seed) {
        check(seed, 0);
    }

    /** Slots hold the low 32 bits of an id: ids crossing 2^32 must still resolve. */
    @ParameterizedTest
    @ValueSource(longs = {5, 6})
    void idsCrossingTwoToThe32(long seed) {
        check(seed, (1L << 32) - 50_000);
    }

    /**
     * Hashes shared by many keys (256 values for thousands of keys): long probe runs, and tags
     * that match another key's, so {@link KeyWindow#findOrInsert}'s linear probe compares the
     * whole key behind each equal tag and finds and inserts as the map says.
     */
    @ParameterizedTest
    @ValueSource(longs = {7, 8})
    void sharedHashesAndLongProbeRuns(long seed) {
        check(seed, (1L << 32) - 30_000, true);
    }

    private static void check(long seed, long firstId) {
        check(seed, firstId, false);
    }

    /** With {@code shared}, 256 hash values for all keys. */
    private static int hash(Key k, boolean shared) {
        if (!shared) {
            return KeyWindow.tableHash(k.a(), k.b(), k.c());
        }
        return 0x8000_0000 | (int) ((k.hashCode() & 0xff) * 0x9E3779B1L);
    }

    private static void check(long seed, long firstId, boolean shared) {
        SplittableRandom r = new SplittableRandom(seed);
        KeyWindow w = new KeyWindow(firstId);
        Map<Key, Long> ids = new HashMap<>();
        ArrayDeque<Key> order = new ArrayDeque<>();
        long next = firstId;
        int target = 100;
        for (int op = 0; op < 400_000; op++) {
            if (op % 20_000 == 0) {
                target = List.of(0, 50, 3_000, 20_000).get(r.nextInt(4)); // grow and shrink the window
            }
            if (!order.isEmpty() && (order.size() > target || r.nextInt(4) == 0)) {
                Key k = order.poll();
                assertThat(w.head).isEqualTo(ids.remove(k));
                w.removeHead();
                assertThat(w.find(k.a(), k.b(), k.c(), hash(k, shared))).isEqualTo(-1);
                continue;
            }
            Key k = key(r);
            if (r.nextInt(5) == 0) {
                assertThat(w.find(k.a(), k.b(), k.c(), hash(k, shared))).isEqualTo(ids.getOrDefault(k, -1L));
                continue;
            }
            long id = shared ? w.findOrInsert(k.a(), k.b(), k.c(), hash(k, true), op)
                    : w.findOrInsert(k.a(), k.b(), k.c(), op);
            Long known = ids.get(k);
            if (known == null) {
                assertThat(w.inserted).isTrue();
                assertThat(id).isEqualTo(next++);
                ids.put(k, id);
                order.add(k);
                assertThat(w.chunk(id)[KeyWindow.at(id) + KeyWindow.INSERTED]).isEqualTo(op);
            } else {
                assertThat(w.inserted).isFalse();
                assertThat(id).isEqualTo(known);
            }
            long[] ring = w.chunk(id);
            int e = KeyWindow.at(id);
            assertThat(new Key(ring[e], ring[e + 1], ring[e + 2])).isEqualTo(k);
            assertThat(w.size()).isEqualTo(order.size());
            assertThat(w.found).isSameAs(w.chunk(id));
        }
        assertThat(next - firstId).isGreaterThan(100_000); // many inserts, removals and growths
        // the ring's memory follows the largest window (at most 20,001 keys), not the keys inserted:
        // chunks the head left were taken again
        assertThat(w.allocatedChunks).isBetween(1, 20_001 / 4096 + 2);
    }

    /**
     * The probe table's cheap hash spreads keys shaped like a capture's segments (a few
     * connections, sequence or acknowledgement numbers advancing by a segment's length) as well as
     * the full hash: the mean distance of a key from its home slot, table at 0.43 load, is within
     * a tenth of the full hash's, which is that of random placement.
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void tableHashSpreadsSegmentKeysAsWellAsTheFullHash(int shape) {
        int n = 110_000;
        SplittableRandom r = new SplittableRandom(shape);
        long[] seq = new long[6];
        long[] ack = new long[6];
        for (int i = 0; i < 6; i++) {
            seq[i] = r.nextLong(1L << 32);
            ack[i] = r.nextLong(1L << 32);
        }
        long[][] keys = new long[n][];
        for (int i = 0; i < n; i++) {
            int conn = r.nextInt(shape == 2 ? 2 : 6);
            int a = conn % 3 + 1;
            int b = (conn / 3 + a) % 3 + 1;
            long ka = TcpMatcher.connection(a, b, 40000 + 10 * a + b, 5000 + 10 * b + a);
            boolean data = shape == 0 || shape == 2 && i % 2 == 0;
            if (data) {
                seq[conn] = (seq[conn] + 1448) & 0xffffffffL;
            } else {
                ack[conn] = (ack[conn] + 1448) & 0xffffffffL;
            }
            keys[i] = new long[] {ka, TcpMatcher.sequences(seq[conn], ack[conn]),
                TcpMatcher.flagsAndLength(data ? 0x18 : 0x10, data ? 1448 : 0)};
        }
        double full = meanDisplacement(keys, false);
        double cheap = meanDisplacement(keys, true);
        assertThat(full).isBetween(0.2, 0.5); // random placement at this load: about 0.33
        assertThat(cheap).isLessThan(full * 1.1);
    }

    /** Mean distance from home of the keys put into a linear-probing table of 2^18 slots. */
    private static double meanDisplacement(long[][] keys, boolean cheap) {
        int mask = (1 << 18) - 1;
        boolean[] used = new boolean[mask + 1];
        long sum = 0;
        for (long[] k : keys) {
            int h = cheap ? KeyWindow.tableHash(k[0], k[1], k[2]) : KeyWindow.hash(k[0], k[1], k[2]);
            int j = h & mask;
            while (used[j]) {
                j = (j + 1) & mask;
                sum++;
            }
            used[j] = true;
        }
        return (double) sum / keys.length;
    }
}
