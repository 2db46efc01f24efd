package dev.sluice.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One written value of the router-settings vocabulary, with where it was written, as its
 * source presents it to the readers: the config file (variables resolved, numbers may be
 * text, every problem collected) or a JSON body (values typed, the first problem a 400).
 * The readers hold the rules; a {@code Written} holds what differs between sources.
 */
public interface Written {
    /** Where the value was written, as problems name it: {@code router_settings.num_retries}. */
    String path();

    /** Not written, or written as null. */
    boolean isAbsent();

    boolean isMap();

    boolean isList();

    /** The items of a list in order; none for anything else. */
    List<Written> items();

    /** The entries of a map in order; none for anything else. */
    List<Map.Entry<String, Written>> entries();

    /** The value as a problem shows it: as written for a scalar, by its kind for a map or a list. */
    String shown();

    /**
     * A scalar as the source resolves it; empty when absent, or when it cannot be resolved
     * (the source has recorded why).
     */
    Optional<Scalar> scalar();

    /** Whether a number may be written as text, as variables and YAML allow: {@code "3"}. */
    boolean numbersAsText();

    /** Records that the value breaks a rule; a source may stop reading here by throwing. */
    void problem(String shown, String expected);

    /**
     * A resolved scalar.
     *
     * @param shown     how a problem shows it when its type is wrong
     * @param shownText how a problem shows text whose content, not type, is wrong
     */
    record Scalar(JsonNode value, String shown, String shownText) {}
}
