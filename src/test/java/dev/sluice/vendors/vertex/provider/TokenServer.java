package dev.sluice.vendors.vertex.provider;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sluice.wire.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.Signature;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A small OAuth2 token endpoint for a service-account key made for the test: it takes the
 * JWT-bearer grant, checks the assertion's RS256 signature against the key's public half and
 * its claims, counts the exchanges and answers with a fixed access token.
 */
final class TokenServer implements AutoCloseable {
    static final String ACCESS_TOKEN = "ya29.sluice-test-token";

    private final KeyPair keys;
    private final HttpServer server;
    private final List<JsonNode> claims = new CopyOnWriteArrayList<>();
    private volatile boolean refusing;

    TokenServer() throws IOException, NoSuchAlgorithmException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        this.keys = generator.generateKeyPair();
        this.server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/token", this::exchange);
        server.start();
    }

    String tokenUri() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/token";
    }

    /** A service-account key file's JSON, for a key only this server knows. */
    String serviceAccountJson(String projectId) {
        String pem = "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        ObjectNode key = JsonNodeFactory.instance.objectNode().put("type", "service_account").put("project_id", projectId)
                .put("private_key_id", "test-key-1").put("private_key", pem)
                .put("client_email", "sluice-test@" + projectId + ".iam.gserviceaccount.com").put("client_id", "1")
                .put("token_uri", tokenUri());
        return key.toString();
    }

    /** The claims of every assertion exchanged so far. */
    List<JsonNode> exchanges() {
        return List.copyOf(claims);
    }

    void refuse() {
        refusing = true;
    }

    private void exchange(HttpExchange exchange) throws IOException {
        Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
        if (refusing || !"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))) {
            answer(exchange, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
            return;
        }
        String[] jwt = form.getOrDefault("assertion", "").split("\\.");
        try {
            Signature rs256 = Signature.getInstance("SHA256withRSA");
            rs256.initVerify(keys.getPublic());
            rs256.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
            if (!rs256.verify(Base64.getUrlDecoder().decode(jwt[2]))) {
                answer(exchange, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
                return;
            }
            claims.add(Json.parse(Base64.getUrlDecoder().decode(jwt[1])));
        } catch (java.security.GeneralSecurityException | RuntimeException e) {
            answer(exchange, 400, "{\"error\":\"invalid_request\"}");
            return;
        }
        answer(exchange, 200, "{\"access_token\":\"" + ACCESS_TOKEN + "\",\"expires_in\":3600,\"token_type\":\"Bearer\"}");
    }

    private static Map<String, String> form(String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return form;
    }

    private static void answer(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
