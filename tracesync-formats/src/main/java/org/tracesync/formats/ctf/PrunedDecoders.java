package org.tracesync.formats.ctf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * Rebuilds an event class's decoder trees for a reader that needs only some of its fields (the
 * matching pipeline reads a dozen fields of a network event, none of a {@code sched_switch}): in
 * every structure, each run of consecutive fixed-size fields whose offsets are known from the
 * run's start becomes one {@link FieldDecoder.FixedRunDecoder} that reads only the wanted ones and
 * steps over the rest by arithmetic. Variant tags, sequence lengths and fields with a role are
 * always read. Strings, variants and sequences keep their own decoders (their size depends on the
 * data); their insides are pruned in turn.
 *
 * <p>Exactness: wanted fields get the values, and the stream position after every structure is
 * the one, that decoding field by field gives (a run that does not fit before the content's end
 * falls back to field-by-field decoding, so errors are the same too); fields not wanted keep
 * whatever their slots held. Cost: linear in the size of the trees, once per event class.
 */
final class PrunedDecoders {

    private PrunedDecoders() {
    }

    /** Slots that decoding itself reads back: variant tags and sequence lengths in these trees. */
    static BitSet referencedSlots(FieldDecoder... trees) {
        BitSet s = new BitSet();
        for (FieldDecoder t : trees) {
            collect(t, s);
        }
        return s;
    }

    private static void collect(FieldDecoder d, BitSet s) {
        if (d instanceof FieldDecoder.StructDecoder st) {
            for (FieldDecoder f : st.fields) {
                collect(f, s);
            }
        } else if (d instanceof FieldDecoder.VariantDecoder v) {
            s.set(v.tagSlot);
            for (FieldDecoder o : v.options) {
                collect(o, s);
            }
        } else if (d instanceof FieldDecoder.ArrayDecoder a) {
            if (a.lengthSlot >= 0) {
                s.set(a.lengthSlot);
            }
            collect(a.element, s);
        } else if (d instanceof FieldDecoder.FixedRunDecoder r) {
            for (FieldDecoder f : r.fields) {
                collect(f, s);
            }
        }
    }

    /** {@code d} rebuilt to read the slots in {@code wanted}, every slot when null (null tree: null). */
    static FieldDecoder prune(FieldDecoder d, BitSet wanted) {
        if (d instanceof FieldDecoder.StructDecoder st) {
            FieldDecoder[] fs = new FieldDecoder[st.fields.length];
            for (int i = 0; i < fs.length; i++) {
                fs[i] = prune(st.fields[i], wanted);
            }
            return withRuns(st.align, fs, wanted);
        }
        if (d instanceof FieldDecoder.VariantDecoder v) {
            FieldDecoder[] opts = new FieldDecoder[v.options.length];
            for (int i = 0; i < opts.length; i++) {
                opts[i] = prune(v.options[i], wanted);
            }
            return new FieldDecoder.VariantDecoder(v.slot, v.tagSlot, v.tagSigned, v.lows, v.highs, v.optionOfRange, opts,
                    v.path);
        }
        if (d instanceof FieldDecoder.ArrayDecoder a && a.stride == 0) {
            return new FieldDecoder.ArrayDecoder(a.slot, a.fixedLength, a.lengthSlot, a.align, a.stride,
                    prune(a.element, wanted), a.path);
        }
        return d;
    }

    /**
     * A structure's decoder with its runs of fixed-size fields made {@link FieldDecoder.FixedRunDecoder}s;
     * the run itself when it is the whole structure. A structure's first run starts at the
     * structure's alignment (its decoder aligns there first), a later run at its first field's.
     */
    private static FieldDecoder withRuns(int structAlign, FieldDecoder[] fs, BitSet wanted) {
        List<FieldDecoder> out = new ArrayList<>();
        int i = 0;
        while (i < fs.length) {
            if (!FieldDecoder.FixedRunDecoder.fixed(fs[i])) {
                out.add(fs[i++]);
                continue;
            }
            int first = FieldDecoder.FixedRunDecoder.alignment(fs[i]);
            int a = i == 0 && structAlign % first == 0 ? Math.max(structAlign, 1) : first;
            int j = i;
            while (j < fs.length && FieldDecoder.FixedRunDecoder.fixed(fs[j])
                    && a % FieldDecoder.FixedRunDecoder.alignment(fs[j]) == 0) {
                j++;
            }
            FieldDecoder[] run = Arrays.copyOfRange(fs, i, j);
            boolean[] want = new boolean[run.length];
            for (int k = 0; k < run.length; k++) {
                // an array's slots: its position, then its length (either wanted: both are set)
                want[k] = wanted == null || wanted.get(slotOf(run[k]))
                        || (run[k] instanceof FieldDecoder.ArrayDecoder && wanted.get(slotOf(run[k]) + 1));
            }
            out.add(new FieldDecoder.FixedRunDecoder(a, run, want));
            i = j;
        }
        if (out.size() == 1 && out.get(0) instanceof FieldDecoder.FixedRunDecoder r && r.align == structAlign
                && r.fields.length == fs.length) {
            return r;
        }
        return new FieldDecoder.StructDecoder(structAlign, out.toArray(new FieldDecoder[0]));
    }

    private static int slotOf(FieldDecoder f) {
        if (f instanceof FieldDecoder.IntegerDecoder d) {
            return d.slot;
        }
        if (f instanceof FieldDecoder.FloatDecoder d) {
            return d.slot;
        }
        return ((FieldDecoder.ArrayDecoder) f).slot;
    }
}
