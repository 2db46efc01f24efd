package dev.sluice.boot;

import dev.sluice.accounts.Authenticator;
import dev.sluice.accounts.spend.CallCost;
import dev.sluice.admin.AccountApi;
import dev.sluice.admin.KeyAdminHandlers;
import dev.sluice.admin.ModelAdminHandlers;
import dev.sluice.admin.OwnerHandlers;
import dev.sluice.admin.OwnerRepositories;
import dev.sluice.admin.RouterSettingsHandlers;
import dev.sluice.admin.SpendApi;
import dev.sluice.admin.SpendHandlers;
import dev.sluice.admin.TeamAdminHandlers;
import dev.sluice.admin.ui.CookieSessions;
import dev.sluice.admin.ui.SessionHandlers;
import dev.sluice.admin.ui.SessionSeal;
import dev.sluice.admin.ui.UiEndpoints;
import dev.sluice.admin.ui.UiFiles;
import dev.sluice.admin.ui.UiPages;
import dev.sluice.call.ModelCallPipeline;
import dev.sluice.config.EdgeSettings;
import dev.sluice.config.ModelApiSettings;
import dev.sluice.config.RouterSettings;
import dev.sluice.edge.ConnectionGuard;
import dev.sluice.edge.HealthHandlers;
import dev.sluice.edge.InfoHandlers;
import dev.sluice.edge.MalformedRequests;
import dev.sluice.edge.Routes;
import dev.sluice.http.Drain;
import dev.sluice.http.RequestBodyReader;
import dev.sluice.net.ApiBaseRules;
import dev.sluice.net.HostLookup;
import dev.sluice.ops.overload.Liveness;
import dev.sluice.vendors.openai.responses.entry.ResponseIds;
import dev.sluice.vendors.openai.responses.entry.ResponsesCodec;
import dev.sluice.vendors.openai.responses.entry.ResponsesEndpoints;
import dev.sluice.vendors.openai.responses.entry.StoredResponses;
import dev.sluice.vendors.openai.responses.store.DatabaseResponses;
import dev.sluice.vendors.openai.responses.store.ResponseLimits;
import dev.sluice.vendors.openai.responses.store.ResponseStore;
import dev.sluice.vendors.upstream.UpstreamClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One event loop's share of the gateway: an HTTP server on the shared port and its own
 * upstream client, so a request and its upstream call never cross threads.
 */
final class GatewayVerticle extends VerticleBase {
    private final Gateway gateway;
    private final String host;
    private final int port;
    private final Drain drain;
    private UpstreamClient upstreams;
    private HttpServer server;
    private String beatingLoop;
    private long beatTimer = -1;

    GatewayVerticle(Gateway gateway, String host, int port, Drain drain) {
        this.gateway = gateway;
        this.drain = drain;
        this.host = host;
        this.port = port;
    }

    /**
     * The Responses API's routes, keeping responses in the store when one is open (shared by
     * replicas), else in the gateway's memory, shared by its event loops.
     */
    private ResponsesEndpoints responsesEndpoints(Authenticator authenticator) {
        ResponseStore store = gateway.accounts().<ResponseStore>map(accounts -> new DatabaseResponses(vertx, accounts.responses(),
                ResponseLimits.DATABASE_DEFAULTS, gateway.time().clock())).orElse(gateway.memoryResponses());
        return new ResponsesEndpoints(new ResponsesCodec(store, gateway.time().clock(), ResponseIds::next),
                new StoredResponses(authenticator, store));
    }

    @Override
    public Future<?> start() {
        upstreams = new UpstreamClient(vertx, gateway.time().ticker());
        SessionSeal seal = SessionSeal.of(gateway.config().general().masterKey(), gateway.time().clock());
        Authenticator authenticator = new Authenticator(vertx, gateway.calls().access(), new CookieSessions(seal),
                gateway.guards().addresses());
        Optional<AccountApi> accountApi = gateway.accounts().map(accounts -> new AccountApi(authenticator::caller,
                accounts.keys(), accounts.teams(), gateway.time().clock(), gateway.calls().access().changes(),
                gateway.calls().bodies(), gateway.time().ticker(),
                new OwnerRepositories(accounts.users(), accounts.teamMembers(), accounts.organizations(), accounts.customers())));
        Routes.Admin admin = new Routes.Admin(
                accountApi.flatMap(api -> gateway.storedModels().map(models -> new ModelAdminHandlers(vertx, api, models,
                        apiBaseRules()))),
                accountApi.map(api -> new KeyAdminHandlers(vertx, api)), accountApi.map(api -> new TeamAdminHandlers(vertx, api)),
                accountApi.flatMap(api -> gateway.storedSettings().map(sync -> new RouterSettingsHandlers(vertx, api, sync,
                        gateway.calls().models()))),
                accountApi.map(api -> OwnerHandlers.of(vertx, api)),

                accountApi.flatMap(api -> gateway.accounts().map(accounts -> new SpendHandlers(vertx, new SpendApi(api,
                        accounts.spendReader(), accounts.dailySpend(), gateway.calls().models(), new CallCost(gateway.edge().catalog()))))),
                Optional.of(ui(seal, authenticator)));
        Routes routes = new Routes(new ModelCallPipeline(vertx, gateway.calls(), upstreams, authenticator, drain),
                new InfoHandlers(vertx, gateway.edge(), authenticator, gateway.config().general().metrics(),
                        gateway.guards().overload()),
                new HealthHandlers(vertx, gateway.edge(), authenticator, upstreams), admin, drain,
                responsesEndpoints(authenticator));
        HttpServerOptions options = new HttpServerOptions()
                .setHost(host)
                .setPort(port)
                .setTcpNoDelay(true)
                .setHandle100ContinueAutomatically(false)
                .setCompressionSupported(false)
                // No WebSocket is served: without these, every answer passes a WebSocket
                // extension handler on its way out.
                .setPerFrameWebSocketCompressionSupported(false)
                .setPerMessageWebSocketCompressionSupported(false)
                .setHttp2ClearTextEnabled(false) // HTTP/1.1 only: the behaviour tested and documented
                // Closes connections that stay silent (idle keep-alives, half-sent requests)
                // once no call on them could still be waiting for an answer.
                .setIdleTimeout((int) Math.min(Integer.MAX_VALUE, idleTimeout(gateway.calls().router().settings().current()).toSeconds()))
                .setIdleTimeoutUnit(TimeUnit.SECONDS);
        EdgeSettings edge = gateway.config().general().edge();
        ConnectionGuard guard = new ConnectionGuard(options, gateway.guards().connections(),
                new ConnectionGuard.Timeouts(edge.requestHeadTimeout(), edge.connections().keepAliveTimeout()),
                gateway.guards().refusals());
        beat(gateway.guards().overload().liveness());
        server = vertx.createHttpServer(options).connectionHandler(guard::accept)
                .requestHandler(routes).invalidRequestHandler(MalformedRequests::answer);
        return server.listen();
    }

    /**
     * Beats for this event loop twice a second while it serves, so that {@link Liveness} sees
     * when it is blocked; a loop that stops on purpose is forgotten.
     */
    private void beat(Liveness liveness) {
        String loop = Thread.currentThread().getName();
        liveness.beat(loop);
        long timer = vertx.setPeriodic(500, id -> liveness.beat(loop));
        beatingLoop = loop;
        beatTimer = timer;
    }

    /** The admin UI: its files, and its sessions sealed by {@code seal}. */
    private UiEndpoints ui(SessionSeal seal, Authenticator authenticator) {
        // The sign-in reads its key from its body before it knows who calls: it reads a few KB
        // at most, within a budget of its own.
        RequestBodyReader bodies = new RequestBodyReader(vertx, gateway.guards().unauthenticated(), gateway.time().ticker());
        return new UiEndpoints(new UiPages(UiFiles.bundled()), new SessionHandlers(seal, authenticator, bodies,
                gateway.config().general().masterKey().isPresent()));
    }

    /**
     * How long a connection may stay silent: 60 s past the longest a call may wait for a
     * silent (non-streaming) answer, which is the router's {@code timeout} or, when a caller
     * may ask for longer, {@code max_client_timeout}. Taken from the settings in effect at
     * start-up, stored changes included (they are read before the server listens).
     */
    static Duration idleTimeout(RouterSettings settings) {
        Duration longest = settings.timeouts().maxClientTimeout().compareTo(settings.timeouts().timeout()) > 0 ? settings.timeouts().maxClientTimeout()
                : settings.timeouts().timeout();
        return longest.plus(Duration.ofSeconds(60));
    }

    /** Where a deployment given through the model API may point; the own port is this server's, once it listens. */
    private ApiBaseRules apiBaseRules() {
        ModelApiSettings settings = gateway.config().general().modelApi();
        return new ApiBaseRules(settings.deniedNetworks(), settings.allowedNetworks(), () -> server.actualPort(), HostLookup.JDK);
    }

    /**
     * Stops taking new connections: the listening socket closes, idle connections close, and
     * a connection with an answer under way closes once that answer ends (or at {@code grace}).
     */
    Future<Void> stopListening(Duration grace) {
        Promise<Void> stopped = Promise.promise();
        context.runOnContext(v -> server.shutdown(grace.toMillis(), TimeUnit.MILLISECONDS).onComplete(stopped));
        return stopped.future();
    }

    int actualPort() {
        return server.actualPort();
    }

    @Override
    public Future<?> stop() {
        if (beatingLoop != null) {
            vertx.cancelTimer(beatTimer);
            gateway.guards().overload().liveness().forget(beatingLoop);
        }
        return Future.join(server.close(), upstreams.close());
    }
}
