package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The version {@code x-litellm-version} names is the project's, in the PEP 440 form Python clients parse. */
class SluiceVersionTest {
    private static final Pattern PROJECT_VERSION = Pattern.compile("<artifactId>sluice</artifactId>\\s*<version>([^<]+)</version>");
    private static final Pattern PEP_440 = Pattern.compile("\\d+(\\.\\d+)*(\\.dev\\d+)?");

    @Test
    void isThePomsVersionAsPep440WritesIt() throws IOException {
        Matcher matcher = PROJECT_VERSION.matcher(Files.readString(Path.of("pom.xml")));
        assertThat(matcher.find()).isTrue();
        String pom = matcher.group(1);
        String expected = pom.endsWith("-SNAPSHOT") ? pom.substring(0, pom.length() - "-SNAPSHOT".length()) + ".dev0" : pom;

        assertThat(SluiceVersion.CURRENT).isEqualTo(expected).matches(PEP_440);
    }
}
