package dev.sluice.edge;

import dev.sluice.admin.ui.UiEndpoints;
import dev.sluice.admin.ui.UiHeaders;
import dev.sluice.edge.Routes.Route;
import io.vertx.core.http.HttpMethod;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admin UI's routes: {@code /ui/api/session}, and {@code /ui} with everything under it
 * answered by the UI's files. Each route checks its methods itself.
 */
final class UiRoutes {
    static final String SESSION = "/ui/api/session";

    private UiRoutes() {}

    /** The routes of exact paths. */
    static Map<String, Route> of(Optional<UiEndpoints> ui) {
        return ui.map(endpoints -> Map.of(
                "/ui", new Route(null, endpoints.pages()::handle),
                SESSION, new Route(null, endpoints.sessions()::handle))).orElse(Map.of());
    }

    /** The methods {@code GET /routes} lists for one of {@link #of}'s paths. */
    static List<HttpMethod> methods(String path) {
        return path.equals(SESSION) ? List.of(HttpMethod.POST, HttpMethod.GET, HttpMethod.DELETE)
                : List.of(HttpMethod.GET, HttpMethod.HEAD);
    }

    /** The route of a path under {@code /ui/} that is not {@link #of} one: the UI's files; null for any other path. */
    static Route under(Optional<UiEndpoints> ui, String path) {
        return ui.isPresent() && UiHeaders.isUiPath(path) ? new Route(null, ui.get().pages()::handle) : null;
    }
}
