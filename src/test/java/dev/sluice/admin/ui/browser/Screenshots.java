package dev.sluice.admin.ui.browser;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The pictures of the UI in docs/ui.md: taken only when the system property
 * {@code sluice.ui.screenshots} names a folder ({@code -Dsluice.ui.screenshots=docs/ui}), so an
 * ordinary test run never writes into the source tree.
 */
final class Screenshots {
    static final String PROPERTY = "sluice.ui.screenshots";

    private Screenshots() {}

    /** Saves the viewport as {@code <folder>/<name>.png} when screenshots are asked for. */
    static void take(Browser browser, String name) {
        String folder = System.getProperty(PROPERTY);
        if (folder == null || folder.isBlank()) {
            return;
        }
        try {
            Path dir = Path.of(folder);
            Files.createDirectories(dir);
            Files.write(dir.resolve(name + ".png"), browser.screenshot());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the screenshot " + name, e);
        }
    }
}
