package dev.sluice.model;

import java.util.List;

/**
 * A chat call in the internal model: what every entry API's chat request decodes into when
 * its vendor speaks another dialect, and what every provider adapter encodes from. A call
 * whose entry API and vendor share a {@link Dialect} never becomes one; its body passes
 * through as the caller wrote it.
 *
 * @param model      the model or group the caller named
 * @param messages   the conversation so far, instructions included, in order
 * @param tools      the tools the model may call; empty when none
 * @param toolChoice whether and which tool the model must call, or null to leave it to the vendor
 * @param sampling   the shared sampling settings
 * @param stream     whether the caller wants the answer as a stream of events
 * @param extra      what the caller sent that none of the above covers
 */
public record ChatRequest(String model, List<Message> messages, List<Tool> tools, ToolChoice toolChoice, Sampling sampling,
        boolean stream, ExtraFields extra) {
    public ChatRequest {
        Checks.notBlank(model, "model");
        messages = Checks.listOf(messages, "messages");
        tools = Checks.listOf(tools, "tools");
        Checks.present(sampling, "sampling");
        Checks.present(extra, "extra");
    }
}
