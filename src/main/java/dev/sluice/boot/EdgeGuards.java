package dev.sluice.boot;

import dev.sluice.config.EdgeSettings;
import dev.sluice.edge.ConnectionRefusals;
import dev.sluice.edge.OpenConnections;
import dev.sluice.http.BodyLimits;
import dev.sluice.http.ClientAddresses;
import dev.sluice.ops.metrics.GatewayMetrics;
import dev.sluice.ops.overload.Overload;
import java.util.List;
import java.util.Map;

/**
 * What bounds a gateway's edge over all its event loops: the connections open, those refused
 * as they were accepted, the load it sheds, and what a route reachable without a key may read.
 *
 * @param connections     counted in all and per client address
 * @param refusals        connections closed as they were accepted, by why
 * @param overload        the calls served at once, the heap's pressure, liveness
 * @param unauthenticated the body limits of routes reachable without a key (the UI's sign-in)
 * @param addresses       who a request is from, behind the trusted proxies
 */
record EdgeGuards(OpenConnections connections, ConnectionRefusals refusals, Overload overload, BodyLimits unauthenticated,
        ClientAddresses addresses) {

    static EdgeGuards of(EdgeSettings settings, Overload overload, GatewayMetrics metrics) {
        EdgeGuards guards = new EdgeGuards(
                new OpenConnections(settings.openConnectionsBound(), settings.connections().maxPerAddress(),
                        settings.connections().trustedProxies()),
                new ConnectionRefusals(), overload, BodyLimits.unauthenticated(settings.requestBodyTimeout()),
                new ClientAddresses(settings.connections().trustedProxies()));
        guards.measure(metrics);
        return guards;
    }

    private void measure(GatewayMetrics metrics) {
        metrics.gauge("sluice_open_connections", "Connections open on the gateway's port now, against "
                + "general_settings.max_open_connections.", () -> (double) connections.count());
        metrics.counterOf("sluice_connections_refused_total", "Connections closed as they were accepted: too_many (past "
                + "max_open_connections), per_address (past max_connections_per_ip).",
                () -> Map.of(List.of("too_many"), (double) refusals.tooMany(), List.of("per_address"),
                        (double) refusals.tooManyFromAddress()), "reason");
        metrics.gauge("sluice_calls_in_flight", "Calls the gateway serves now, against "
                + "general_settings.global_max_parallel_requests.", () -> (double) overload.slots().inUse());
        metrics.gauge("sluice_calls_in_flight_max", "The most calls the gateway serves at once: "
                + "general_settings.global_max_parallel_requests, else what the heap holds.", () -> (double) overload.slots().max());
        metrics.gauge("sluice_heap_shedding", "1 while the heap is too full to take new work (every route but liveness and metrics answers 503), else 0.",
                () -> overload.shedding() ? 1.0 : 0.0);
        metrics.gauge("sluice_gc_time_share", "The share of the last 10 s the JVM spent collecting garbage.",
                () -> overload.liveness().gcShare());
        metrics.gauge("sluice_unauthenticated_body_bytes_held", "Bytes of request bodies read without a key (the UI's "
                + "sign-in) held now, against their own budget.", () -> (double) unauthenticated.budget().held());
    }
}
