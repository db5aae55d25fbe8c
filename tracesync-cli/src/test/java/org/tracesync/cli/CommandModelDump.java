package org.tracesync.cli;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Every field of a picocli command model, one line each, so that two models built in different ways
 * (by reflection over the annotations, or by {@link PrebuiltCommandSpecs}) can be compared whole:
 * the command, its usage message, its parser settings, its mixins and every option and positional
 * parameter with all of their fields (raw, before interpolation). Left out are only the fields that
 * say how a value is reached, not what the command is: the getter and setter, the scope, the
 * annotated element and user object (a {@code java.lang.reflect.Field} on one side), and the
 * back references (command line, parent, the interpolator's command).
 */
final class CommandModelDump {

    private static final Set<String> SKIPPED = Set.of("getter", "setter", "scope", "annotatedElement", "userObject",
            "commandLine", "parent", "commandSpec", "interpolator", "mixinAnnotatedElements", "specElements",
            "parentCommandElements", "methodParams", "messages", "group", "root", "commands");

    private final List<String> lines = new ArrayList<>();
    private final IdentityHashMap<Object, String> seen = new IdentityHashMap<>();

    private CommandModelDump() { }

    /** The lines of {@code spec}'s model. */
    static List<String> of(CommandSpec spec) {
        CommandModelDump dump = new CommandModelDump();
        dump.object("command", spec);
        return dump.lines;
    }

    private void object(String path, Object o) {
        seen.put(o, path);
        for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) || SKIPPED.contains(f.getName()) || f.isSynthetic()) {
                    continue;
                }
                f.setAccessible(true);
                String name = path + "." + c.getSimpleName() + "." + f.getName();
                try {
                    Object v = f.get(o);
                    switch (f.getName()) {
                        // reflection reads a field's initial value when first asked, a prebuilt model is given it: compare the value
                        case "initialValue", "initialValueState", "hasInitialValue" -> { }
                        // picocli compares these with "_NULL_" only (an unset default or fallback is "__no_default_value__"
                        // from an annotation, "__unspecified__" from a builder, and means the same)
                        case "originalDefaultValue", "originalFallbackValue", "originalMapFallbackValue" ->
                                lines.add(name + " is _NULL_: " + "_NULL_".equals(v));
                        // read only for @Unmatched fields (which a prebuilt model refuses)
                        case "actualGenericTypeArguments" -> { }
                        // the capacity given to a positional's builder (reflection gives the one its annotation implies,
                        // a prebuilt model none, and picocli computes the same from arity and index): the capacity is compared
                        case "builderCapacity" -> { }
                        default -> value(name, v);
                    }
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        if (o instanceof ArgSpec arg) {
            lines.add(path + ".hasInitialValue() = " + arg.hasInitialValue());
            value(path + ".initialValue()", arg.initialValue());
        }
    }

    private void value(String path, Object v) {
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean || v instanceof Character
                || v instanceof Enum<?>) {
            lines.add(path + " = " + (v instanceof String ? "\"" + v + "\"" : v));
        } else if (v instanceof Class<?> c) {
            lines.add(path + " = class " + c.getName());
        } else if (v.getClass().isArray()) {
            lines.add(path + " = array of " + Array.getLength(v));
            for (int i = 0; i < Array.getLength(v); i++) {
                value(path + "[" + i + "]", Array.get(v, i));
            }
        } else if (seen.containsKey(v)) {
            lines.add(path + " = the same as " + seen.get(v));
        } else if (v instanceof Map<?, ?> m) {
            lines.add(path + " = map of " + m.size());
            for (Map.Entry<?, ?> e : m.entrySet()) {
                value(path + "[" + e.getKey() + "]", e.getValue());
            }
        } else if (v instanceof Collection<?> c) {
            lines.add(path + " = " + c.getClass().getSimpleName() + " of " + c.size());
            int i = 0;
            for (Object e : c) {
                value(path + "[" + i++ + "]", e);
            }
        } else if (isModel(v)) {
            lines.add(path + " = " + v.getClass().getSimpleName());
            object(path, v);
        } else {
            // converters, providers, transformers: what they are, not their state
            lines.add(path + " = instance of " + v.getClass().getName());
        }
    }

    /** picocli's own model objects (not the user's converters or providers): dumped field by field. */
    private static boolean isModel(Object v) {
        String name = v.getClass().getName();
        return name.startsWith(CommandLine.class.getName() + "$") && !(v instanceof CommandLine.ITypeConverter<?>)
                && !(v instanceof CommandLine.IVersionProvider) || v instanceof ArgSpec;
    }
}
