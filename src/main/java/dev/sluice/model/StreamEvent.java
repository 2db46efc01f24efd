package dev.sluice.model;

/**
 * One step of a streamed chat answer in the internal model. A stream is one {@link Started},
 * then deltas of reasoning, text and tool calls, then {@link Finished}; {@link UsageReported}
 * may come before or after {@code Finished}, as vendors differ. Joining a stream's deltas
 * gives the content of the {@link ChatAnswer} the same call would have had.
 */
public sealed interface StreamEvent {

    /** The answer began. */
    record Started(String id, String model) implements StreamEvent {
        public Started {
            Checks.present(id, "id");
            Checks.present(model, "model");
        }
    }

    /** A fragment of the answer's text. */
    record TextDelta(String text) implements StreamEvent {
        public TextDelta {
            Checks.present(text, "text");
        }
    }

    /**
     * A fragment of reasoning. Anthropic sends a thinking block's signature once its text is
     * done; it rides on the delta it came with, whose text may then be empty.
     *
     * @param text      the fragment, or a redacted block's opaque data
     * @param signature the block's signature when this delta carries it, else null
     * @param redacted  whether {@code text} is encrypted data rather than readable reasoning
     */
    record ReasoningDelta(String text, String signature, boolean redacted) implements StreamEvent {
        public ReasoningDelta {
            Checks.present(text, "text");
        }
    }

    /**
     * A fragment of a tool call. The first fragment of each call carries its id and name; the
     * arguments' JSON text arrives in pieces to be joined in order.
     *
     * @param index     which tool call of the answer this belongs to, from 0
     * @param id        the call's id on its first fragment, else null
     * @param name      the tool's name on its first fragment, else null
     * @param arguments the next piece of the arguments' JSON text, possibly empty
     */
    record ToolCallDelta(int index, String id, String name, String arguments) implements StreamEvent {
        public ToolCallDelta {
            Checks.notNegative(index, "index");
            Checks.present(arguments, "arguments");
        }
    }

    /** The model stopped writing. */
    record Finished(FinishReason reason) implements StreamEvent {
        public Finished {
            Checks.present(reason, "reason");
        }
    }

    /** The tokens the call used, as far as the vendor reports them. */
    record UsageReported(Usage usage) implements StreamEvent {
        public UsageReported {
            Checks.present(usage, "usage");
        }
    }
}
