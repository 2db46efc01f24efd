package dev.sluice.admin.ui;

import dev.sluice.wire.ApiError;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Serves the UI's files: {@code /ui}, {@code /ui/} and {@code /ui/<page>} answer
 * {@code index.html} (the page script reads the path), {@code /ui/assets/<file>} the file.
 * Only {@code GET} and {@code HEAD}. Each answer has an {@code ETag} and
 * {@code Cache-Control: no-cache}, so a browser asks again each time and gets a 304 while the
 * file is unchanged. A path that could climb out of the UI's folder ({@code ..}, a percent
 * escape, a backslash, an empty segment) is not looked up at all: it is a 404, as is any file
 * the UI does not have.
 */
public final class UiPages {
    /** A page's name: one path segment of letters, digits, {@code -} and {@code _}. */
    private static final Pattern PAGE = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    /** A file's path under {@code assets/}: segments of such characters, each with at most one dot, none leading. */
    private static final Pattern ASSET = Pattern.compile("([A-Za-z0-9_-]+/)*[A-Za-z0-9_-]+\\.[A-Za-z0-9]+");

    private final UiFiles files;

    public UiPages(UiFiles files) {
        this.files = files;
    }

    public void handle(HttpServerRequest request) {
        HttpMethod method = request.method();
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            request.response().putHeader("Allow", "GET, HEAD");
            throw new ApiError(405, "invalid_request_error", "Method " + method + " is not allowed on " + request.path()
                    + "; use GET or HEAD.", null, "method_not_allowed");
        }
        UiFile file = find(request.path()).orElseThrow(() -> ApiError.notFound("The admin UI has no file at "
                + request.path() + ".", "unknown_route"));
        HttpServerResponse response = request.response()
                .putHeader("ETag", file.etag())
                .putHeader("Cache-Control", "no-cache");
        if (file.matches(request.getHeader("If-None-Match"))) {
            response.setStatusCode(304).end();
            return;
        }
        response.setStatusCode(200).putHeader("Content-Type", file.contentType()).end(file.bytes());
    }

    /** The file a request path names; empty for anything else. */
    Optional<UiFile> find(String path) {
        if (path.equals("/ui") || path.equals("/ui/")) {
            return files.get(UiFiles.INDEX);
        }
        String rest = path.substring("/ui/".length());
        if (rest.startsWith("assets/")) {
            String asset = rest.substring("assets/".length());
            return ASSET.matcher(asset).matches() ? files.get(rest) : Optional.empty();
        }
        if (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        return PAGE.matcher(rest).matches() && !rest.equals("api") && !rest.equals("assets")
                ? files.get(UiFiles.INDEX) : Optional.empty();
    }
}
