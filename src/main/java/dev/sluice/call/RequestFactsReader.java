package dev.sluice.call;

import dev.sluice.catalog.CachePrefixes;
import dev.sluice.catalog.CachePrefixes.CacheKeys;
import dev.sluice.catalog.PromptTokens;
import dev.sluice.catalog.TokenEncoding;
import dev.sluice.config.RouterSettings;
import dev.sluice.model.ModelRequest;
import dev.sluice.router.ModelGroup;
import dev.sluice.router.precall.PreCallChecks;
import dev.sluice.router.strategy.CostBasedStrategy;
import dev.sluice.router.strategy.RequestFacts;
import dev.sluice.router.strategy.UsageBasedStrategy;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * What routing needs to know about a request before picking: its prompt tokens and its
 * cacheable prefix. Counting tokens costs time (tens of milliseconds for a very long
 * prompt), so it is done only when something reads the count (a strategy that checks
 * {@code tpm}, the context-window check, prompt caching), and off the event loop for a large
 * body.
 */
public final class RequestFactsReader {
    /** Bodies above this are counted on a worker thread rather than on the event loop. */
    static final int COUNT_OFF_LOOP_BYTES = 64 * 1024;
    private static final Set<String> STRATEGIES_READING_TOKENS = Set.of(
            UsageBasedStrategy.NAME, UsageBasedStrategy.NAME_V2, CostBasedStrategy.NAME);

    private final Vertx vertx;
    private final Supplier<RouterSettings> settings;
    private final PromptTokens tokens = new PromptTokens();
    private final CachePrefixes prefixes = new CachePrefixes(tokens);
    /**
     * Whether a count has finished on this event loop's reader: until then the tokenizer
     * tables may still be loading (half a second), which must not happen on the event loop.
     */
    private final Set<TokenEncoding> warm = java.util.EnumSet.noneOf(TokenEncoding.class);

    /** @param settings the router settings in effect, read once per request */
    RequestFactsReader(Vertx vertx, Supplier<RouterSettings> settings) {
        this.vertx = vertx;
        this.settings = settings;
    }

    /** Whether any request may need its tokens counted, so the tokenizer tables are loaded at start-up. */
    public static boolean countsTokens(RouterSettings router) {
        return router.preCallChecks().enablePreCallChecks() || router.preCallChecks().optionalPreCallChecks().contains(PreCallChecks.PROMPT_CACHING)
                || STRATEGIES_READING_TOKENS.contains(router.routing().routingStrategy());
    }

    Future<Read> read(ModelRequest request, ModelGroup group, Optional<String> strategy, int bodyBytes) {
        RouterSettings router = settings.get();
        boolean caching = router.preCallChecks().optionalPreCallChecks().contains(PreCallChecks.PROMPT_CACHING);
        boolean count = caching || router.preCallChecks().enablePreCallChecks()
                || STRATEGIES_READING_TOKENS.contains(strategy.orElse(router.routing().routingStrategy()));
        if (!count) {
            return Future.succeededFuture(new Read(new RequestFacts(group.name(), 0, request.stream(), Optional.empty()), CacheKeys.NONE));
        }
        TokenEncoding encoding = TokenEncoding.forDeployments(group.deployments());
        if (warm.contains(encoding) && bodyBytes <= COUNT_OFF_LOOP_BYTES) {
            return Future.succeededFuture(counted(request, group, encoding, caching));
        }
        return vertx.executeBlocking(() -> counted(request, group, encoding, caching), false).andThen(done -> warm.add(encoding));
    }

    private Read counted(ModelRequest request, ModelGroup group, TokenEncoding encoding, boolean caching) {
        int promptTokens = tokens.count(request.body(), encoding);
        CacheKeys keys = caching ? prefixes.keys(group.name(), request.body(), promptTokens, encoding) : CacheKeys.NONE;
        return new Read(new RequestFacts(group.name(), promptTokens, request.stream(), keys.lookup()), keys);
    }

    /** The facts, and the cache keys to pin once a deployment has served the request. */
    record Read(RequestFacts facts, CacheKeys cacheKeys) {}
}
