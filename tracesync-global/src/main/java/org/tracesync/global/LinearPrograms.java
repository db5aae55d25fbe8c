package org.tracesync.global;

import com.google.ortools.Loader;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * Chooses the solver behind {@link LinearProgram}: GLOP when OR-Tools' native library loads (the
 * project ships it for Linux x86-64 and aarch64), else ojAlgo. The system property
 * {@code tracesync.lp} ({@code glop} or {@code ojalgo}) forces one (tests compare the two).
 */
final class LinearPrograms {

    private static final String PROPERTY = "tracesync.lp";
    private static volatile Boolean glopLoaded;
    private static volatile String loadFailure;

    private LinearPrograms() {
    }

    /** True when GLOP can be used (the native library is loaded, once). */
    static boolean glopAvailable() {
        Boolean loaded = glopLoaded;
        if (loaded == null) {
            synchronized (LinearPrograms.class) {
                if (glopLoaded == null) {
                    try {
                        Loader.loadNativeLibraries();
                        glopLoaded = Boolean.TRUE;
                    } catch (Throwable e) { // UnsatisfiedLinkError, no native jar for this platform, …
                        loadFailure = e.toString();
                        glopLoaded = Boolean.FALSE;
                    }
                }
                loaded = glopLoaded;
            }
        }
        return loaded;
    }

    /** Why GLOP could not be loaded (null if it could or was not tried). */
    static String loadFailure() {
        return loadFailure;
    }

    /** The solver name {@link #factory()} uses: "glop" or "ojalgo". */
    static String solverName() {
        String forced = System.getProperty(PROPERTY, "").toLowerCase(Locale.ROOT);
        return switch (forced) {
            case "ojalgo" -> "ojalgo";
            case "glop" -> {
                if (!glopAvailable()) {
                    throw new IllegalStateException("-D" + PROPERTY + "=glop but OR-Tools could not be loaded: " + loadFailure);
                }
                yield "glop";
            }
            case "" -> glopAvailable() ? "glop" : "ojalgo";
            default -> throw new IllegalArgumentException("-D" + PROPERTY + " must be glop or ojalgo, not " + forced);
        };
    }

    /** A factory of programs with the given number of unknowns, for the chosen solver. */
    static IntFunction<LinearProgram> factory() {
        return "glop".equals(solverName()) ? GlopLinearProgram::new : DualLinearProgram::new;
    }
}
