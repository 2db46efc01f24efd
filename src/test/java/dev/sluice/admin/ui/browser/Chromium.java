package dev.sluice.admin.ui.browser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the system's Chromium and its chromedriver are: Debian's {@code chromium} and
 * {@code chromium-driver} packages install them as {@code /usr/bin/chromium} and
 * {@code /usr/bin/chromedriver}. The system properties {@code sluice.chromium} and
 * {@code sluice.chromedriver} (or the variables {@code SLUICE_CHROMIUM}, {@code SLUICE_CHROMEDRIVER})
 * name others. Nothing is ever downloaded.
 */
record Chromium(Path browser, Path driver) {
    static final String INSTALL = "apt-get install chromium chromium-driver";

    /** The paths configured, or Debian's. */
    static Chromium configured() {
        return new Chromium(path("sluice.chromium", "SLUICE_CHROMIUM", "/usr/bin/chromium"),
                path("sluice.chromedriver", "SLUICE_CHROMEDRIVER", "/usr/bin/chromedriver"));
    }

    private static Path path(String property, String variable, String fallback) {
        String named = System.getProperty(property);
        if (named == null || named.isBlank()) {
            named = System.getenv(variable);
        }
        return Path.of(named == null || named.isBlank() ? fallback : named);
    }

    /** What cannot be run, e.g. {@code ["the browser /usr/bin/chromium"]}; empty when both can. */
    List<String> missing() {
        List<String> missing = new ArrayList<>();
        if (!Files.isExecutable(browser)) {
            missing.add("the browser " + browser);
        }
        if (!Files.isExecutable(driver)) {
            missing.add("the driver " + driver);
        }
        return missing;
    }

    /** Why the browser tests cannot run here, naming what is missing and how to install it. */
    String whyNot() {
        return "The admin UI's browser tests need Chromium and chromedriver, but " + String.join(" and ", missing())
                + " cannot be run. Install them with `" + INSTALL + "` (Debian, Ubuntu), or name them with"
                + " -Dsluice.chromium=... and -Dsluice.chromedriver=...";
    }
}
