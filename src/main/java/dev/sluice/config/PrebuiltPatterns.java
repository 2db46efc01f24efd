package dev.sluice.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code pattern_type: prebuilt} patterns Sluice has, by LiteLLM's {@code pattern_name}.
 * Only names whose format is unambiguous are here; any other name is a config error rather
 * than a pattern that quietly matches something else.
 */
final class PrebuiltPatterns {
    private static final Map<String, String> PATTERNS = new LinkedHashMap<>();

    static {
        // 123-45-6789, without the area and group numbers never issued.
        PATTERNS.put("us_ssn", "\\b(?!000|666|9\\d\\d)\\d{3}-(?!00)\\d{2}-(?!0000)\\d{4}\\b");
        PATTERNS.put("email", "\\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}\\b");
        // 16-digit card numbers, optionally grouped by four with spaces or dashes.
        PATTERNS.put("visa", "\\b4\\d{3}(?:[ -]?\\d{4}){3}\\b");
        PATTERNS.put("mastercard", "\\b(?:5[1-5]\\d{2}|2[2-7]\\d{2})(?:[ -]?\\d{4}){3}\\b");
        // 15 digits grouped 4-6-5.
        PATTERNS.put("amex", "\\b3[47]\\d{2}[ -]?\\d{6}[ -]?\\d{5}\\b");
        // Long-term (AKIA) and temporary (ASIA) access key ids.
        PATTERNS.put("aws_access_key", "\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b");
        // Classic tokens (ghp_, gho_, ghu_, ghs_, ghr_) and fine-grained ones (github_pat_).
        PATTERNS.put("github_token", "\\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\\b");
    }

    private PrebuiltPatterns() {}

    static Optional<String> regex(String name) {
        return Optional.ofNullable(PATTERNS.get(name));
    }

    /** The names in a stable order, for the rule of a problem. */
    static String names() {
        return String.join(", ", PATTERNS.keySet());
    }
}
