package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.auth.oauth2.AccessToken;
import com.google.auth.oauth2.GoogleCredentials;
import dev.sluice.config.AmbientCredentials;
import dev.sluice.config.Deployment;
import dev.sluice.config.Secret;
import dev.sluice.vendors.BorrowedCredential;
import dev.sluice.wire.Json;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * OAuth2 access tokens for Vertex AI calls, shared by every model family on Vertex. The
 * credentials are the deployment's {@code vertex_credentials} (a path to a service-account key
 * file, or the key's JSON, see {@link VertexKey}) or else Application Default Credentials, scoped to
 * {@code cloud-platform}; a service-account key is exchanged at its own {@code token_uri}.
 *
 * <p>Design notes. A token is used until {@link #REFRESH_BEFORE} its expiry and then
 * refreshed: one exchange serves many calls. Reading a key file and exchanging a token are
 * blocking, so they run off the event loop ({@code executeBlocking}); a call that finds a
 * fresh token in the cache goes on at once. Credentials are kept per source, so two deployments
 * with the same key share a token; Google's credentials object serialises its own refreshes.
 *
 * <p>Application Default Credentials and key files are the gateway's own: a deployment not lent
 * them ({@link AmbientCredentials}, one given through the model API) gets no token from them, not
 * even one already fetched for a deployment of the config file, and its key file is never opened.
 * Nor may it use a credential type other than a service-account key: the others
 * ({@code external_account} and its kin) read files, URLs or programs of the gateway's.
 */
public final class VertexCredentials {
    public static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
    /** How long before its expiry a token is replaced. */
    static final Duration REFRESH_BEFORE = Duration.ofMinutes(5);
    private static final String DEFAULT_SOURCE = "application-default";

    private final Clock clock;
    private final ConcurrentMap<String, GoogleCredentials> bySource = new ConcurrentHashMap<>();

    public VertexCredentials(Clock clock) {
        this.clock = clock;
    }

    private static final String FIELD = "litellm_params.vertex_credentials";

    /** The gateway's credential {@code deployment} would use although it is not lent it, or empty. */
    static Optional<BorrowedCredential> borrowed(Deployment deployment) {
        AmbientCredentials lent = deployment.ambient();
        Optional<Secret> configured = deployment.params().vendor().vertexCredentials();
        if (configured.isEmpty()) {
            return lent.allows(AmbientCredentials.Kind.APPLICATION_DEFAULT) ? Optional.empty()
                    : Optional.of(new BorrowedCredential(FIELD, "missing (expected: the service-account key's JSON; a deployment"
                            + " given through the model API is not lent the gateway's Application Default Credentials unless"
                            + " general_settings.admin_allowed_credentials lists application_default)"));
        }
        if (lent.allows(AmbientCredentials.Kind.FILES)) {
            return Optional.empty();
        }
        String value = VertexKey.unquote(configured.get().value());
        if (!VertexKey.inline(value)) {
            return Optional.of(new BorrowedCredential(FIELD, "a file path (expected: the service-account key's JSON written"
                    + " out; a deployment given through the model API may not read the gateway's files unless"
                    + " general_settings.admin_allowed_credentials lists files)"));
        }
        if (!serviceAccountKey(value)) {
            return Optional.of(new BorrowedCredential(FIELD, "not a service-account key (expected: JSON with \"type\":"
                    + " \"service_account\"; other credential types read files, URLs or programs of the gateway's, which a"
                    + " deployment given through the model API may not unless general_settings.admin_allowed_credentials lists"
                    + " files)"));
        }
        return Optional.empty();
    }

    private static boolean serviceAccountKey(String json) {
        try {
            JsonNode key = Json.parse(json.getBytes(StandardCharsets.UTF_8));
            return key.path("type").asText("").equals("service_account");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The deployment's current token: from the cache when fresh, else fetched off the event loop. */
    public Future<Secret> token(Deployment deployment) {
        Optional<BorrowedCredential> notLent = borrowed(deployment);
        if (notLent.isPresent()) {
            return Future.failedFuture(new IllegalStateException("Vertex AI credentials: " + notLent.get().field() + ": "
                    + notLent.get().reason()));
        }
        Optional<Secret> fresh = freshToken(deployment);
        if (fresh.isPresent()) {
            return Future.succeededFuture(fresh.get());
        }
        Context context = Vertx.currentContext();
        if (context == null) {
            try {
                return Future.succeededFuture(fetch(deployment));
            } catch (IOException | RuntimeException e) {
                return Future.failedFuture(failure(e));
            }
        }
        return context.executeBlocking(() -> {
            try {
                return fetch(deployment);
            } catch (IOException | RuntimeException e) {
                throw failure(e);
            }
        }, false);
    }

    /** The token last fetched for the deployment, fresh or not: what must be masked in what is relayed. */
    public Optional<Secret> lastToken(Deployment deployment) {
        if (borrowed(deployment).isPresent()) {
            return Optional.empty();
        }
        GoogleCredentials credentials = bySource.get(source(deployment));
        AccessToken token = credentials == null ? null : credentials.getAccessToken();
        return token == null ? Optional.empty() : Optional.of(new Secret(token.getTokenValue()));
    }

    private Optional<Secret> freshToken(Deployment deployment) {
        GoogleCredentials credentials = bySource.get(source(deployment));
        AccessToken token = credentials == null ? null : credentials.getAccessToken();
        if (token == null || !fresh(token)) {
            return Optional.empty();
        }
        return Optional.of(new Secret(token.getTokenValue()));
    }

    private boolean fresh(AccessToken token) {
        return token.getExpirationTime() == null
                || Instant.ofEpochMilli(token.getExpirationTime().getTime()).isAfter(clock.instant().plus(REFRESH_BEFORE));
    }

    private Secret fetch(Deployment deployment) throws IOException {
        String source = source(deployment);
        GoogleCredentials credentials = bySource.get(source);
        if (credentials == null) {
            credentials = load(deployment);
            GoogleCredentials raced = bySource.putIfAbsent(source, credentials);
            credentials = raced == null ? credentials : raced;
        }
        synchronized (credentials) {
            AccessToken token = credentials.getAccessToken();
            if (token == null || !fresh(token)) {
                credentials.refresh();
                token = credentials.getAccessToken();
            }
            if (token == null) {
                throw new IOException("the credentials gave no access token");
            }
            return new Secret(token.getTokenValue());
        }
    }

    @SuppressWarnings("deprecation") // fromStream reads any credential type; the key is the operator's own config
    private static GoogleCredentials load(Deployment deployment) throws IOException {
        Optional<Secret> configured = deployment.params().vendor().vertexCredentials();
        GoogleCredentials credentials;
        if (configured.isEmpty()) {
            try {
                credentials = GoogleCredentials.getApplicationDefault();
            } catch (IOException | RuntimeException e) {
                // The message may quote a key file named by GOOGLE_APPLICATION_CREDENTIALS.
                throw new VertexKey.Unusable("no vertex_credentials and no usable Application Default Credentials");
            }
        } else {
            byte[] key = VertexKey.bytes(configured.get().value());
            try {
                credentials = GoogleCredentials.fromStream(new ByteArrayInputStream(key));
            } catch (IOException | RuntimeException e) {
                // A parse error's message can quote the key's text, private key included.
                throw new VertexKey.Unusable(VertexKey.NOT_A_KEY);
            }
        }
        return credentials.createScoped(List.of(SCOPE));
    }

    private static String source(Deployment deployment) {
        return deployment.params().vendor().vertexCredentials().map(Secret::value).orElse(DEFAULT_SOURCE);
    }

    /**
     * A failure that says what went wrong without quoting the key: a key that cannot be loaded
     * says only that; a refused token exchange keeps the first line of the token endpoint's answer.
     */
    private static IllegalStateException failure(Exception e) {
        if (e instanceof VertexKey.Unusable unusable) {
            return new IllegalStateException("Vertex AI credentials: " + unusable.getMessage());
        }
        String what = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + firstLine(e.getMessage()));
        return new IllegalStateException("Vertex AI credentials: " + what);
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline);
    }
}
