package dev.sluice.server;

import dev.sluice.egress.Cidr;
import java.net.InetAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connections open on the gateway's port, counted over every event loop's server (they
 * share the port): in all, against {@code general_settings.max_open_connections}, and per
 * client address, against {@code max_connections_per_ip}. A trusted proxy's address
 * ({@code trusted_proxies}) carries many clients and is held only to the bound in all.
 * Thread-safe.
 */
public final class OpenConnections {
    private final AtomicInteger open = new AtomicInteger();
    private final int max;
    private final int maxPerAddress;
    private final List<Cidr> trustedProxies;
    /** Connections open per address; an address leaves the map with its last connection. */
    private final ConcurrentHashMap<InetAddress, Integer> perAddress = new ConcurrentHashMap<>();

    public OpenConnections(int max, int maxPerAddress, List<Cidr> trustedProxies) {
        if (max < 1 || maxPerAddress < 1) {
            throw new IllegalArgumentException("max: " + max + ", maxPerAddress: " + maxPerAddress + " (expected: >= 1)");
        }
        this.max = max;
        this.maxPerAddress = maxPerAddress;
        this.trustedProxies = List.copyOf(trustedProxies);
    }

    /** One bound in all, none per address. */
    public OpenConnections(int max) {
        this(max, Integer.MAX_VALUE, List.of());
    }

    /** Why a connection was not let in. */
    enum Refusal { NONE, TOO_MANY, TOO_MANY_FROM_ADDRESS }

    /**
     * Counts one more connection from {@code address} (null when unknown), unless a bound is
     * reached: then nothing is counted, and the bound is named.
     */
    Refusal tryOpen(InetAddress address) {
        if (!tryOpenInAll()) {
            return Refusal.TOO_MANY;
        }
        if (address == null || isTrustedProxy(address)) {
            return Refusal.NONE;
        }
        boolean[] admitted = {false};
        perAddress.compute(address, (at, count) -> {
            int now = count == null ? 0 : count;
            if (now >= maxPerAddress) {
                return count;
            }
            admitted[0] = true;
            return now + 1;
        });
        if (!admitted[0]) {
            open.decrementAndGet();
            return Refusal.TOO_MANY_FROM_ADDRESS;
        }
        return Refusal.NONE;
    }

    private boolean tryOpenInAll() {
        while (true) {
            int now = open.get();
            if (now >= max) {
                return false;
            }
            if (open.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A connection {@link #tryOpen} let in has closed. */
    void closed(InetAddress address) {
        open.decrementAndGet();
        if (address != null && !isTrustedProxy(address)) {
            perAddress.computeIfPresent(address, (at, count) -> count <= 1 ? null : count - 1);
        }
    }

    boolean isTrustedProxy(InetAddress address) {
        for (Cidr proxy : trustedProxies) {
            if (proxy.contains(address)) {
                return true;
            }
        }
        return false;
    }

    public int count() {
        return open.get();
    }

    /** The most connections open at once. */
    public int max() {
        return max;
    }

    /** Client addresses holding a connection now. */
    public int addresses() {
        return perAddress.size();
    }
}
