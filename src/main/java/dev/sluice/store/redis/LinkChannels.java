package dev.sluice.store.redis;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The pub/sub channels the stores listen on, subscribed again on every new connection of the link. */
final class LinkChannels {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.state");

    private final Map<String, Consumer<String>> channels = new ConcurrentHashMap<>();

    void add(String channel, Consumer<String> onMessage) {
        channels.put(channel, onMessage);
    }

    /** Subscribes {@code subscriber} to every channel, within the connect timeout. */
    Future<Void> subscribeAll(RedisConnection subscriber) {
        if (channels.isEmpty()) {
            return Future.succeededFuture();
        }
        Request subscribe = Request.cmd(Command.SUBSCRIBE);
        channels.keySet().forEach(subscribe::arg);
        return subscriber.send(subscribe).timeout(RedisAddress.CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS).mapEmpty();
    }

    /** Pub/sub pushes: {@code message <channel> <payload>}. */
    void onPush(Response push) {
        if (push.size() < 3 || !"message".equals(push.get(0).toString())) {
            return;
        }
        Consumer<String> handler = channels.get(push.get(1).toString());
        if (handler != null) {
            try {
                handler.accept(push.get(2).toString());
            } catch (RuntimeException e) {
                log.warn("A Redis message on {} could not be applied: {}", push.get(1), e.toString());
            }
        }
    }
}
