package dev.sluice.edge;

import dev.sluice.net.Cidr;
import dev.sluice.net.HostLiterals;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The connections open on the gateway's port, counted over every event loop's server (they
 * share the port): in all, against {@code general_settings.max_open_connections}, and per
 * client address, against {@code max_connections_per_ip}. A trusted proxy's address
 * ({@code trusted_proxies}) carries many clients and is held only to the bound in all. An
 * IPv6 client is counted by its /64, the network one host is given, so it cannot spread its
 * connections over addresses it holds by the billion. Thread-safe.
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
    Refusal tryOpen(InetAddress peer) {
        if (!tryOpenInAll()) {
            return Refusal.TOO_MANY;
        }
        if (peer == null || isTrustedProxy(peer)) {
            return Refusal.NONE;
        }
        InetAddress address = client(peer);
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
    void closed(InetAddress peer) {
        open.decrementAndGet();
        if (peer != null && !isTrustedProxy(peer)) {
            perAddress.computeIfPresent(client(peer), (at, count) -> count <= 1 ? null : count - 1);
        }
    }

    /** What a peer is counted as: itself, or an IPv6 address's /64. */
    static InetAddress client(InetAddress peer) {
        if (!(peer instanceof Inet6Address v6) || HostLiterals.unwrapped(v6) instanceof Inet4Address) {
            return peer;
        }
        byte[] network = Arrays.copyOf(v6.getAddress(), 16);
        Arrays.fill(network, 8, 16, (byte) 0);
        try {
            return InetAddress.getByAddress(network);
        } catch (UnknownHostException e) {
            return peer; // 16 bytes are always an address
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
