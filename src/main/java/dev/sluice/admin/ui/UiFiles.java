package dev.sluice.admin.ui;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The UI's files, read once from the classpath ({@code dev/sluice/admin/ui/}: {@code index.html} and
 * everything under {@code assets/} of a served type) into memory, by their path under
 * {@code /ui/}. A request's path is only ever a key into this map: nothing it holds reaches
 * the class loader or the file system.
 */
public final class UiFiles {
    private static final String ROOT = "dev/sluice/admin/ui/";
    static final String INDEX = "index.html";
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png");

    private final Map<String, UiFile> byPath;

    UiFiles(Map<String, UiFile> byPath) {
        this.byPath = Map.copyOf(byPath);
    }

    /** The files bundled with Sluice, read on first use and shared by every event loop. */
    public static UiFiles bundled() {
        return Bundled.FILES;
    }

    private static final class Bundled {
        static final UiFiles FILES = load();
    }

    /** The file at {@code path} under {@code /ui/} ({@code index.html}, {@code assets/app.js}). */
    Optional<UiFile> get(String path) {
        return Optional.ofNullable(byPath.get(path));
    }

    static UiFiles load() {
        return load(UiFiles.class.getClassLoader());
    }

    /** The files as {@code loader} holds them: in a folder (a build's classes) or a jar. */
    static UiFiles load(ClassLoader loader) {
        URL index = loader.getResource(ROOT + INDEX);
        if (index == null) {
            throw new IllegalStateException("the admin UI's " + ROOT + INDEX + " is missing from the classpath");
        }
        try {
            URI uri = index.toURI();
            if (uri.getScheme().equals("jar")) {
                return fromJar(uri);
            }
            return from(Path.of(uri).getParent());
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("the admin UI's files could not be read: " + e.getMessage(), e);
        }
    }

    private static UiFiles fromJar(URI index) throws IOException {
        URI jar = URI.create(index.toString().substring(0, index.toString().indexOf("!/") + 2));
        FileSystem opened = null;
        FileSystem fs;
        try {
            fs = opened = FileSystems.newFileSystem(jar, Map.of());
        } catch (FileSystemAlreadyExistsException e) {
            fs = FileSystems.getFileSystem(jar);
        }
        try {
            return from(fs.getPath("/" + ROOT));
        } finally {
            if (opened != null) {
                opened.close();
            }
        }
    }

    private static UiFiles from(Path root) throws IOException {
        Map<String, UiFile> files = new HashMap<>();
        files.put(INDEX, UiFile.of(Files.readAllBytes(root.resolve(INDEX)), TYPES.get("html")));
        Path assets = root.resolve("assets");
        if (Files.isDirectory(assets)) {
            try (Stream<Path> walk = Files.walk(assets)) {
                walk.filter(Files::isRegularFile).forEach(file -> {
                    String type = TYPES.get(extension(file.getFileName().toString()));
                    if (type != null) {
                        files.put(relative(root, file), UiFile.of(read(file), type));
                    }
                });
            }
        }
        return new UiFiles(files);
    }

    private static String relative(Path root, Path file) {
        StringBuilder path = new StringBuilder();
        for (Path part : root.relativize(file)) {
            path.append(path.isEmpty() ? "" : "/").append(part.toString());
        }
        return path.toString();
    }

    private static String extension(String name) {
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
