package dev.sluice.config;

import dev.sluice.config.GuardrailConfig.ContentPattern;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the top-level {@code guardrails} list in LiteLLM's shape. Sluice runs one type
 * itself, LiteLLM's built-in {@code litellm_content_filter}; any other type (aporia,
 * lakera, presidio, ...) is a problem, never skipped, because a guardrail that silently
 * does not run is a hole its owner does not know about. For the same reason a setting
 * that would make the filter match more (categories, a keyword file) or act otherwise
 * (MASK) is a problem rather than a warning.
 */
record GuardrailsParser(FieldReader read, IgnoredKeys ignored) {
    static final List<String> TYPES = List.of(GuardrailConfig.CONTENT_FILTER);

    private static final String LIST_RULE = "a list of guardrails, each a map with guardrail_name and litellm_params";
    private static final String ENTRY_RULE = "a map with guardrail_name and litellm_params";
    private static final String PARAMS_RULE = "a map with at least guardrail and mode";
    private static final String TYPE_RULE = "a guardrail type Sluice supports: " + String.join(", ", TYPES);
    private static final String MODE_RULE = "pre_call, post_call or a list of them";
    private static final String WORD_RULE = "a keyword, or a map with keyword and action";
    private static final String PATTERN_RULE = "a map with pattern_type and pattern (regex) or pattern_name (prebuilt)";

    /**
     * @param names    every {@code guardrail_name} that was read, even from an entry with
     *                 other problems, so a deployment naming it is not a second problem
     * @param readable false when {@code guardrails} is written but is not a list, so that
     *                 names cannot be checked against it
     */
    record Parsed(List<GuardrailConfig> guardrails, Set<String> names, boolean readable) {}

    Parsed parse(ConfigNode node) {
        if (node.isAbsent()) {
            return new Parsed(List.of(), Set.of(), true);
        }
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), LIST_RULE);
            return new Parsed(List.of(), Set.of(), false);
        }
        List<GuardrailConfig> guardrails = new ArrayList<>();
        Map<String, String> firstSeenAt = new LinkedHashMap<>();
        for (ConfigNode item : node.items()) {
            if (!item.isMap()) {
                read.problems().add(item, ShownValue.of(item.value(), false), ENTRY_RULE);
                continue;
            }
            Section entry = Section.open(item, ignored, read.problems(), ENTRY_RULE);
            ConfigNode nameNode = entry.take("guardrail_name");
            Optional<String> name = read.requiredString(nameNode).filter(n -> {
                String earlier = firstSeenAt.putIfAbsent(n, item.path());
                if (earlier != null) {
                    read.problems().add(nameNode, ShownValue.text(nameNode.value()), "a name not already used by " + earlier);
                }
                return earlier == null;
            });
            Optional<Params> params = params(entry.take("litellm_params"));
            entry.finish();
            if (name.isPresent() && params.isPresent()) {
                Params p = params.get();
                guardrails.add(new GuardrailConfig(name.get(), p.type(), p.modes(), p.defaultOn(), p.blockedWords(), p.patterns()));
            }
        }
        return new Parsed(List.copyOf(guardrails), Collections.unmodifiableSet(new LinkedHashSet<>(firstSeenAt.keySet())), true);
    }

    private record Params(String type, Set<GuardrailMode> modes, boolean defaultOn,
            List<String> blockedWords, List<ContentPattern> patterns) {}

    private Optional<Params> params(ConfigNode node) {
        if (node.isAbsent()) {
            read.problems().missing(node, PARAMS_RULE);
            return Optional.empty();
        }
        if (!node.isMap()) {
            read.problems().add(node, ShownValue.of(node.value(), false), PARAMS_RULE);
            return Optional.empty();
        }
        Section params = Section.open(node, ignored, read.problems(), PARAMS_RULE);
        Optional<String> type = type(params.take("guardrail"));
        Optional<Set<GuardrailMode>> modes = modes(params.take("mode"));
        boolean defaultOn = read.bool(params.take("default_on")).orElse(false);
        ConfigNode wordsNode = params.take("blocked_words");
        ConfigNode patternsNode = params.take("patterns");
        List<String> words = blockedWords(wordsNode);
        List<ContentPattern> patterns = patterns(patternsNode);
        boolean unsupportedSource = unsupported(params.take("categories"),
                "blocked_words or patterns instead; Sluice has no built-in categories")
                | unsupported(params.take("blocked_words_file"), "blocked_words instead; Sluice does not read keyword files");
        params.finish();
        if (type.isPresent() && !unsupportedSource && isEmpty(wordsNode) && isEmpty(patternsNode)) {
            read.problems().add(node, ShownValue.of(node.value(), false), "blocked_words or patterns with at least one entry");
        }
        if (type.isEmpty() || modes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new Params(type.get(), modes.get(), defaultOn, words, patterns));
    }

    private Optional<String> type(ConfigNode node) {
        if (node.isAbsent()) {
            read.problems().missing(node, TYPE_RULE);
            return Optional.empty();
        }
        return read.string(node, TYPES::contains, TYPE_RULE);
    }

    /** LiteLLM's {@code mode}: one mode or a list of them. */
    private Optional<Set<GuardrailMode>> modes(ConfigNode node) {
        if (node.isAbsent()) {
            read.problems().missing(node, MODE_RULE);
            return Optional.empty();
        }
        if (node.isMap() || (node.isList() && node.items().isEmpty())) {
            read.problems().add(node, ShownValue.of(node.value(), false), MODE_RULE);
            return Optional.empty();
        }
        List<ConfigNode> items = node.isList() ? node.items() : List.of(node);
        Set<GuardrailMode> modes = EnumSet.noneOf(GuardrailMode.class);
        boolean allRead = true;
        for (ConfigNode item : items) {
            Optional<GuardrailMode> mode = mode(item, node.isList() ? "pre_call or post_call" : MODE_RULE);
            mode.ifPresent(modes::add);
            allRead &= mode.isPresent();
        }
        return allRead ? Optional.of(modes) : Optional.empty();
    }

    private Optional<GuardrailMode> mode(ConfigNode node, String rule) {
        if (node.isAbsent()) {
            read.problems().missing(node, rule);
            return Optional.empty();
        }
        String written = node.value().asText();
        String why = switch (written) {
            case "during_call" -> "pre_call or post_call; Sluice has no during_call: pre_call checks the prompt before"
                    + " the call, post_call the answer after it";
            case "logging_only" -> "pre_call or post_call; Sluice has no logging_only: it does not log prompts or answers";
            default -> rule;
        };
        return read.string(node, text -> text.equals("pre_call") || text.equals("post_call"), why)
                .map(text -> text.equals("pre_call") ? GuardrailMode.PRE_CALL : GuardrailMode.POST_CALL);
    }

    /** LiteLLM's {@code blocked_words}: keywords, each written bare or as {@code {keyword, action, description}}. */
    private List<String> blockedWords(ConfigNode node) {
        if (node.isAbsent()) {
            return List.of();
        }
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a list of keywords");
            return List.of();
        }
        List<String> words = new ArrayList<>();
        for (ConfigNode item : node.items()) {
            if (item.isMap()) {
                Section word = Section.open(item, ignored, read.problems(), WORD_RULE);
                Optional<String> keyword = keyword(word.take("keyword"));
                action(word.take("action"));
                read.string(word.take("description"));
                word.finish();
                keyword.ifPresent(words::add);
            } else if (item.isAbsent() || item.isList()) {
                read.problems().add(item, ShownValue.of(item.value(), false), WORD_RULE);
            } else {
                keyword(item).ifPresent(words::add);
            }
        }
        return words;
    }

    private Optional<String> keyword(ConfigNode node) {
        if (node.isAbsent()) {
            read.problems().missing(node, "a non-empty string");
            return Optional.empty();
        }
        return read.string(node).filter(text -> {
            if (text.isBlank()) {
                read.problems().add(node, ShownValue.of(node.value(), false), "a keyword that is not only spaces");
            }
            return !text.isBlank();
        }).map(String::strip);
    }

    /** Sluice refuses a matching call; it has no MASK, and saying so beats forwarding unmasked text. */
    private void action(ConfigNode node) {
        if (node.isAbsent()) {
            return;
        }
        boolean mask = node.value().isTextual() && node.value().textValue().equalsIgnoreCase("MASK");
        read.string(node, text -> text.equalsIgnoreCase("BLOCK"),
                mask ? "BLOCK; Sluice refuses a call that matches and does not mask" : "BLOCK");
    }

    /** LiteLLM's {@code patterns}: {@code pattern_type: regex} with {@code pattern}, or {@code prebuilt} with {@code pattern_name}. */
    private List<ContentPattern> patterns(ConfigNode node) {
        if (node.isAbsent()) {
            return List.of();
        }
        if (!node.isList()) {
            read.problems().add(node, ShownValue.of(node.value(), false), "a list of patterns, each " + PATTERN_RULE);
            return List.of();
        }
        List<ContentPattern> patterns = new ArrayList<>();
        List<ConfigNode> items = node.items();
        for (int i = 0; i < items.size(); i++) {
            ConfigNode item = items.get(i);
            if (!item.isMap()) {
                read.problems().add(item, ShownValue.of(item.value(), false), PATTERN_RULE);
                continue;
            }
            pattern(item, "patterns[" + i + "]").ifPresent(patterns::add);
        }
        return patterns;
    }

    private Optional<ContentPattern> pattern(ConfigNode item, String place) {
        Section pattern = Section.open(item, ignored, read.problems(), PATTERN_RULE);
        ConfigNode typeNode = pattern.take("pattern_type");
        Optional<String> type = typeNode.isAbsent() ? Optional.empty() : read.oneOf(typeNode, List.of("regex", "prebuilt"));
        if (typeNode.isAbsent()) {
            read.problems().missing(typeNode, "one of regex, prebuilt");
        }
        ConfigNode regexNode = pattern.take("pattern");
        ConfigNode prebuiltNode = pattern.take("pattern_name");
        Optional<String> name = read.string(pattern.take("name"));
        action(pattern.take("action"));
        pattern.finish();
        if (type.isEmpty()) {
            return Optional.empty();
        }
        if (type.get().equals("regex")) {
            if (!prebuiltNode.isAbsent()) {
                ignored.notActedOn(prebuiltNode); // LiteLLM reads pattern_name only for prebuilt patterns
            }
            if (regexNode.isAbsent()) {
                read.problems().missing(regexNode, "a regular expression");
                return Optional.empty();
            }
            return read.regex(regexNode).map(regex -> new ContentPattern(name.orElse(place), "regex", regex));
        }
        if (!regexNode.isAbsent()) {
            ignored.notActedOn(regexNode); // LiteLLM reads pattern only for regex patterns
        }
        String prebuiltRule = "a prebuilt pattern Sluice has: " + PrebuiltPatterns.names();
        if (prebuiltNode.isAbsent()) {
            read.problems().missing(prebuiltNode, prebuiltRule);
            return Optional.empty();
        }
        return read.string(prebuiltNode, text -> PrebuiltPatterns.regex(text).isPresent(), prebuiltRule)
                .map(prebuilt -> new ContentPattern(name.orElse(prebuilt), "prebuilt", PrebuiltPatterns.regex(prebuilt).orElseThrow()));
    }

    /** A setting Sluice does not have; true (and a problem) when it is written. */
    private boolean unsupported(ConfigNode node, String rule) {
        if (!node.isAbsent()) {
            read.problems().add(node, ShownValue.of(node.value(), false), rule);
        }
        return !node.isAbsent();
    }

    private static boolean isEmpty(ConfigNode list) {
        return list.isAbsent() || (list.isList() && list.items().isEmpty());
    }
}
