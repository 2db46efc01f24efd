package dev.sluice.registry;

import dev.sluice.registry.Registry.Cell;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The registry's collector: reads the registry and this run's failsafe reports and prints
 * {@code covered/total} per module and overall, where a cell is covered when its test ran
 * and passed in this run (not merely exists). {@code ./mvnw verify} runs it after the
 * integration tests and before their verdict, so the numbers print even when a cell is red.
 *
 * <p>It fails (throws, which fails the build) when the registry is malformed, names a test
 * that is not a {@code @Test} method of a class in the test tree, or has a cell without a
 * test; and, in a full run (no {@code -Dit.test}, passed in as {@code --selected}), when any
 * cell is not covered, whether its test failed, was skipped or did not run. In a run of some
 * tests only, the cells left out are reported and fail nothing. With {@code --markdown} it prints the
 * registry as the table in {@code docs/reliability-registry.md} instead.
 *
 * <pre>{@code
 * RegistryReport [--markdown] [--registry FILE] [--reports DIR] [--selected IT_TEST] [--skip-its BOOLEAN]
 * }</pre>
 */
public final class RegistryReport {
    static final Path DEFAULT_REPORTS = Path.of("target/failsafe-reports");

    /** Where a cell's test stands in this run. */
    enum Status {
        PASSED("passed"), FAILED("failed"), SKIPPED("skipped"), NOT_RUN("did not run"), NO_TEST("no test yet");

        final String label;

        Status(String label) {
            this.label = label;
        }
    }

    private RegistryReport() {}

    public static void main(String[] args) {
        boolean markdown = false;
        Path registryFile = Registry.DEFAULT_FILE;
        Path reports = DEFAULT_REPORTS;
        String selected = "";
        boolean itsSkipped = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--markdown" -> markdown = true;
                case "--registry" -> registryFile = Path.of(value(args, ++i, "--registry"));
                case "--reports" -> reports = Path.of(value(args, ++i, "--reports"));
                case "--selected" -> selected = value(args, ++i, "--selected");
                case "--skip-its" -> itsSkipped = "true".equals(value(args, ++i, "--skip-its"));
                default -> throw new IllegalArgumentException("unknown argument '" + args[i]
                        + "' (expected: --markdown, --registry FILE, --reports DIR, --selected IT_TEST, --skip-its BOOLEAN)");
            }
        }
        Registry registry = Registry.read(registryFile);
        Map<Cell, Class<?>> testClasses = resolveTests(registry, testClassesFolder());
        if (markdown) {
            System.out.print(markdown(registry));
            return;
        }
        if (itsSkipped) {
            System.out.println("Reliability registry: not checked, the integration tests were skipped (-DskipITs)");
            return;
        }
        Map<Cell, Status> statuses = statuses(registry, testClasses, results(reports));
        System.out.print(report(registry, statuses));
        requireATestForEveryCell(registry);
        if (isFullRun(selected)) {
            requireEveryCellCovered(statuses);
        }
    }

    /**
     * Whether every integration test was meant to run: {@code -Dit.test} was not given, so Maven
     * passed no value (null), an empty one, or its expression unresolved.
     */
    static boolean isFullRun(String selected) {
        return selected == null || selected.isBlank() || selected.startsWith("${");
    }

    /**
     * Throws naming every cell not covered: in a full run a cell whose test was skipped, disabled
     * or never ran (a class whose set-up failed) fails the build as surely as one that failed.
     */
    static void requireEveryCellCovered(Map<Cell, Status> statuses) {
        List<String> uncovered = statuses.entrySet().stream().filter(e -> e.getValue() != Status.PASSED)
                .map(e -> e.getKey().id() + " (" + e.getValue().label + ")").toList();
        if (!uncovered.isEmpty()) {
            throw new IllegalStateException("reliability registry: " + uncovered.size() + " cell(s) not covered in a full run: "
                    + String.join(", ", uncovered));
        }
    }

    /** Throws naming every cell that has no live test: the registry is only done when none is left. */
    static void requireATestForEveryCell(Registry registry) {
        List<String> untested = registry.cells().stream().filter(c -> !c.hasTest()).map(Cell::id).toList();
        if (!untested.isEmpty()) {
            throw new IllegalStateException("reliability registry: " + untested.size() + " cell(s) have no live test: "
                    + String.join(", ", untested));
        }
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            throw new IllegalArgumentException(flag + ": missing value");
        }
        return args[i];
    }

    /**
     * The class of every cell's test, found in {@code testClasses} (a simple name must name
     * exactly one class there); throws naming the cell when a class or its {@code @Test}
     * method does not exist.
     */
    static Map<Cell, Class<?>> resolveTests(Registry registry, Path testClasses) {
        Map<String, List<String>> bySimpleName = new HashMap<>();
        try (Stream<Path> files = Files.walk(testClasses)) {
            files.filter(f -> f.getFileName().toString().endsWith(".class") && !f.getFileName().toString().contains("$"))
                    .forEach(f -> {
                        String qualified = testClasses.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".");
                        qualified = qualified.substring(0, qualified.length() - ".class".length());
                        String simple = qualified.substring(qualified.lastIndexOf('.') + 1);
                        bySimpleName.computeIfAbsent(simple, k -> new ArrayList<>()).add(qualified);
                    });
        } catch (IOException e) {
            throw new UncheckedIOException("test classes at " + testClasses + " unreadable", e);
        }
        Map<Cell, Class<?>> resolved = new LinkedHashMap<>();
        for (Cell cell : registry.cells()) {
            if (!cell.hasTest()) {
                continue;
            }
            String name = cell.testClass();
            if (!name.contains(".")) {
                List<String> candidates = bySimpleName.getOrDefault(name, List.of());
                if (candidates.size() != 1) {
                    throw new IllegalArgumentException("reliability registry: " + cell.id() + ": test class " + name
                            + (candidates.isEmpty() ? " does not exist in " + testClasses : " is ambiguous: " + candidates));
                }
                name = candidates.getFirst();
            }
            Class<?> type;
            try {
                type = Class.forName(name, false, RegistryReport.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("reliability registry: " + cell.id() + ": test class " + name + " does not exist");
            }
            boolean found = false;
            for (Method method : type.getDeclaredMethods()) {
                if (method.getName().equals(cell.testMethod()) && method.isAnnotationPresent(org.junit.jupiter.api.Test.class)) {
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("reliability registry: " + cell.id() + ": " + name + " has no @Test method "
                        + cell.testMethod());
            }
            resolved.put(cell, type);
        }
        return resolved;
    }

    /** The folder this class was loaded from: the compiled test tree. */
    private static Path testClassesFolder() {
        try {
            return Path.of(RegistryReport.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Each test case's outcome in the failsafe XML reports, keyed {@code qualified.Class#method};
     * a test that appears more than once counts as passed only if every run passed. No folder
     * means no results.
     */
    static Map<String, Status> results(Path reports) {
        Map<String, Status> results = new HashMap<>();
        if (!Files.isDirectory(reports)) {
            return results;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(reports, "TEST-*.xml")) {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            for (Path file : files) {
                Document document = factory.newDocumentBuilder().parse(file.toFile());
                NodeList cases = document.getElementsByTagName("testcase");
                for (int i = 0; i < cases.getLength(); i++) {
                    Element testCase = (Element) cases.item(i);
                    String name = testCase.getAttribute("name");
                    int paren = name.indexOf('(');
                    if (paren >= 0) {
                        name = name.substring(0, paren);
                    }
                    Status status = outcome(testCase);
                    results.merge(testCase.getAttribute("classname") + "#" + name, status,
                            (was, now) -> was == Status.PASSED ? now : was);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("failsafe reports in " + reports + " unreadable", e);
        } catch (Exception e) {
            throw new IllegalStateException("failsafe reports in " + reports + " unreadable: " + e.getMessage(), e);
        }
        return results;
    }

    private static Status outcome(Element testCase) {
        if (testCase.getElementsByTagName("failure").getLength() > 0 || testCase.getElementsByTagName("error").getLength() > 0) {
            return Status.FAILED;
        }
        if (testCase.getElementsByTagName("skipped").getLength() > 0) {
            return Status.SKIPPED;
        }
        return Status.PASSED;
    }

    static Map<Cell, Status> statuses(Registry registry, Map<Cell, Class<?>> testClasses, Map<String, Status> results) {
        Map<Cell, Status> statuses = new LinkedHashMap<>();
        for (Cell cell : registry.cells()) {
            if (!cell.hasTest()) {
                statuses.put(cell, Status.NO_TEST);
                continue;
            }
            String key = testClasses.get(cell).getName() + "#" + cell.testMethod();
            statuses.put(cell, results.getOrDefault(key, Status.NOT_RUN));
        }
        return statuses;
    }

    /** {@code covered/total} per module and overall, then each cell that is not covered and why. */
    static String report(Registry registry, Map<Cell, Status> statuses) {
        StringBuilder out = new StringBuilder("Reliability registry: a cell is covered when its live test ran and passed in this run\n");
        int covered = 0;
        for (String module : Registry.MODULES) {
            List<Cell> cells = registry.cells().stream().filter(c -> c.module().equals(module)).toList();
            if (cells.isEmpty()) {
                continue;
            }
            long passed = cells.stream().filter(c -> statuses.get(c) == Status.PASSED).count();
            covered += (int) passed;
            out.append("  %-10s %2d/%d%n".formatted(module, passed, cells.size()));
        }
        out.append("  %-10s %2d/%d%n".formatted("overall", covered, registry.cells().size()));
        for (Cell cell : registry.cells()) {
            Status status = statuses.get(cell);
            if (status != Status.PASSED) {
                out.append("  not covered: %s (%s)%n".formatted(cell.id(),
                        status == Status.NO_TEST ? status.label : cell.test() + " " + status.label));
            }
        }
        return out.toString();
    }

    /** The registry as a Markdown table, as it appears in docs/reliability-registry.md. */
    static String markdown(Registry registry) {
        StringBuilder out = new StringBuilder("| cell | what must hold | covering test | real failure |\n|---|---|---|---|\n");
        for (Cell cell : registry.cells()) {
            out.append("| `").append(cell.id()).append("` | ").append(escape(cell.holds())).append(" | ")
                    .append(cell.hasTest() ? "`" + cell.test() + "`" : "—").append(" | ")
                    .append(cell.hasTest() ? escape(cell.failure()) : "—").append(" |\n");
        }
        return out.toString();
    }

    private static String escape(String text) {
        return text.replace("|", "\\|");
    }
}
