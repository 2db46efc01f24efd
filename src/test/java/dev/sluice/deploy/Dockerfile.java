package dev.sluice.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Dockerfile read as its stages and instructions, enough to check what it builds without a
 * Docker engine: continuation lines joined, comments and parser directives dropped.
 */
record Dockerfile(List<Dockerfile.Stage> stages) {

    /** One instruction: its keyword in upper case and the rest of its line. */
    record Instruction(String keyword, String arguments) {}

    /** A {@code FROM image [AS name]} and the instructions up to the next one. */
    record Stage(String image, String name, List<Instruction> instructions) {

        List<Instruction> all(String keyword) {
            return instructions.stream().filter(i -> i.keyword().equals(keyword)).toList();
        }

        /** The stage's last instruction of this kind: the one in force, as Docker reads it. */
        Optional<String> last(String keyword) {
            List<Instruction> found = all(keyword);
            return found.isEmpty() ? Optional.empty() : Optional.of(found.getLast().arguments());
        }

        /** Position of the first instruction of this kind whose arguments contain {@code text}; -1 when none. */
        int indexOf(String keyword, String text) {
            for (int i = 0; i < instructions.size(); i++) {
                Instruction instruction = instructions.get(i);
                if (instruction.keyword().equals(keyword) && instruction.arguments().contains(text)) {
                    return i;
                }
            }
            return -1;
        }
    }

    static Dockerfile parse(String text) {
        List<String> logical = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String line : text.split("\n", -1)) {
            String stripped = line.strip();
            if (stripped.startsWith("#")) {
                continue;
            }
            if (stripped.endsWith("\\")) {
                pending.append(stripped, 0, stripped.length() - 1).append(' ');
                continue;
            }
            pending.append(stripped);
            if (!pending.toString().isBlank()) {
                logical.add(pending.toString().strip());
            }
            pending.setLength(0);
        }
        List<Stage> stages = new ArrayList<>();
        for (String line : logical) {
            String[] parts = line.split("\\s+", 2);
            String keyword = parts[0].toUpperCase(java.util.Locale.ROOT);
            String arguments = parts.length > 1 ? parts[1] : "";
            if (keyword.equals("FROM")) {
                String[] from = arguments.split("\\s+");
                String name = from.length == 3 && from[1].equalsIgnoreCase("AS") ? from[2] : null;
                stages.add(new Stage(from[0], name, new ArrayList<>()));
            } else if (stages.isEmpty()) {
                throw new IllegalArgumentException("instruction before the first FROM: " + line);
            } else {
                stages.getLast().instructions().add(new Instruction(keyword, arguments));
            }
        }
        return new Dockerfile(List.copyOf(stages));
    }

    Stage runtime() {
        return stages.getLast();
    }
}
