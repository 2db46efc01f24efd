package dev.sluice.admin.ui.browser;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The gate in front of every browser test class: with Chromium and chromedriver present the
 * tests run; without them they fail when the environment variable {@code CI} is set (a CI run
 * must not pass by skipping its browser tests), and are skipped otherwise, saying loudly why
 * and how to install them.
 */
final class RequiresChromium implements ExecutionCondition, BeforeAllCallback {
    /**
     * The process's own standard error: the build's console. The test runner keeps what tests
     * write to System.err in report files, where a skipped class's reason would go unseen.
     */
    private static final PrintStream CONSOLE = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
        Chromium chromium = Chromium.configured();
        if (chromium.missing().isEmpty() || inCi()) {
            return ConditionEvaluationResult.enabled("Chromium found, or CI: " + chromium);
        }
        String why = chromium.whyNot();
        if (context.getTestMethod().isEmpty()) {
            CONSOLE.println("*** SKIPPED " + context.getDisplayName() + ": " + why + " ***");
        }
        return ConditionEvaluationResult.disabled(why);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        Chromium chromium = Chromium.configured();
        if (!chromium.missing().isEmpty()) {
            throw new AssertionError(why(chromium));
        }
    }

    private static String why(Chromium chromium) {
        return chromium.whyNot() + " (CI is set, so this fails instead of skipping).";
    }

    /** True when the variable {@code CI} is set to anything but empty or {@code false}. */
    static boolean inCi() {
        String ci = System.getenv("CI");
        return ci != null && !ci.isBlank() && !ci.equalsIgnoreCase("false");
    }
}
