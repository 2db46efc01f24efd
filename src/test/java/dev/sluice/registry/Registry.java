package dev.sluice.registry;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The reliability registry as read from its data file ({@code registry.tsv}): one {@link Cell}
 * per line, tab-separated, under a header line that names the columns; blank lines and lines
 * starting with {@code #} are ignored. A malformed file is refused with a message naming the
 * line, the column and the rule, so the collector fails the build instead of counting wrong.
 */
record Registry(List<Cell> cells) {
    /** The default location, relative to the project folder. */
    static final Path DEFAULT_FILE = Path.of("src/test/resources/reliability/registry.tsv");
    static final List<String> COLUMNS = List.of("id", "module", "holds", "test", "failure");
    /** The modules, in the order the report lists them. */
    static final List<String> MODULES = List.of(
            "retry", "failover", "cooldown", "fallback", "routing", "cache", "guardrail", "deadline", "stream", "client", "state");

    private static final Pattern ID = Pattern.compile("[a-z]+\\.[a-z0-9_]+");
    private static final Pattern TEST = Pattern.compile("([A-Za-z_$][\\w$]*(?:\\.[A-Za-z_$][\\w$]*)*)#([A-Za-z_$][\\w$]*)");

    /**
     * One reliability cell.
     *
     * @param id      {@code module.name}, unique
     * @param module  one of {@link #MODULES}
     * @param holds   what must hold, one sentence
     * @param test    {@code ClassName#method} of the live test covering it; empty while uncovered
     * @param failure the real failure the test uses; empty exactly when {@code test} is
     */
    record Cell(String id, String module, String holds, String test, String failure) {
        boolean hasTest() {
            return !test.isEmpty();
        }

        /** The class part of {@link #test}, as written (simple or qualified). */
        String testClass() {
            return test.substring(0, test.indexOf('#'));
        }

        String testMethod() {
            return test.substring(test.indexOf('#') + 1);
        }
    }

    static Registry read(Path file) {
        try {
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8), file.toString());
        } catch (IOException e) {
            throw new UncheckedIOException("reliability registry " + file + " unreadable", e);
        }
    }

    static Registry parse(List<String> lines, String source) {
        List<Cell> cells = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Set<String> tests = new HashSet<>();
        boolean headerSeen = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String where = source + ":" + (i + 1);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            List<String> fields = List.of(line.split("\t", -1));
            if (!headerSeen) {
                if (!fields.equals(COLUMNS)) {
                    throw malformed(where, "header", String.join("|", fields), "the columns " + String.join("|", COLUMNS));
                }
                headerSeen = true;
                continue;
            }
            if (fields.size() != COLUMNS.size()) {
                throw malformed(where, "columns", fields.size() + " fields", COLUMNS.size() + " tab-separated fields");
            }
            Cell cell = new Cell(fields.get(0).strip(), fields.get(1).strip(), fields.get(2).strip(),
                    fields.get(3).strip(), fields.get(4).strip());
            if (!ID.matcher(cell.id()).matches()) {
                throw malformed(where, "id", cell.id(), "module.name in lower case");
            }
            if (!ids.add(cell.id())) {
                throw malformed(where, "id", cell.id(), "not used by another cell");
            }
            if (!MODULES.contains(cell.module())) {
                throw malformed(where, "module", cell.module(), "one of " + String.join(", ", MODULES));
            }
            if (!cell.id().startsWith(cell.module() + ".")) {
                throw malformed(where, "id", cell.id(), "starts with its module '" + cell.module() + ".'");
            }
            if (cell.holds().isEmpty()) {
                throw malformed(where, "holds", "''", "one sentence saying what must hold");
            }
            if (cell.hasTest() && !TEST.matcher(cell.test()).matches()) {
                throw malformed(where, "test", cell.test(), "ClassName#method, or empty while uncovered");
            }
            if (cell.hasTest() && !tests.add(cell.test())) {
                throw malformed(where, "test", cell.test(), "not covering another cell too");
            }
            if (cell.hasTest() == cell.failure().isEmpty()) {
                throw malformed(where, "failure", "'" + cell.failure() + "'",
                        cell.hasTest() ? "the real failure the test uses" : "empty while the cell has no test");
            }
            cells.add(cell);
        }
        if (!headerSeen) {
            throw malformed(source, "header", "none", "a first line naming the columns " + String.join("|", COLUMNS));
        }
        return new Registry(List.copyOf(cells));
    }

    private static IllegalArgumentException malformed(String where, String column, String value, String rule) {
        return new IllegalArgumentException("reliability registry " + where + ": " + column + ": " + value
                + " (expected: " + rule + ")");
    }
}
