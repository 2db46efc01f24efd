package dev.sluice.state;

import dev.sluice.router.signals.InMemoryUsageWindows;
import dev.sluice.router.signals.UsageWindows;
import dev.sluice.store.redis.GatheredWrites;
import dev.sluice.store.redis.RedisLink;
import dev.sluice.store.redis.RedisScript;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The deployments' usage windows of a gateway whose replicas share one Redis: requests and
 * tokens per deployment and calendar minute are counted in Redis, so a deployment's
 * {@code rpm} and {@code tpm} hold across all replicas for the strategies that route by them.
 *
 * <h2>Design notes</h2>
 * <b>Claims are exact; reads are local.</b> A strategy reads usage for every candidate of every
 * pick, so {@link #current} answers from a local view and never waits on Redis. What keeps the
 * limits exact is {@link #claim}: one script counts the request only if the deployment still
 * has room, so however many replicas race for its last place, one gets it; the others' attempts
 * are refused before they are sent and their requests go to a sibling.
 *
 * <p><b>The local view</b> holds, per deployment, the latest minute's counts: this replica's own,
 * raised to the shared totals each Redis reply carries (every claim and every record answers
 * with the totals). It is never above the truth, and it is current for any deployment this
 * replica uses; a deployment it has not used for a while may look emptier than it is until
 * its next claim, which then corrects it.
 *
 * <p><b>Records</b> (a served answer's tokens, a request that made no claim) are gathered for a
 * few milliseconds ({@link GatheredWrites}) and written as one increment per deployment and minute,
 * without waiting; the shared totals are that much behind, which only a claim can notice, and
 * only as a few tokens fewer than were used.
 *
 * <p><b>Redis trouble.</b> While the link is down, or when a script does not answer within the
 * link's budget, claims are decided on the local view: limits then hold per replica. A record
 * that cannot reach Redis is counted here only. Windows are keyed
 * {@code <prefix>usage:<deployment id>:<minute>} by this replica's clock (replicas keep theirs in
 * step with NTP) and expire two minutes on.
 */
public final class RedisUsageWindows implements UsageWindows {
    private static final Logger log = LoggerFactory.getLogger("dev.sluice.state");
    private static final String WINDOW_SECONDS = "120";

    /* KEYS[1]: the window. ARGV: requests, tokens, ttl. Returns the totals {requests, tokens}. */
    private static final RedisScript RECORD = new RedisScript("""
            local requests = redis.call('HINCRBY', KEYS[1], 'r', ARGV[1])
            local tokens = redis.call('HINCRBY', KEYS[1], 't', ARGV[2])
            redis.call('EXPIRE', KEYS[1], ARGV[3])
            return {requests, tokens}
            """);

    /* KEYS[1]: the window. ARGV: rpm, tpm (-1: none), prompt tokens, ttl. Returns {claimed (0/1), requests, tokens}. */
    private static final RedisScript CLAIM = new RedisScript("""
            local used = redis.call('HMGET', KEYS[1], 'r', 't')
            local requests, tokens = tonumber(used[1] or 0), tonumber(used[2] or 0)
            local rpm, tpm = tonumber(ARGV[1]), tonumber(ARGV[2])
            if (rpm >= 0 and requests + 1 > rpm) or (tpm >= 0 and tokens + tonumber(ARGV[3]) > tpm) then
              return {0, requests, tokens}
            end
            requests = redis.call('HINCRBY', KEYS[1], 'r', 1)
            redis.call('EXPIRE', KEYS[1], ARGV[4])
            return {1, requests, tokens}
            """);

    private final RedisLink link;
    private final String keyPrefix;
    private final InMemoryUsageWindows view = new InMemoryUsageWindows();
    private final AtomicLong claimedLocally = new AtomicLong();
    /** Records not yet written, by window key. */
    private final GatheredWrites<Unwritten> unwritten;

    /** Counts of one deployment's minute gathered since the last write. */
    private record Unwritten(String deploymentId, Instant minute, long requests, long tokens) {
        Unwritten plus(Unwritten more) {
            return new Unwritten(deploymentId, minute, requests + more.requests, tokens + more.tokens);
        }
    }

    public RedisUsageWindows(RedisLink link) {
        this.link = link;
        this.keyPrefix = link.prefix() + "usage:";
        this.unwritten = new GatheredWrites<>(link, Unwritten::plus, this::write);
    }

    @Override
    public void record(String deploymentId, Instant at, int requests, long tokens) {
        view.record(deploymentId, at, requests, tokens);
        if (link.isUp()) {
            unwritten.add(windowKey(deploymentId, at), new Unwritten(deploymentId, at, requests, tokens));
        }
    }

    /** One increment per deployment and minute for what gathered; each reply raises the view. */
    private void write(Map<String, Unwritten> gathered) {
        gathered.forEach((key, counts) -> RECORD.run(link, List.of(key),
                        List.of(Long.toString(counts.requests()), Long.toString(counts.tokens()), WINDOW_SECONDS))
                .onSuccess(totals -> view.raiseTo(counts.deploymentId(), counts.minute(), totals.get(0).toLong(),
                        totals.get(1).toLong())));
    }

    @Override
    public Usage current(String deploymentId, Instant now) {
        return view.current(deploymentId, now);
    }

    @Override
    public Future<Boolean> claim(String deploymentId, Instant at, OptionalInt rpm, OptionalInt tpm, int promptTokens) {
        if (!link.isUp()) {
            return Future.succeededFuture(claimLocally(deploymentId, at, rpm, tpm, promptTokens));
        }
        List<String> args = List.of(Integer.toString(rpm.orElse(-1)), Integer.toString(tpm.orElse(-1)),
                Integer.toString(promptTokens), WINDOW_SECONDS);
        Future<Boolean> claimed = CLAIM.run(link, List.of(windowKey(deploymentId, at)), args).transform(reply -> {
            if (reply.succeeded()) {
                try {
                    Response counts = reply.result();
                    view.raiseTo(deploymentId, at, counts.get(1).toLong(), counts.get(2).toLong());
                    return Future.succeededFuture(counts.get(0).toInteger() == 1);
                } catch (RuntimeException e) {
                    log.warn("usage.unreadable_reply reason={}; claiming on this replica's view", e.toString());
                }
            }
            return Future.succeededFuture(claimLocally(deploymentId, at, rpm, tpm, promptTokens));
        });
        return RedisLink.backOn(Vertx.currentContext(), claimed);
    }

    private boolean claimLocally(String deploymentId, Instant at, OptionalInt rpm, OptionalInt tpm, int promptTokens) {
        claimedLocally.incrementAndGet();
        link.decidedLocally();
        return view.claimNow(deploymentId, at, rpm, tpm, promptTokens);
    }

    /** How many claims this replica decided on its own view because Redis could not answer. */
    public long claimedLocally() {
        return claimedLocally.get();
    }

    private String windowKey(String deploymentId, Instant at) {
        return keyPrefix + deploymentId + ":" + Math.floorDiv(at.getEpochSecond(), 60);
    }
}
