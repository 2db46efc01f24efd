package dev.sluice.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.accounts.AccountChanges;
import dev.sluice.accounts.Caller;
import dev.sluice.store.CustomerRepository;
import dev.sluice.store.Database;
import dev.sluice.store.KeyRepository;
import dev.sluice.store.OrganizationRepository;
import dev.sluice.store.Team;
import dev.sluice.store.TeamMemberRepository;
import dev.sluice.store.TeamRepository;
import dev.sluice.store.UserRepository;
import dev.sluice.store.VirtualKey;
import dev.sluice.testing.FakeClock;
import dev.sluice.wire.ApiError;
import dev.sluice.wire.Json;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The key and team API on a real HTTP server on a free loopback port, over a real store,
 * with a route table of its own and a stand-in for the gateway's authentication:
 * {@code Bearer sk-master} is the master key, any other bearer is looked up as a virtual
 * key, no bearer is a 401. Started without a master key, every caller is
 * {@link Caller#OPEN}. The clock is a {@link FakeClock}; every {@code AccountChanges} call
 * is recorded in {@link #changes()} as {@code key:<token>} or {@code team:<id>}.
 */
final class AccountApiServer implements AutoCloseable {
    static final String MASTER_KEY = "sk-master";
    /** Small, so a test can send a body over the limit. */
    static final long MAX_REQUEST_BYTES = 64 * 1024;

    private final Vertx vertx;
    private final int port;
    private final FakeClock clock;
    private final List<String> changes;
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    private AccountApiServer(Vertx vertx, int port, FakeClock clock, List<String> changes) {
        this.vertx = vertx;
        this.port = port;
        this.clock = clock;
        this.changes = changes;
    }

    /** The API with a master key configured. */
    static AccountApiServer start(Database database) {
        return start(database, true);
    }

    /** The API as a gateway without {@code general_settings.master_key} has it. */
    static AccountApiServer withoutMasterKey(Database database) {
        return start(database, false);
    }

    private static AccountApiServer start(Database database, boolean masterKeySet) {
        FakeClock clock = new FakeClock();
        List<String> changes = Collections.synchronizedList(new ArrayList<>());
        AccountChanges recorder = new AccountChanges() {
            @Override
            public void keyChanged(String tokenHash) {
                changes.add("key:" + tokenHash);
            }

            @Override
            public void teamChanged(String teamId) {
                changes.add("team:" + teamId);
            }
        };
        KeyRepository keys = new KeyRepository(database);
        TeamRepository teams = new TeamRepository(database);
        Vertx vertx = Vertx.vertx();
        try {
            ApiVerticle verticle = new ApiVerticle(loop -> new AccountApi(authentication(loop, masterKeySet, keys, teams), keys,
                    teams, clock, recorder, new dev.sluice.http.BodyLimits(MAX_REQUEST_BYTES, new dev.sluice.http.BodyBudget(Long.MAX_VALUE),
                    dev.sluice.wire.JsonLimits.DEFAULTS, java.time.Duration.ofSeconds(15)), System::nanoTime, new OwnerRepositories(new UserRepository(database),
                    new TeamMemberRepository(database), new OrganizationRepository(database), new CustomerRepository(database))));
            vertx.deployVerticle(verticle).await(30, TimeUnit.SECONDS);
            return new AccountApiServer(vertx, verticle.server.actualPort(), clock, changes);
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("the key API did not start: " + e.getMessage(), e);
        }
    }

    private static Function<HttpServerRequest, Future<Caller>> authentication(Vertx vertx, boolean masterKeySet,
            KeyRepository keys, TeamRepository teams) {
        return request -> {
            if (!masterKeySet) {
                return Future.succeededFuture(Caller.OPEN);
            }
            String authorization = request.getHeader("Authorization");
            if (authorization == null || !authorization.startsWith("Bearer ")) {
                return Future.failedFuture(ApiError.unauthorized("No API key passed in."));
            }
            String presented = authorization.substring("Bearer ".length()).strip();
            if (presented.equals(MASTER_KEY)) {
                return Future.succeededFuture(Caller.ADMIN);
            }
            return vertx.executeBlocking(() -> {
                VirtualKey key = keys.findByHash(VirtualKey.hash(presented))
                        .orElseThrow(() -> ApiError.unauthorized("Invalid API key."));
                Optional<Team> team = key.owner().teamId().flatMap(teams::findById);
                return new Caller.Keyed(key, team, presented);
            }, false);
        };
    }

    /** The route table the gateway's own will hold, built on the verticle's event loop. */
    private static final class ApiVerticle extends VerticleBase {
        private final Function<Vertx, AccountApi> api;
        private HttpServer server;

        ApiVerticle(Function<Vertx, AccountApi> api) {
            this.api = api;
        }

        @Override
        public Future<?> start() {
            AccountApi accounts = api.apply(vertx);
            KeyAdminHandlers keys = new KeyAdminHandlers(vertx, accounts);
            TeamAdminHandlers teams = new TeamAdminHandlers(vertx, accounts);
            OwnerHandlers owners = OwnerHandlers.of(vertx, accounts);
            Map<String, Handler<HttpServerRequest>> routes = Map.ofEntries(
                    Map.entry("POST /user/new", owners.users()::create),
                    Map.entry("GET /user/info", owners.users()::info),
                    Map.entry("POST /user/update", owners.users()::update),
                    Map.entry("POST /user/delete", owners.users()::delete),
                    Map.entry("GET /user/list", owners.users()::list),
                    Map.entry("POST /team/member_add", owners.members()::add),
                    Map.entry("POST /team/member_update", owners.members()::update),
                    Map.entry("POST /team/member_delete", owners.members()::delete),
                    Map.entry("POST /organization/new", owners.organizations()::create),
                    Map.entry("GET /organization/info", owners.organizations()::info),
                    Map.entry("PATCH /organization/update", owners.organizations()::update),
                    Map.entry("DELETE /organization/delete", owners.organizations()::delete),
                    Map.entry("GET /organization/list", owners.organizations()::list),
                    Map.entry("POST /customer/new", owners.customers()::create),
                    Map.entry("GET /customer/info", owners.customers()::info),
                    Map.entry("POST /customer/update", owners.customers()::update),
                    Map.entry("POST /customer/delete", owners.customers()::delete),
                    Map.entry("GET /customer/list", owners.customers()::list),
                    Map.entry("POST /customer/block", owners.customers()::block),
                    Map.entry("POST /customer/unblock", owners.customers()::unblock),
                    Map.entry("POST /key/generate", keys::generate),
                    Map.entry("GET /key/info", keys::info),
                    Map.entry("POST /key/update", keys::update),
                    Map.entry("POST /key/delete", keys::delete),
                    Map.entry("GET /key/list", keys::list),
                    Map.entry("POST /key/block", keys::block),
                    Map.entry("POST /key/unblock", keys::unblock),
                    Map.entry("POST /team/new", teams::create),
                    Map.entry("GET /team/info", teams::info),
                    Map.entry("POST /team/update", teams::update),
                    Map.entry("POST /team/delete", teams::delete),
                    Map.entry("GET /team/list", teams::list));
            server = vertx.createHttpServer().requestHandler(request -> {
                Handler<HttpServerRequest> route = routes.get(request.method() + " " + request.path());
                if (route == null) {
                    request.response().setStatusCode(404).end();
                } else {
                    route.handle(request);
                }
            });
            return server.listen(0, "127.0.0.1");
        }
    }

    FakeClock clock() {
        return clock;
    }

    /** Every {@code AccountChanges} call so far, in order: {@code key:<token>}, {@code team:<id>}. */
    List<String> changes() {
        synchronized (changes) {
            return List.copyOf(changes);
        }
    }

    /** POSTs {@code json} with the master key. */
    Answer post(String path, String json) {
        return post(path, json, MASTER_KEY);
    }

    /** POSTs {@code json} with {@code bearer} as the key, or no key when it is null. */
    Answer post(String path, String json, String bearer) {
        return send(request(path, bearer).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** Sends {@code json} with {@code method} and the master key. */
    Answer send(String method, String path, String json) {
        return send(request(path, MASTER_KEY).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(json)).build());
    }

    /** GETs with the master key. */
    Answer get(String path) {
        return get(path, MASTER_KEY);
    }

    Answer get(String path, String bearer) {
        return send(request(path, bearer).GET().build());
    }

    private HttpRequest.Builder request(String path, String bearer) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(20));
        if (bearer != null) {
            request.header("Authorization", "Bearer " + bearer);
        }
        return request;
    }

    private Answer send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = response.body().isEmpty() ? null : Json.parse(response.body().getBytes());
            return new Answer(response.statusCode(), body, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        try {
            vertx.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the key API did not stop: " + e.getMessage(), e);
        }
    }

    /** An answer: its status and its JSON body, with short ways into an OpenAI-shaped error. */
    record Answer(int status, JsonNode body, String text) {
        String errorCode() {
            return body.path("error").path("code").asText(null);
        }

        String errorType() {
            return body.path("error").path("type").asText(null);
        }

        String errorParam() {
            return body.path("error").path("param").asText(null);
        }

        String errorMessage() {
            return body.path("error").path("message").asText(null);
        }

        @Override
        public String toString() {
            return status + " " + text;
        }
    }
}
