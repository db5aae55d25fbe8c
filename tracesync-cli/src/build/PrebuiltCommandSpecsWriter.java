import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.tracesync.cli.SyncCommand;
import org.tracesync.cli.TracesyncCommand;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * A build step (run by tracesync-cli/pom.xml in the process-classes phase as
 * {@code java -cp CLASSES_AND_DEPENDENCIES PrebuiltCommandSpecsWriter.java --check FILE}, and by hand
 * with {@code --write FILE}): the source of {@code PrebuiltCommandSpecs}, the picocli models of
 * {@code tracesync} and {@code tracesync sync} as plain builder calls, read off the models picocli
 * builds by reflection over the annotations, which stay the one declaration of the options.
 * {@code --check} fails the build, saying how to rewrite FILE, when FILE is not what the annotations
 * give now: a changed option cannot reach a jar (even one built with -DskipTests) with a stale model.
 *
 * <p>Everything the generated code sets is read off the reflective model, raw (before picocli
 * interpolates variables into it); what it cannot write (argument groups, method commands, custom
 * completion candidates, parameter consumers, …) makes it fail. {@code PrebuiltCommandSpecsTest}
 * compares the two models field by field. Cost: building the two models once.
 */
public final class PrebuiltCommandSpecsWriter {

    /** Where the builder expression of an argument may break into a new line. */
    private static final String NEXT = "\u0001";

    private final StringBuilder out = new StringBuilder();
    /** Each option or positional parameter bound to one of our fields: its expression from the command object. */
    private final List<String> fieldPaths = new ArrayList<>();
    private final List<String> fieldTypes = new ArrayList<>();

    /**
     * The statements that leave a new command object as picocli's parse of a command line naming none
     * of its options leaves it: its mixins created, each option's default value set (SyncCommandLine).
     */
    private final List<String> defaults = new ArrayList<>();

    /** The name of the command's getter/setter class. */
    private String bindingClass;

    /** Methods the commands share, by name: their bodies. */
    private final Map<String, String> helpers;

    private PrebuiltCommandSpecsWriter(Map<String, String> helpers) {
        this.helpers = helpers;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !(args[0].equals("--check") || args[0].equals("--write"))) {
            System.err.println("usage: java -cp CLASSES PrebuiltCommandSpecsWriter.java --check|--write FILE");
            System.exit(2);
        }
        Path file = Path.of(args[1]);
        String source = source();
        if (args[0].equals("--write")) {
            Files.writeString(file, source);
            System.out.println("PrebuiltCommandSpecsWriter: wrote " + file);
        } else if (!Files.isRegularFile(file) || !Files.readString(file).equals(source)) {
            Path fresh = Path.of(System.getProperty("java.io.tmpdir"), "tracesync-PrebuiltCommandSpecs.java");
            Files.writeString(fresh, source);
            System.err.println("PrebuiltCommandSpecsWriter: " + file + " is not what the annotations of TracesyncCommand,"
                    + " SyncCommand and their mixins give now; rewrite it (cp " + fresh + " " + file.toAbsolutePath()
                    + ") and build again");
            System.exit(1);
        } else {
            System.out.println("PrebuiltCommandSpecsWriter: " + file + " is what the annotations give");
        }
    }

    /** The source of {@code PrebuiltCommandSpecs}. */
    static String source() {
        CommandLine whole = TracesyncCommand.newCommandLine();
        CommandSpec top = whole.getCommandSpec();
        CommandSpec sync = whole.getSubcommands().get("sync").getCommandSpec();
        StringBuilder s = new StringBuilder();
        s.append("""
                package org.tracesync.cli;

                import picocli.CommandLine.Model.CommandSpec;
                import picocli.CommandLine.Model.IGetter;
                import picocli.CommandLine.Model.ISetter;
                import picocli.CommandLine.Model.OptionSpec;
                import picocli.CommandLine.Model.PositionalParamSpec;
                import picocli.CommandLine.Range;

                /**
                 * The picocli models of {@code tracesync} and {@code tracesync sync}, built by plain calls
                 * instead of picocli's reflection over their annotations (which costs a 2-message {@code sync}
                 * most of its start: docs/PERFORMANCE.md, "Start").
                 *
                 * <p>GENERATED by {@code src/build/PrebuiltCommandSpecsWriter.java} from those annotations, which
                 * stay the one declaration of the options: do not edit. The build fails when this file is not
                 * what the annotations give (and says how to rewrite it); {@code PrebuiltCommandSpecsTest}
                 * compares both models field by field.
                 */
                @SuppressWarnings({"unchecked", "rawtypes"})
                final class PrebuiltCommandSpecs {

                    private PrebuiltCommandSpecs() { }
                """);
        Map<String, String> helpers = new java.util.LinkedHashMap<>();
        s.append(new PrebuiltCommandSpecsWriter(helpers).command("tracesync", TracesyncCommand.class, top));
        s.append(new PrebuiltCommandSpecsWriter(helpers).command("sync", SyncCommand.class, sync));
        helpers.forEach((name, body) -> s.append("\n    /** picocli's standard help options (its mixin's fields held by ObjectBindings). */\n")
                .append("    private static CommandSpec ").append(name).append("() {\n").append(body).append("    }\n"));
        s.append("}\n");
        return s.toString();
    }

    private String command(String method, Class<?> type, CommandSpec spec) {
        String cls = type.getSimpleName();
        bindingClass = cls.replace("Command", "") + "Fields";
        line(1, "");
        line(1, "/** The model of {@code " + spec.qualifiedName() + "} bound to {@code command}'s fields (and mixins, which it creates). */");
        line(1, "static CommandSpec " + method + "(" + cls + " command) {");
        line(2, "CommandSpec spec = CommandSpec.wrapWithoutInspection(command);");
        commandAttributes(spec, type);
        body(2, "spec", "command", spec);
        for (Field f : fields(type)) {
            if (f.isAnnotationPresent(CommandLine.Spec.class)) {
                line(2, "command." + f.getName() + " = spec;");
            }
        }
        line(2, "return spec;");
        line(1, "}");
        binding(cls);
        line(1, "");
        line(1, "/**");
        line(1, " * {@code command}'s mixins created and its options' default values set, converted as picocli converts them:");
        line(1, " * the command as picocli's parse of a command line that names none of its options leaves it.");
        line(1, " */");
        line(1, "static void " + method + "Defaults(" + cls + " command) {");
        for (String statement : defaults) {
            line(2, statement);
        }
        line(1, "}");
        return out.toString();
    }

    private void commandAttributes(CommandSpec spec, Class<?> type) {
        line(2, "spec.name(" + literal(spec.name()) + ");");
        Map<String, Boolean> unwritten = Map.ofEntries(Map.entry("aliases", spec.aliases().length > 0),
                Map.entry("version", raw(spec, "version") != null),
                Map.entry("defaultValueProvider", spec.defaultValueProvider() != null),
                Map.entry("exitCodeOnSuccess", raw(spec, "exitCodeOnSuccess") != null),
                Map.entry("exitCodeOnUsageHelp", raw(spec, "exitCodeOnUsageHelp") != null),
                Map.entry("exitCodeOnVersionHelp", raw(spec, "exitCodeOnVersionHelp") != null),
                Map.entry("exitCodeOnInvalidInput", raw(spec, "exitCodeOnInvalidInput") != null),
                Map.entry("exitCodeOnExecutionException", raw(spec, "exitCodeOnExecutionException") != null),
                Map.entry("helpCommand", raw(spec, "isHelpCommand") != null),
                Map.entry("addMethodSubcommands", raw(spec, "isAddMethodSubcommands") != null),
                Map.entry("interpolateVariables", raw(spec, "interpolateVariables") != null),
                Map.entry("subcommandsRepeatable", raw(spec, "subcommandsRepeatable") != null),
                Map.entry("modelTransformer", spec.modelTransformer() != null),
                Map.entry("argGroups", !spec.argGroups().isEmpty()),
                Map.entry("unmatched", !spec.unmatchedArgsBindings().isEmpty()));
        unwritten.forEach((attribute, set) -> {
            if (set) {
                throw new IllegalStateException(type + ": the writer does not know how to write its " + attribute);
            }
        });
        if (raw(spec, "scopeType") != null) {
            line(2, "spec.scopeType(picocli.CommandLine.ScopeType." + raw(spec, "scopeType") + ");");
        }
        if (spec.versionProvider() != null) {
            line(2, "spec.versionProvider(new " + name(spec.versionProvider().getClass()) + "());");
        }
        UsageMessageSpec usage = spec.usageMessage();
        String[] description = (String[]) raw(usage, "description");
        if (description != null) {
            line(2, "spec.usageMessage().description(" + literals(description) + ");");
        }
        for (String field : List.of("customSynopsis", "header", "footer", "abbreviateSynopsis", "sortOptions", "sortSynopsis",
                "showDefaultValues", "showAtFileInUsageHelp", "showEndOfOptionsDelimiterInUsageHelp", "hidden", "autoWidth",
                "requiredOptionMarker", "headerHeading", "synopsisHeading", "synopsisSubcommandLabel", "descriptionHeading",
                "parameterListHeading", "optionListHeading", "commandListHeading", "footerHeading", "exitCodeListHeading",
                "exitCodeListStrings", "width", "longOptionsMaxWidth")) {
            if (raw(usage, field) != null) {
                throw new IllegalStateException(type + ": usage attribute " + field + " is not written by the writer");
            }
        }
    }

    /** Adds {@code spec}'s options, positional parameters and mixins, in the order of its arguments. */
    private void body(int indent, String specVar, String objectPath, CommandSpec spec) {
        List<Object> done = new ArrayList<>();
        for (ArgSpec arg : spec.args()) {
            if (arg.inherited()) { // the parent's, added by picocli when the command becomes its subcommand
                continue;
            }
            String mixinName = mixinOf(spec, arg);
            if (mixinName == null) {
                String expression = arg(arg, objectPath).replace(NEXT, "\n" + "    ".repeat(indent + 2));
                line(indent, specVar + (arg.isOption() ? ".addOption(" : ".addPositional(") + expression + ");");
            } else if (!done.contains(mixinName)) {
                done.add(mixinName);
                CommandSpec mixin = spec.mixins().get(mixinName);
                String var = specVar.equals("spec") ? mixinName : specVar + "_" + mixinName;
                if (mixinName.equals("mixinStandardHelpOptions")) { // picocli's AutoHelpMixin: its fields are private
                    PrebuiltCommandSpecsWriter help = new PrebuiltCommandSpecsWriter(helpers);
                    help.line(2, "CommandSpec mixin = CommandSpec.wrapWithoutInspection(new Object());");
                    help.body(2, "mixin", null, mixin);
                    help.line(2, "return mixin;");
                    String previous = helpers.putIfAbsent("standardHelpOptions", help.out.toString());
                    if (previous != null && !previous.equals(help.out.toString())) {
                        throw new IllegalStateException("two commands with different standard help options");
                    }
                    line(indent, "CommandSpec " + var + " = standardHelpOptions();");
                } else {
                    for (Field f : fields(mixin.userObject().getClass())) {
                        if (f.isAnnotationPresent(CommandLine.Spec.class)) {
                            throw new IllegalStateException(mixin.userObject().getClass() + ": the writer does not inject a"
                                    + " mixin's @Spec field (" + f.getName() + ")");
                        }
                    }
                    String path = objectPath + "." + mixinName;
                    line(indent, path + " = new " + name(mixin.userObject().getClass()) + "();");
                    defaults.add(path + " = new " + name(mixin.userObject().getClass()) + "();");
                    line(indent, "CommandSpec " + var + " = CommandSpec.wrapWithoutInspection(" + path + ")");
                    line(indent + 2, ".withToString(" + literal((String) raw(mixin, "toString")) + ");");
                    body(indent, var, path, mixin);
                }
                line(indent, specVar + ".addMixin(" + literal(mixinName) + ", " + var + ");");
            }
        }
    }

    private static String mixinOf(CommandSpec spec, ArgSpec arg) {
        for (Map.Entry<String, CommandSpec> e : spec.mixins().entrySet()) {
            if (e.getValue().args().stream().anyMatch(a -> a == arg)) {
                return e.getKey();
            }
        }
        return null;
    }

    /** The builder expression of one option or positional parameter. */
    @SuppressWarnings("deprecation") // OptionSpec.help(): deprecated, still part of the model
    private String arg(ArgSpec arg, String objectPath) {
        StringBuilder b = new StringBuilder();
        if (arg.parameterConsumer() != null || arg.interactive()
                || !arg.preprocessor().getClass().getName().equals("picocli.CommandLine$NoOpParameterPreprocessor") || arg.group() != null) {
            throw new IllegalStateException(arg + ": an attribute the writer does not know how to write");
        }
        if (arg instanceof OptionSpec o) {
            b.append("OptionSpec.builder(").append(literals((String[]) raw(o, "names"))).append(")");
            flag(b, "help", o.help());
            flag(b, "usageHelp", o.usageHelp());
            flag(b, "versionHelp", o.versionHelp());
            flag(b, "negatable", o.negatable());
            if (!o.fallbackValue().isEmpty()) {
                b.append(NEXT + ".fallbackValue(").append(literal((String) raw(o, "fallbackValue"))).append(")");
            }
            if (o.order() != -1) {
                b.append(NEXT + ".order(").append(o.order()).append(")");
            }
        } else {
            PositionalParamSpec p = (PositionalParamSpec) arg;
            b.append("PositionalParamSpec.builder().index(").append(range(p.index())).append(")");
        }
        b.append(NEXT + ".arity(").append(range(arg.arity())).append(")");
        flag(b, "required", arg.required());
        b.append(NEXT + ".paramLabel(").append(literal((String) raw(arg, "paramLabel"))).append(")");
        flag(b, "hideParamSyntax", arg.hideParamSyntax());
        b.append(NEXT + ".description(").append(literals((String[]) raw(arg, "description"))).append(")");
        if (raw(arg, "descriptionKey") != null) {
            b.append(NEXT + ".descriptionKey(").append(literal((String) raw(arg, "descriptionKey"))).append(")");
        }
        if (raw(arg, "prompt") != null) {
            b.append(NEXT + ".prompt(").append(literal((String) raw(arg, "prompt"))).append(")");
        }
        CommandLine.Model.ITypeInfo t = arg.typeInfo();
        // the generic type arguments RuntimeTypeInfo also records are read only for @Unmatched fields
        b.append(NEXT + ".type(").append(classLiteral(t.getType())).append(").auxiliaryTypes(");
        b.append(String.join(", ", Arrays.stream(t.getAuxiliaryTypes()).map(PrebuiltCommandSpecsWriter::classLiteral).toList()));
        b.append(")");
        if (arg.converters().length > 0) {
            b.append(NEXT + ".converters(").append(String.join(", ", Arrays.stream(arg.converters())
                    .map(c -> "new " + name(c.getClass()) + "()").toList())).append(")");
        }
        if (!arg.splitRegex().isEmpty()) {
            b.append(NEXT + ".splitRegex(").append(literal((String) raw(arg, "splitRegex"))).append(")");
        }
        if (!arg.splitRegexSynopsisLabel().isEmpty()) {
            b.append(NEXT + ".splitRegexSynopsisLabel(").append(literal((String) raw(arg, "splitRegexSynopsisLabel"))).append(")");
        }
        if (arg.showDefaultValue() != CommandLine.Help.Visibility.ON_DEMAND) {
            b.append(NEXT + ".showDefaultValue(picocli.CommandLine.Help.Visibility.").append(arg.showDefaultValue()).append(")");
        }
        if (arg.completionCandidates() != null && !arg.typeInfo().isEnum()) {
            throw new IllegalStateException(arg + ": completion candidates the writer does not know how to write");
        }
        flag(b, "hidden", arg.hidden());
        if (arg.scopeType() != CommandLine.ScopeType.LOCAL) {
            b.append(NEXT + ".scopeType(picocli.CommandLine.ScopeType.").append(arg.scopeType()).append(")");
        }
        String defaultValue = (String) raw(arg, "defaultValue");
        if (defaultValue != null) {
            b.append(NEXT + ".defaultValue(").append(literal(defaultValue)).append(")");
        }
        String mapFallback = (String) raw(arg, "mapFallbackValue");
        if (!"__unspecified__".equals(mapFallback)) {
            b.append(NEXT + ".mapFallbackValue(").append(literal(mapFallback)).append(")");
        }
        b.append(NEXT + ".withToString(").append(literal(arg.toString())).append(")");
        Field field = arg.userObject() instanceof Field f ? f : null;
        if (field == null) {
            throw new IllegalStateException(arg + ": not bound to a field");
        }
        if (objectPath == null) { // picocli's own mixin: an ObjectBinding holds the value
            Object initial = arg.initialValue();
            if (!(initial instanceof Boolean)) {
                throw new IllegalStateException(arg + ": an initial value the writer does not know how to write");
            }
            b.append(NEXT + ".initialValue(").append(initial).append(")");
        } else {
            String path = objectPath + "." + field.getName();
            int index = fieldPaths.size();
            fieldPaths.add(path);
            fieldTypes.add(field.getGenericType().getTypeName().replace('$', '.'));
            b.append(NEXT + ".initialValue(").append(path).append(")");
            if (defaultValue != null) {
                defaults.add(path + " = " + converted(arg, defaultValue) + ";");
            }
            b.append(NEXT + ".getter(new " + bindingClass + "(command, ").append(index).append(")).setter(new " + bindingClass + "(command, ").append(index).append("))");
        }
        return b.append(NEXT + ".build()").toString();
    }

    /** The expression of {@code value} converted to {@code arg}'s type as picocli's built-in converters do. */
    private static String converted(ArgSpec arg, String value) {
        Class<?> t = arg.type();
        if (value.contains("${") || arg.converters().length > 0 || arg.isMultiValue()) {
            throw new IllegalStateException(arg + ": a default value the writer does not know how to convert");
        }
        if (t.isEnum()) {
            return name(t) + ".valueOf(" + literal(value) + ")"; // picocli: Enum.valueOf (case-sensitive by default)
        }
        return switch (t.getName()) {
            case "java.lang.String" -> literal(value);
            case "double", "java.lang.Double" -> "Double.valueOf(" + literal(value) + ")";
            case "int", "java.lang.Integer" -> "Integer.valueOf(" + literal(value) + ")";
            case "long", "java.lang.Long" -> "Long.valueOf(" + literal(value) + ")";
            case "boolean", "java.lang.Boolean" -> "Boolean.valueOf(" + literal(value) + ")";
            default -> throw new IllegalStateException(arg + ": a default value of a type the writer does not convert");
        };
    }

    /** The one getter/setter class of a command: field {@code index} of the command or of one of its mixins. */
    private void binding(String cls) {
        line(1, "");
        line(1, "/** Field {@code index} of {@code " + cls + "} or one of its mixins, as picocli reads and sets it. */");
        line(1, "private record " + bindingClass + "(" + cls + " command, int index) implements IGetter, ISetter {");
        line(2, "@Override");
        line(2, "public <T> T get() {");
        line(3, "Object value = switch (index) {");
        for (int i = 0; i < fieldPaths.size(); i++) {
            line(4, "case " + i + " -> " + fieldPaths.get(i) + ";");
        }
        line(4, "default -> throw new IllegalStateException(\"no field \" + index);");
        line(3, "};");
        line(3, "return (T) value;");
        line(2, "}");
        line(0, "");
        line(2, "@Override");
        line(2, "public <T> T set(T value) {");
        line(3, "T old = get();");
        line(3, "switch (index) {");
        for (int i = 0; i < fieldPaths.size(); i++) {
            line(4, "case " + i + " -> " + fieldPaths.get(i) + " = (" + boxed(fieldTypes.get(i)) + ") value;");
        }
        line(4, "default -> throw new IllegalStateException(\"no field \" + index);");
        line(3, "}");
        line(3, "return old;");
        line(2, "}");
        line(1, "}");
    }

    private static String boxed(String type) {
        return switch (type) {
            case "boolean" -> "Boolean";
            case "int" -> "Integer";
            case "long" -> "Long";
            case "double" -> "Double";
            case "float" -> "Float";
            case "short" -> "Short";
            case "byte" -> "Byte";
            case "char" -> "Character";
            default -> type;
        };
    }

    private static List<Field> fields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Field f : type.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) {
                fields.add(f);
            }
        }
        return fields;
    }

    private static void flag(StringBuilder b, String name, boolean value) {
        if (value) {
            b.append(NEXT).append('.').append(name).append("(true)");
        }
    }

    private static String range(CommandLine.Range r) {
        String s = "Range.valueOf(" + literal((String) raw(r, "originalValue")) + ")";
        return r.isUnspecified() ? s + ".unspecified(true)" : s;
    }

    private static String name(Class<?> c) {
        return c.getName().replace('$', '.');
    }

    private static String classLiteral(Class<?> c) {
        return c.getCanonicalName() + ".class";
    }

    /** A field of a picocli model object as it was set (before picocli interpolates variables into it). */
    static Object raw(Object o, String field) {
        for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(field);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // in a superclass
            } catch (IllegalAccessException e) {
                throw new AssertionError(e);
            }
        }
        throw new IllegalArgumentException(o.getClass() + " has no field " + field);
    }

    private static String literals(String[] values) {
        return String.join(", ", Arrays.stream(values).map(PrebuiltCommandSpecsWriter::literal).toList());
    }

    static String literal(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private void line(int indent, String text) {
        out.append(text.isEmpty() ? "" : "    ".repeat(indent) + text).append('\n');
    }
}
