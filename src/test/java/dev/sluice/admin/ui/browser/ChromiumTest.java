package dev.sluice.admin.ui.browser;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** What the browser tests say when Chromium or its driver is missing. */
class ChromiumTest {

    @Test
    void aMissingBrowserOrDriverIsNamedWithTheInstallCommand() {
        Chromium neither = new Chromium(Path.of("/nonexistent/chromium"), Path.of("/nonexistent/chromedriver"));
        assertThat(neither.missing()).containsExactly("the browser /nonexistent/chromium", "the driver /nonexistent/chromedriver");
        assertThat(neither.whyNot())
                .contains("the browser /nonexistent/chromium and the driver /nonexistent/chromedriver")
                .contains("apt-get install chromium chromium-driver");
    }

    @Test
    void systemPropertiesNameOtherPaths() {
        System.setProperty("sluice.chromium", "/opt/c/chrome");
        try {
            assertThat(Chromium.configured().browser()).isEqualTo(Path.of("/opt/c/chrome"));
        } finally {
            System.clearProperty("sluice.chromium");
        }
    }
}
