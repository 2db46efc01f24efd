package dev.sluice.admin;

import io.vertx.core.http.HttpServerRequest;

/**
 * The five calls every stored account kind's API answers, LiteLLM's {@code /<kind>/new},
 * {@code info}, {@code update}, {@code delete} and {@code list}, so the route table lays them
 * out once for users, organizations and customers alike.
 */
public interface AccountHandlers {
    void create(HttpServerRequest request);

    void info(HttpServerRequest request);

    void update(HttpServerRequest request);

    void delete(HttpServerRequest request);

    void list(HttpServerRequest request);
}
