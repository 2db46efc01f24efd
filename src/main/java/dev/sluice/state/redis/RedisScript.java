package dev.sluice.state.redis;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script run by its SHA-1 ({@code EVALSHA}), so a call on the request path sends a few
 * dozen bytes rather than the script; the first call after Redis restarts (which forgets its
 * scripts) gets {@code NOSCRIPT} and is sent again whole, which loads it.
 */
final class RedisScript {
    private final String text;
    private final String sha;

    RedisScript(String text) {
        this.text = text;
        this.sha = sha1(text);
    }

    /** Runs the script with {@code keys} and {@code args}, within the link's time budget. */
    Future<Response> run(RedisLink link, List<String> keys, List<String> args) {
        return link.send(request(Command.EVALSHA, sha, keys, args)).recover(failure -> {
            String message = failure.getMessage();
            if (message != null && message.startsWith("NOSCRIPT")) {
                return link.send(request(Command.EVAL, text, keys, args));
            }
            return Future.failedFuture(failure);
        });
    }

    private static Request request(Command command, String script, List<String> keys, List<String> args) {
        Request request = Request.cmd(command).arg(script).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }
}
