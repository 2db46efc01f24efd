package dev.sluice.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A model name with {@code *} in it ({@code openai/*}, {@code my-prefix/*}, {@code *}), as
 * LiteLLM's wildcard routing reads it: each {@code *} stands for any text, and a name matches
 * when the pattern matches its start (LiteLLM's {@code re.match}), so a pattern that ends in
 * {@code *} matches whole names.
 *
 * <p>What each {@code *} matched goes, in order, into the deployment's own {@code *}s
 * ({@link #substitute}): {@code model_name: my-prefix/*} with {@code model: openai/*} serves
 * {@code my-prefix/gpt-4o} as {@code openai/gpt-4o}.
 */
public final class WildcardPattern {
    /** Most specific first: the longer pattern, then the one with more {@code *}s, as LiteLLM sorts them. */
    public static final Comparator<WildcardPattern> MOST_SPECIFIC_FIRST = Comparator
            .comparingInt((WildcardPattern p) -> p.text.length())
            .thenComparingLong(p -> p.text.chars().filter(c -> c == '*').count())
            .reversed();

    private final String text;
    private final Pattern regex;

    private WildcardPattern(String text) {
        this.text = text;
        List<String> parts = new ArrayList<>();
        for (String literal : text.split("\\*", -1)) {
            parts.add(literal.isEmpty() ? "" : Pattern.quote(literal));
        }
        this.regex = Pattern.compile(String.join("(.*)", parts), Pattern.DOTALL);
    }

    /** Whether {@code name} is a pattern at all: whether it holds a {@code *}. */
    public static boolean isPattern(String name) {
        return name.indexOf('*') >= 0;
    }

    public static WildcardPattern of(String pattern) {
        return new WildcardPattern(pattern);
    }

    public String text() {
        return text;
    }

    public boolean matches(String name) {
        return regex.matcher(name).lookingAt();
    }

    /** What each {@code *} matched in {@code name}, in order; empty when the name does not match. */
    public Optional<List<String>> segments(String name) {
        Matcher matcher = regex.matcher(name);
        if (!matcher.lookingAt()) {
            return Optional.empty();
        }
        List<String> segments = new ArrayList<>(matcher.groupCount());
        for (int i = 1; i <= matcher.groupCount(); i++) {
            segments.add(matcher.group(i));
        }
        return Optional.of(segments);
    }

    /**
     * The model a deployment written {@code deploymentModel} asks for when called as
     * {@code requested}, which matched with {@code segments}: the deployment's {@code *}s
     * filled with the segments in order; a model without {@code *} as written; the requested
     * name itself when it matched more segments than the model has {@code *}s (LiteLLM's rules).
     */
    public static String substitute(String deploymentModel, List<String> segments, String requested) {
        if (!isPattern(deploymentModel)) {
            return deploymentModel;
        }
        long stars = deploymentModel.chars().filter(c -> c == '*').count();
        if (segments.size() > stars) {
            return requested;
        }
        StringBuilder model = new StringBuilder(deploymentModel);
        int from = 0;
        for (String segment : segments) {
            int star = model.indexOf("*", from);
            model.replace(star, star + 1, segment);
            from = star + segment.length();
        }
        return model.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
