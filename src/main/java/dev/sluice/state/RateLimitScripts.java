package dev.sluice.state;

import dev.sluice.store.redis.RedisLink;
import dev.sluice.store.redis.RedisScript;

/** The Lua scripts of {@link RedisRateLimits}: an admission over every limited scope, a release, and gathered tokens. */
final class RateLimitScripts {
    private RateLimitScripts() {}

    /** Where every admission and every write-back publishes the counts it leaves, for every replica to hear. */
    static String countsChannel(RedisLink link) {
        return link.prefix() + "limits:counts";
    }

    /*
     * KEYS: per scope, its window hash and its in-flight set.
     * ARGV: now (ms), lease end (ms), permit id, window ttl (s), then per scope rpm, tpm, parallel (-1: none),
     * then the channel the counts are published on.
     * Returns {admitted (0/1), then per scope requests, tokens, in flight}: after counting when admitted, before when not.
     * Publishes, when admitted, a line per scope: its window, requests, tokens.
     */
    static final RedisScript ADMIT = new RedisScript("""
            local now, leaseEnd, permit, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3], ARGV[4]
            local scopes = #KEYS / 2
            local counts, admitted = {1}, 1
            for i = 1, scopes do
              local window, open = KEYS[2 * i - 1], KEYS[2 * i]
              local rpm, tpm, parallel = tonumber(ARGV[3 * i + 2]), tonumber(ARGV[3 * i + 3]), tonumber(ARGV[3 * i + 4])
              local used = redis.call('HMGET', window, 'r', 't')
              local requests, tokens, inFlight = tonumber(used[1] or 0), tonumber(used[2] or 0), 0
              if parallel >= 0 then
                redis.call('ZREMRANGEBYSCORE', open, '-inf', now)
                inFlight = redis.call('ZCARD', open)
              end
              if (rpm >= 0 and requests >= rpm) or (tpm >= 0 and tokens >= tpm) or (parallel >= 0 and inFlight >= parallel) then
                admitted = 0
              end
              counts[3 * i - 1], counts[3 * i], counts[3 * i + 1] = requests, tokens, inFlight
            end
            if admitted == 0 then
              counts[1] = 0
              return counts
            end
            local heard = {}
            for i = 1, scopes do
              local window, open = KEYS[2 * i - 1], KEYS[2 * i]
              counts[3 * i - 1] = redis.call('HINCRBY', window, 'r', 1)
              redis.call('EXPIRE', window, ttl)
              if tonumber(ARGV[3 * i + 4]) >= 0 then
                redis.call('ZADD', open, leaseEnd, permit)
                redis.call('PEXPIRE', open, 2 * (leaseEnd - now))
                counts[3 * i + 1] = counts[3 * i + 1] + 1
              end
              heard[i] = window .. ' ' .. counts[3 * i - 1] .. ' ' .. counts[3 * i]
            end
            redis.call('PUBLISH', ARGV[#ARGV], table.concat(heard, '\\n'))
            return counts
            """);

    /* KEYS: the windows to add tokens to (ARGV[3] of them), then the in-flight sets. ARGV: tokens, permit id, windows, ttl. */
    static final RedisScript RELEASE = new RedisScript("""
            local windows = tonumber(ARGV[3])
            for i = 1, #KEYS do
              if i <= windows then
                redis.call('HINCRBY', KEYS[i], 't', ARGV[1])
                redis.call('EXPIRE', KEYS[i], ARGV[4])
              else
                redis.call('ZREM', KEYS[i], ARGV[2])
              end
            end
            return 1
            """);

    /* KEYS: windows. ARGV: ttl, then the tokens to add to each window. */
    static final RedisScript ADD_TOKENS = new RedisScript("""
            for i = 1, #KEYS do
              redis.call('HINCRBY', KEYS[i], 't', ARGV[i + 1])
              redis.call('EXPIRE', KEYS[i], ARGV[1])
            end
            return 1
            """);
}
