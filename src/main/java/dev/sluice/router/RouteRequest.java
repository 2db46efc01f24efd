package dev.sluice.router;

import dev.sluice.router.strategy.RequestFacts;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * One request to route: what the router needs from the call path, and nothing of HTTP.
 *
 * @param callId    names the request in events and logs
 * @param group     the group the caller asked for, which must exist
 * @param overrides what the caller (and its team) asked of the router for this request
 * @param facts     what strategies and pre-call checks read of the request
 * @param tags      the request's tags, each once, for tag-based routing ({@link dev.sluice.router.precall.TagFilter})
 * @param attempter makes each attempt
 * @param delays    waits before a repeat
 * @param cancelled true once the caller has left; checked before every attempt
 * @param gate      the caller's say over each fallback group
 */
public record RouteRequest<T>(String callId, ModelGroup group, CallerOverrides overrides, RequestFacts facts, List<String> tags,
        Attempter<T> attempter, Delays delays, BooleanSupplier cancelled, FallbackGate gate) {
    public RouteRequest {
        tags = List.copyOf(tags);
    }
}
