package dev.sluice.admin.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The UI's files read from a jar, as a packaged Sluice reads them: only the index and assets of a served type. */
class UiFilesLoadTest {

    @Test
    void filesAreReadFromAJarByTheirPathUnderUi(@TempDir Path folder) throws IOException {
        Path jar = folder.resolve("ui.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            add(out, "dev/sluice/admin/ui/index.html", "<!doctype html>");
            add(out, "dev/sluice/admin/ui/assets/app.js", "export {}");
            add(out, "dev/sluice/admin/ui/assets/pages/models.js", "export async function render() {}");
            add(out, "dev/sluice/admin/ui/assets/notes.txt", "not served");
            add(out, "dev/sluice/admin/ui/SessionSeal.class", "not served");
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            UiFiles files = UiFiles.load(loader);

            assertThat(files.get("index.html").orElseThrow().contentType()).isEqualTo("text/html; charset=utf-8");
            assertThat(files.get("assets/pages/models.js").orElseThrow().bytes().toString(StandardCharsets.UTF_8))
                    .isEqualTo("export async function render() {}");
            assertThat(files.get("assets/app.js")).isPresent();
            assertThat(files.get("assets/notes.txt")).isEmpty();
            assertThat(files.get("SessionSeal.class")).isEmpty();
        }
    }

    private static void add(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }
}
