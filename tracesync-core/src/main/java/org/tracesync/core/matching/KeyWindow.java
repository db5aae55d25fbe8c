package org.tracesync.core.matching;

/**
 * A hash table of three-long keys whose entries live in insertion (= time) order, for matchers
 * that evict by age.
 *
 * <p>Layout, chosen for memory traffic: entries sit in a ring of 64-byte records (eight longs: the
 * key, the insertion time, two payload times, one packed payload word, the key's hash), kept in
 * chunks of 4096 records that the tail takes again once the head has left them, indexed by a
 * monotonically increasing id — insertion and eviction walk the ring sequentially. An open-addressing, linear-probing table maps a key to its id; each slot packs a
 * 31-bit hash tag (bit 31 set, so a used slot is never 0) with the low 32 bits of the id (the full
 * id is recovered from the ring's head, as live ids span less than 2^31), so probing touches the
 * ring only on a tag match. Removal happens only at the head (the oldest entry): its slot is found
 * from the hash kept in its record and deleted by backward shift (the slots after it in its probe
 * run move back when their home allows), so the table holds live keys only and stays at most half
 * full: a lookup ends after about 1.5 slots on average, an insert after 2.5, instead of the ~8 of
 * a table let fill with stale slots up to three quarters. A caller that knows which keys are about
 * to be removed reads their {@link #home} slots first, so that those misses overlap.
 *
 * <p>Keys may also be {@link #append}ed to the ring alone, when the caller knows they are absent
 * and finds them again itself ({@link TcpMatcher}'s TCP keys, {@link ConnectionRings}): they take
 * no slot (their {@link #HASH} word is 0) and their removal touches none; the probe table then
 * holds, and grows with, only the keys inserted by {@link #findOrInsert}.
 *
 * <p>Costs: insert, find and head removal O(1) expected, about one cache miss each in the probe
 * table (the ring is walked in order); growth amortized O(1). Memory 64 bytes per live entry (in
 * 256 KB chunks) plus 16–32 bytes of probe table (the probe table doubles when needed; neither
 * shrinks); no object per entry.
 */
final class KeyWindow {

    static final int K0 = 0;
    static final int K1 = 1;
    static final int K2 = 2;
    static final int INSERTED = 3;
    static final int SEND_TIME = 4;
    static final int RECV_TIME = 5;
    /** Packed payload word, free for the user (zeroed on insert). */
    static final int META = 6;
    /** The key's {@link #tableHash}: finds its slot again at removal. */
    static final int HASH = 7;

    /** Entries per chunk of the ring: 4096 records of 64 bytes, 256 KB. */
    static final int CHUNK_BITS = 12;
    private static final int CHUNK_ENTRIES = 1 << CHUNK_BITS;

    /**
     * The ring, in chunks: entry id lives at {@code chunk(id)[at(id) .. at(id) + 7]}; the chunk of
     * ids {@code q << CHUNK_BITS ..} is {@code chunks[q & chunkMask]}. A chunk that the head has
     * left is taken again by the tail, so the ring holds at most one chunk more than the live
     * entries need, once the window has reached its size no memory is allocated, and growing
     * allocates only the new chunks (a flat ring that doubles allocated,
     * zeroed and copied twice its final size; its growth was about 7 % of the matching half on
     * the benchmark capture set in a profile, docs/PERFORMANCE.md, seventh session).
     */
    private long[][] chunks;
    private int chunkMask;
    long head;
    long tail;
    /** The first id of the chunk after the tail's: an insert there makes sure that chunk is there. */
    private long nextChunkAt;
    /** {@code chunk(tail)} once an insert has made it (inserts write there without looking it up). */
    private long[] tailChunk;
    /** {@code chunk(head)} whenever the window is not empty (the head is read for every event and key). */
    long[] headChunk;
    /** The chunk of the entry the last {@link #findOrInsert} returned. */
    long[] found;

    private long[] slots;
    private int slotMask;

    KeyWindow() {
        this(0);
    }

    /** Ids start at {@code firstId}: lets tests cross the 2^32 boundary of the slots' id bits. */
    KeyWindow(long firstId) {
        head = firstId;
        tail = firstId;
        chunks = new long[4][];
        chunkMask = chunks.length - 1;
        nextChunkAt = firstId; // the first insert makes the first chunk
        slots = new long[1 << 11];
        slotMask = slots.length - 1;
        growAt = slots.length / 2;
    }

    int size() {
        return (int) (tail - head);
    }

    boolean isEmpty() {
        return tail == head;
    }

    /** The chunk that holds entry {@code id}. */
    long[] chunk(long id) {
        return chunks[(int) (id >>> CHUNK_BITS) & chunkMask];
    }

    /** Index in {@link #chunk}{@code (id)} of entry {@code id}'s first long. */
    static int at(long id) {
        return ((int) id & (CHUNK_ENTRIES - 1)) << 3;
    }

    /**
     * Mixes all 192 key bits into the 31 tag bits. Keys of one connection differ by small steps in
     * the high half of a word (sequence numbers): the rotations carry those bits down before each
     * multiplication, and MurmurHash3's finalizer spreads them over the low bits used as index
     * (a plain multiply-xor left arithmetic progressions, hence long probe runs).
     */
    static int hash(long a, long b, long c) {
        long h = c * 0x9E3779B97F4A7C15L;
        h = (Long.rotateLeft(h, 31) ^ b) * 0xC2B2AE3D27D4EB4FL;
        h = (Long.rotateLeft(h, 29) ^ a) * 0x165667B19E3779F9L;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h | 0x8000_0000;
    }

    /**
     * The probe table's hash of a key: its slot ({@code & mask}) and its 32-bit tag (bit 31 set).
     * Cheaper than {@link #hash} (two multiplications instead of five), which stays the hash that
     * samples keys ({@link CoarseClockOffsets}) and places exchanges: which slot a key takes
     * changes no result, only how far its probe runs. The sequence and acknowledgement numbers
     * (the key bits that change from segment to segment of a connection) are multiplied first and
     * the product's halves swapped, so that both reach every bit of the second product; the tag
     * is that product's high half with its top 21 bits (the best mixed) folded onto its low bits,
     * which index the table (the high half alone kept a sequence step's factors of two in them).
     */
    static int tableHash(long a, long b, long c) {
        long h = (b ^ Long.rotateLeft(c, 23)) * 0x9E3779B97F4A7C15L;
        h = (Long.rotateLeft(h, 32) ^ a) * 0xC2B2AE3D27D4EB4FL;
        return ((int) (h >>> 32) ^ (int) (h >>> 43)) | 0x8000_0000;
    }

    /** The id of a slot's entry, rebuilt from its low 32 bits (live ids lie within 2^31 of head). */
    private long idOf(long slot) {
        return head + (((int) slot - (int) head) & 0xffff_ffffL);
    }

    /** The id of the entry with this key, or -1. */
    long find(long a, long b, long c) {
        return find(a, b, c, tableHash(a, b, c));
    }

    /** {@link #find(long, long, long)} with the key's {@link #tableHash} already known. */
    long find(long a, long b, long c, int h) {
        int i = h & slotMask;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                return -1;
            }
            if ((int) (s >>> 32) == h) {
                long id = idOf(s);
                long[] ring = chunk(id);
                int e = at(id);
                if (ring[e] == a && ring[e + 1] == b && ring[e + 2] == c) {
                    return id;
                }
            }
            i = (i + 1) & slotMask;
        }
    }

    /**
     * The id of the entry with this key, inserting it (inserted time {@code time}, payload zeroed)
     * when absent; {@link #inserted} tells which happened. A new key takes the empty slot that
     * ends its probe run.
     */
    long findOrInsert(long a, long b, long c, long time) {
        return findOrInsert(a, b, c, tableHash(a, b, c), time);
    }

    /** The slot where the search for a key of hash {@code h} starts (read to bring it into cache). */
    long home(int h) {
        return slots[h & slotMask];
    }

    /** {@link #findOrInsert(long, long, long, long)} with the key's {@link #tableHash} already known. */
    long findOrInsert(long a, long b, long c, int h, long time) {
        if (inTable >= growAt) {
            growSlots();
        }
        if (tail >= nextChunkAt) {
            nextChunk();
        }
        long[] slots = this.slots;
        int mask = slotMask;
        int i = h & mask;
        while (true) {
            long s = slots[i];
            if (s == 0) {
                break;
            }
            if ((int) (s >>> 32) == h) {
                long id = idOf(s);
                long[] ring = chunk(id);
                int e = at(id);
                if (ring[e] == a && ring[e + 1] == b && ring[e + 2] == c) {
                    inserted = false;
                    found = ring;
                    return id;
                }
            }
            i = (i + 1) & mask;
        }
        long id = tail++;
        long[] ring = tailChunk;
        found = ring;
        int e = at(id);
        write(ring, e, a, b, c, time, h);
        slots[i] = (long) h << 32 | (id & 0xffff_ffffL);
        inTable++;
        inserted = true;
        return id;
    }

    /** A new entry's record at {@code ring[e ..]}: the key, its first-event time, the payload zeroed, its hash word. */
    private static void write(long[] ring, int e, long a, long b, long c, long time, long hashWord) {
        ring[e] = a;
        ring[e + 1] = b;
        ring[e + 2] = c;
        ring[e + INSERTED] = time;
        ring[e + SEND_TIME] = 0;
        ring[e + RECV_TIME] = 0;
        ring[e + META] = 0;
        ring[e + HASH] = hashWord;
    }

    /**
     * Appends a key that the caller knows is not in the window (payload zeroed, inserted time
     * {@code time}) to the ring only: no probe-table slot, its {@link #HASH} word 0 (a table hash
     * always has bit 31 set), so {@link #find} never finds it and {@link #removeHead} touches no
     * slot for it. The caller finds it again by its id ({@link TcpMatcher}'s connection rings).
     */
    long append(long a, long b, long c, long time) {
        if (tail >= nextChunkAt) {
            nextChunk();
        }
        long id = tail++;
        long[] ring = tailChunk;
        found = ring;
        int e = at(id);
        write(ring, e, a, b, c, time, 0);
        inserted = true;
        return id;
    }

    /** Keys in the probe table (inserted by {@link #findOrInsert}, not {@link #append}). */
    private long inTable;

    /** Whether the last {@link #findOrInsert} inserted. */
    boolean inserted;

    /**
     * Removes the oldest entry (its ring record stays readable until the next insert): its slot,
     * found from the hash in its record, is emptied and the rest of its probe run shifted back
     * over it (Knuth's deletion for linear probing: a slot moves back unless its home lies
     * cyclically after the hole), so no lookup ever passes a removed key.
     */
    void removeHead() {
        int h = (int) headChunk[at(head) + HASH];
        if (h != 0) {
            removeSlot(h);
        }
        head++;
        if (((int) head & (CHUNK_ENTRIES - 1)) == 0) {
            leaveChunk();
        }
    }

    /** Empties the head's slot (its hash {@code h}) by backward shift. */
    private void removeSlot(int h) {
        long want = (long) h << 32 | (head & 0xffff_ffffL);
        long[] slots = this.slots;
        int mask = slotMask;
        int i = h & mask;
        while (slots[i] != want) {
            i = (i + 1) & mask;
        }
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            long s = slots[j];
            if (s == 0) {
                break;
            }
            int home = (int) (s >>> 32) & mask;
            if (((j - home) & mask) >= ((j - i) & mask)) {
                slots[i] = s;
                i = j;
            }
        }
        slots[i] = 0;
        inTable--;
    }

    /** The hash of entry {@code id}'s key (to read its {@link #home} slot before removing it). */
    int hashOf(long id) {
        return (int) chunk(id)[at(id) + HASH];
    }

    /** Size at which {@link #growSlots} must run: the probe table half full. */
    private long growAt;

    /**
     * The tail enters a new chunk: it takes a chunk the head has left (or a new one when there is
     * none); when the chunk's place in {@link #chunks} still holds live entries, the table of
     * chunks doubles first (only references move, no entry).
     */
    private void nextChunk() {
        long q = tail >>> CHUNK_BITS;
        if (q - (head >>> CHUNK_BITS) > chunkMask) {
            long[][] old = chunks;
            int oldMask = chunkMask;
            chunks = new long[old.length * 2][];
            chunkMask = chunks.length - 1;
            for (long p = head >>> CHUNK_BITS; p < q; p++) {
                chunks[(int) p & chunkMask] = old[(int) p & oldMask];
            }
        }
        long[] chunk;
        if (freeChunks > 0) {
            chunk = free[--freeChunks];
        } else {
            chunk = new long[CHUNK_ENTRIES * 8];
            allocatedChunks++;
        }
        chunks[(int) q & chunkMask] = chunk;
        tailChunk = chunk;
        if (head >>> CHUNK_BITS == q) {
            headChunk = chunk;
        }
        nextChunkAt = (q + 1) << CHUNK_BITS;
    }

    /** Chunks allocated so far (the ring's memory: 256 KB each). */
    int allocatedChunks;

    /** Chunks the head has left, for the tail to take again. */
    private long[][] free = new long[4][];
    private int freeChunks;

    /** The head has just left a chunk: it goes to the free chunks, and the head reads the next one. */
    private void leaveChunk() {
        int place = (int) ((head - 1) >>> CHUNK_BITS) & chunkMask;
        if (freeChunks == free.length) {
            free = java.util.Arrays.copyOf(free, free.length * 2);
        }
        free[freeChunks++] = chunks[place];
        chunks[place] = null;
        headChunk = chunk(head); // null when the window is now empty: nextChunk sets it then
    }

    /** Doubles the probe table (live keys would fill more than half of it) and re-places every slot. */
    private void growSlots() {
        long[] old = slots;
        slots = new long[old.length * 2];
        slotMask = slots.length - 1;
        for (long s : old) {
            if (s != 0) {
                int i = (int) (s >>> 32) & slotMask;
                while (slots[i] != 0) {
                    i = (i + 1) & slotMask;
                }
                slots[i] = s;
            }
        }
        growAt = slots.length / 2;
    }
}
