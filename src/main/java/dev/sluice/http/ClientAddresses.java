package dev.sluice.http;

import dev.sluice.net.Cidr;
import dev.sluice.net.HostLiterals;
import io.vertx.core.http.HttpServerRequest;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The address a request came from, as the failed-key throttle counts it. Behind a load
 * balancer every request comes from the balancer, so one client's bad keys would shut out
 * all of them: when the peer is a trusted proxy ({@code general_settings.trusted_proxies}),
 * the client is read from {@code X-Forwarded-For}, right to left, skipping the trusted
 * proxies that added themselves; the first address not trusted is the client. A peer that is
 * not trusted is the client whatever it says, so the header cannot be used to dodge the
 * throttle.
 */
public final class ClientAddresses {
    private static final String FORWARDED_FOR = "X-Forwarded-For";
    private final List<Cidr> trustedProxies;

    public ClientAddresses(List<Cidr> trustedProxies) {
        this.trustedProxies = List.copyOf(trustedProxies);
    }

    public static final ClientAddresses PEER = new ClientAddresses(List.of());

    /** The client's address, or null when the request has no peer address. */
    public String of(HttpServerRequest request) {
        String peer = request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        if (peer == null || trustedProxies.isEmpty() || !trusted(peer)) {
            return peer; // the header is read only from a trusted proxy: the common case reads nothing
        }
        return of(peer, request.headers().getAll(FORWARDED_FOR));
    }

    /** The client behind {@code peer}, given the {@code X-Forwarded-For} lines it sent, in order. */
    String of(String peer, List<String> forwardedFor) {
        if (!trusted(peer)) {
            return peer;
        }
        String client = peer;
        for (int line = forwardedFor.size() - 1; line >= 0; line--) {
            String[] hops = forwardedFor.get(line).split(",");
            for (int i = hops.length - 1; i >= 0; i--) {
                String hop = withoutPort(hops[i].strip());
                if (hop.isEmpty()) {
                    continue;
                }
                if (literal(hop).isEmpty()) {
                    return client; // not an address: nothing left of it can be trusted
                }
                client = hop;
                if (!trusted(hop)) {
                    return hop;
                }
            }
        }
        return client;
    }

    /** A hop as some balancers write it, {@code 203.0.113.7:51234} or {@code [2001:db8::7]:51234}, without its port. */
    private static String withoutPort(String hop) {
        int colon = hop.lastIndexOf(':');
        if (hop.startsWith("[") && hop.indexOf("]:") > 0) {
            return hop.substring(0, hop.indexOf("]:") + 1);
        }
        return colon > 0 && hop.indexOf(':') == colon && hop.indexOf('.') > 0 ? hop.substring(0, colon) : hop;
    }

    private boolean trusted(String address) {
        Optional<InetAddress> parsed = literal(address);
        return parsed.isPresent() && trustedProxies.stream().anyMatch(proxy -> proxy.contains(parsed.get()));
    }

    private static Optional<InetAddress> literal(String address) {
        return HostLiterals.parse(address.startsWith("[") && address.endsWith("]")
                ? address.substring(1, address.length() - 1) : address);
    }
}
