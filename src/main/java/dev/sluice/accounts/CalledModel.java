package dev.sluice.accounts;

/**
 * The model a call asks for, as model access judges it.
 *
 * @param asked the name the request gave in {@code model}
 * @param group the model group that serves it: the same name, the group an alias stands for,
 *              or the pattern of the wildcard group that matched ({@code openai/*})
 */
public record CalledModel(String asked, String group) {
    /** A call naming its group itself. */
    public static CalledModel of(String group) {
        return new CalledModel(group, group);
    }
}
