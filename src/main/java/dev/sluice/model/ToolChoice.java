package dev.sluice.model;

/**
 * Whether and which tool the model must call: OpenAI's {@code tool_choice}, Anthropic's
 * {@code tool_choice}, Gemini's {@code functionCallingConfig}.
 *
 * @param mode     the rule
 * @param toolName the one tool to call when {@code mode} is {@link Mode#TOOL}, else null
 */
public record ToolChoice(Mode mode, String toolName) {
    public static final ToolChoice AUTO = new ToolChoice(Mode.AUTO, null);
    public static final ToolChoice NONE = new ToolChoice(Mode.NONE, null);
    public static final ToolChoice REQUIRED = new ToolChoice(Mode.REQUIRED, null);

    public enum Mode {
        /** The model decides. */
        AUTO,
        /** The model must not call a tool. */
        NONE,
        /** The model must call at least one tool (Anthropic's {@code any}). */
        REQUIRED,
        /** The model must call the one tool named. */
        TOOL
    }

    public ToolChoice {
        Checks.present(mode, "mode");
        if (mode == Mode.TOOL) {
            Checks.notBlank(toolName, "toolName");
        } else if (toolName != null) {
            throw new IllegalArgumentException("toolName: " + toolName + " (expected: none unless mode is TOOL)");
        }
    }

    public static ToolChoice tool(String name) {
        return new ToolChoice(Mode.TOOL, name);
    }
}
