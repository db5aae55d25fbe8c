package org.tracesync.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code tracesync sync …} runs on {@link PrebuiltCommandSpecs}, the picocli model written as plain
 * calls from the annotations by the build step src/build/PrebuiltCommandSpecsWriter.java: the step
 * accepts the checked-in file and refuses a stale one, and the model is the one picocli builds from
 * the annotations by reflection, field by field, and parses every option into the same fields.
 */
class PrebuiltCommandSpecsTest {

    @TempDir
    Path dir;

    @Test
    void the_build_step_accepts_the_checked_in_source_and_refuses_a_stale_one() throws Exception {
        Path checkedIn = Path.of("src/main/java/org/tracesync/cli/PrebuiltCommandSpecs.java");
        JavaRun ok = writer("--check", checkedIn);
        assertThat(ok.code()).as(ok.out()).isZero();
        assertThat(ok.out()).contains("is what the annotations give");

        Path stale = dir.resolve("PrebuiltCommandSpecs.java");
        Files.writeString(stale, Files.readString(checkedIn).replace("\"--all-pairs\"", "\"--every-pair\""));
        JavaRun refused = writer("--check", stale);
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.out()).contains(stale + " is not what the annotations of TracesyncCommand, SyncCommand and their"
                + " mixins give now; rewrite it (cp ");

        Path written = dir.resolve("written.java");
        assertThat(writer("--write", written).code()).isZero();
        assertThat(Files.readString(written)).isEqualTo(Files.readString(checkedIn));
    }

    /** src/build/PrebuiltCommandSpecsWriter.java run as the build runs it, on this test's class path. */
    private JavaRun writer(String mode, Path file) throws IOException, InterruptedException {
        return JavaRun.of(dir, "-cp", System.getProperty("java.class.path"), "src/build/PrebuiltCommandSpecsWriter.java", mode,
                file.toString());
    }

    @Test
    void the_prebuilt_model_is_the_reflective_one_field_by_field() {
        CommandLine prebuilt = TracesyncCommand.prebuiltSync();
        CommandLine reflective = TracesyncCommand.withSubcommands(new String[] {"sync"});
        assertThat(differences(CommandModelDump.of(prebuilt.getCommandSpec()), CommandModelDump.of(reflective.getCommandSpec())))
                .isEmpty();
        List<String> sync = CommandModelDump.of(prebuilt.getSubcommands().get("sync").getCommandSpec());
        assertThat(sync).hasSizeGreaterThan(1000); // every option, each field
        assertThat(differences(sync, CommandModelDump.of(reflective.getSubcommands().get("sync").getCommandSpec()))).isEmpty();
    }

    /** The lines of {@code a} and {@code b} that differ, index by index ({@code -} for a missing line). */
    private static List<String> differences(List<String> a, List<String> b) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
            String x = i < a.size() ? a.get(i) : "-";
            String y = i < b.size() ? b.get(i) : "-";
            if (!x.equals(y)) {
                out.add(i + ": prebuilt " + x + "\n   reflective " + y);
            }
        }
        return out;
    }

    @Test
    void every_option_lands_in_the_same_field() throws Exception {
        String[][] commandLines = {
            {"sync", "a.txt"},
            {"sync", "a.pcap", "b.pcapng", "-o", "r.json", "--reference", "b", "--estimator", "regression", "--confidence", "0.9",
                "--reduction", "path", "--min-latency", "5us", "-q", "--all-pairs", "--name", "x,y", "--node-address",
                "x=10.0.0.1,10.0.0.2", "--node-address", "y=10.0.0.3", "--match-window", "2.5", "--no-reader-thread",
                "--repair", "never", "--node-key", "host.name", "--pending-spans", "64", "--debug"},
            {"--debug", "sync", "--rtt", "exchanges", "--output=r.json", "-q", "c", "d", "e"},
            {"sync", "--rtt=rtt.txt", "--estimator=bisector", "--reduction", "global", "--repair=always", "--", "-o"},
        };
        for (String[] args : commandLines) {
            CommandLine prebuilt = TracesyncCommand.prebuiltSync();
            CommandLine reflective = TracesyncCommand.withSubcommands(new String[] {"sync"});
            prebuilt.parseArgs(args);
            reflective.parseArgs(args);
            assertThat(fields(prebuilt)).as(String.join(" ", args)).containsExactlyElementsOf(fields(reflective))
                    .anyMatch(f -> f.startsWith("sync.inputs = ["));
        }
    }

    @Test
    void the_converters_main_leaves_out_are_those_of_types_no_option_has() {
        List<String> excluded = List.of(TracesyncCommand.PICOCLI_SETTINGS.get("picocli.converters.excludes").split(","));
        assertThat(excluded).hasSize(1);
        assertThat(List.of("java.time.Duration", "java.sql.Timestamp")).allMatch(t -> t.matches(excluded.get(0)));
        assertThat("java.nio.file.Path").doesNotMatch(excluded.get(0));
        List<String> types = new ArrayList<>();
        List<CommandLine> commands = new ArrayList<>(List.of(TracesyncCommand.newCommandLine()));
        for (int i = 0; i < commands.size(); i++) {
            commands.addAll(commands.get(i).getSubcommands().values());
            for (CommandLine.Model.ArgSpec arg : commands.get(i).getCommandSpec().args()) {
                types.add(arg.typeInfo().getClassName());
                for (Class<?> aux : arg.typeInfo().getAuxiliaryTypes()) {
                    types.add(aux.getName());
                }
            }
        }
        assertThat(commands).hasSizeGreaterThan(10);
        assertThat(types).contains("java.nio.file.Path", "java.lang.Long")
                .noneMatch(t -> excluded.stream().anyMatch(t::matches));
    }

    /** Every field of the top command, of {@code sync} and of its mixins, as {@code name = value}. */
    private static List<String> fields(CommandLine cl) throws IllegalAccessException {
        List<String> out = new ArrayList<>();
        values("top", cl.getCommand(), out);
        values("sync", cl.getSubcommands().get("sync").getCommand(), out);
        return out;
    }

    private static void values(String path, Object o, List<String> out) throws IllegalAccessException {
        for (Field f : o.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getType() == CommandLine.Model.CommandSpec.class) {
                continue;
            }
            f.setAccessible(true);
            Object v = f.get(o);
            if (v != null && v.getClass().getName().endsWith("Mixin")) {
                values(path + "." + f.getName(), v, out);
            } else {
                out.add(path + "." + f.getName() + " = " + v);
            }
        }
    }
}
