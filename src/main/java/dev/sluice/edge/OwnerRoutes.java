package dev.sluice.edge;

import dev.sluice.admin.AccountHandlers;
import dev.sluice.admin.OwnerHandlers;
import dev.sluice.edge.Routes.Route;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The routes of LiteLLM's user, team member, organization and customer APIs, with LiteLLM's
 * methods: {@code PATCH /organization/update}, {@code DELETE /organization/delete}, and the
 * customer routes also under {@code /end_user/}.
 */
final class OwnerRoutes {
    private OwnerRoutes() {}

    static Map<String, Route> of(Optional<OwnerHandlers> owners) {
        Map<String, Route> routes = new LinkedHashMap<>();
        crud(routes, owners, "/user/", OwnerHandlers::users, HttpMethod.POST, HttpMethod.POST);
        add(routes, owners, "/team/member_add", HttpMethod.POST, o -> o.members()::add);
        add(routes, owners, "/team/member_update", HttpMethod.POST, o -> o.members()::update);
        add(routes, owners, "/team/member_delete", HttpMethod.POST, o -> o.members()::delete);
        crud(routes, owners, "/organization/", OwnerHandlers::organizations, HttpMethod.PATCH, HttpMethod.DELETE);
        for (String prefix : new String[] {"/customer/", "/end_user/"}) {
            crud(routes, owners, prefix, OwnerHandlers::customers, HttpMethod.POST, HttpMethod.POST);
            add(routes, owners, prefix + "block", HttpMethod.POST, o -> o.customers()::block);
            add(routes, owners, prefix + "unblock", HttpMethod.POST, o -> o.customers()::unblock);
        }
        return routes;
    }

    /** One account kind's five routes under {@code prefix}, with the methods LiteLLM gives its update and delete. */
    private static void crud(Map<String, Route> routes, Optional<OwnerHandlers> owners, String prefix,
            Function<OwnerHandlers, AccountHandlers> kind, HttpMethod update, HttpMethod delete) {
        add(routes, owners, prefix + "new", HttpMethod.POST, o -> kind.apply(o)::create);
        add(routes, owners, prefix + "info", HttpMethod.GET, o -> kind.apply(o)::info);
        add(routes, owners, prefix + "update", update, o -> kind.apply(o)::update);
        add(routes, owners, prefix + "delete", delete, o -> kind.apply(o)::delete);
        add(routes, owners, prefix + "list", HttpMethod.GET, o -> kind.apply(o)::list);
    }

    private static void add(Map<String, Route> routes, Optional<OwnerHandlers> owners, String path, HttpMethod method,
            Function<OwnerHandlers, Handler<HttpServerRequest>> handler) {
        routes.put(path, new Route(method, owners.map(handler).orElse(Routes.needsMasterKey("users, organizations and customers"))));
    }
}
