package dev.sluice.edge;

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
        add(routes, owners, "/user/new", HttpMethod.POST, o -> o.users()::create);
        add(routes, owners, "/user/info", HttpMethod.GET, o -> o.users()::info);
        add(routes, owners, "/user/update", HttpMethod.POST, o -> o.users()::update);
        add(routes, owners, "/user/delete", HttpMethod.POST, o -> o.users()::delete);
        add(routes, owners, "/user/list", HttpMethod.GET, o -> o.users()::list);
        add(routes, owners, "/team/member_add", HttpMethod.POST, o -> o.members()::add);
        add(routes, owners, "/team/member_update", HttpMethod.POST, o -> o.members()::update);
        add(routes, owners, "/team/member_delete", HttpMethod.POST, o -> o.members()::delete);
        add(routes, owners, "/organization/new", HttpMethod.POST, o -> o.organizations()::create);
        add(routes, owners, "/organization/info", HttpMethod.GET, o -> o.organizations()::info);
        add(routes, owners, "/organization/update", HttpMethod.PATCH, o -> o.organizations()::update);
        add(routes, owners, "/organization/delete", HttpMethod.DELETE, o -> o.organizations()::delete);
        add(routes, owners, "/organization/list", HttpMethod.GET, o -> o.organizations()::list);
        for (String prefix : new String[] {"/customer/", "/end_user/"}) {
            add(routes, owners, prefix + "new", HttpMethod.POST, o -> o.customers()::create);
            add(routes, owners, prefix + "info", HttpMethod.GET, o -> o.customers()::info);
            add(routes, owners, prefix + "update", HttpMethod.POST, o -> o.customers()::update);
            add(routes, owners, prefix + "delete", HttpMethod.POST, o -> o.customers()::delete);
            add(routes, owners, prefix + "list", HttpMethod.GET, o -> o.customers()::list);
            add(routes, owners, prefix + "block", HttpMethod.POST, o -> o.customers()::block);
            add(routes, owners, prefix + "unblock", HttpMethod.POST, o -> o.customers()::unblock);
        }
        return routes;
    }

    private static void add(Map<String, Route> routes, Optional<OwnerHandlers> owners, String path, HttpMethod method,
            Function<OwnerHandlers, Handler<HttpServerRequest>> handler) {
        routes.put(path, new Route(method, owners.map(handler).orElse(Routes.needsMasterKey("users, organizations and customers"))));
    }
}
