package dev.sluice.store.redis;

import io.vertx.core.Future;
import io.vertx.core.Promise;
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
public final class RedisScript {
    private final String text;
    private final String sha;

    public RedisScript(String text) {
        this.text = text;
        this.sha = sha1(text);
    }

    /** Runs the script with {@code keys} and {@code args}, within the link's time budget. */
    public Future<Response> run(RedisLink link, List<String> keys, List<String> args) {
        return run(link, keys, args, null);
    }

    /**
     * {@link #run}, and {@code eventually} (when not null) completes with the script's answer
     * whenever it comes, past the budget included ({@link RedisLink#send(Request, Promise)}).
     */
    public Future<Response> run(RedisLink link, List<String> keys, List<String> args, Promise<Response> eventually) {
        Promise<Response> first = eventually == null ? null : Promise.promise();
        if (first != null) {
            first.future().onComplete(answer -> {
                if (!isNoScript(answer.cause())) {
                    settle(eventually, answer);
                }
            });
        }
        return link.send(request(Command.EVALSHA, sha, keys, args), first).recover(failure -> {
            if (isNoScript(failure)) {
                return link.send(request(Command.EVAL, text, keys, args), eventually);
            }
            return Future.failedFuture(failure);
        });
    }

    static void settle(Promise<Response> eventually, io.vertx.core.AsyncResult<Response> answer) {
        if (answer.succeeded()) {
            eventually.tryComplete(answer.result());
        } else {
            eventually.tryFail(answer.cause());
        }
    }

    private static boolean isNoScript(Throwable failure) {
        String message = failure == null ? null : failure.getMessage();
        return message != null && message.startsWith("NOSCRIPT");
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
