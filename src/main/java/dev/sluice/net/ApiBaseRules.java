package dev.sluice.net;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntSupplier;

/**
 * Where an {@code api_base} given through the model API may point. Deployments of the
 * config file are the operator's and are not checked; one given at run time would make the
 * gateway call, with its network position, whatever address its caller names.
 *
 * <p>Refused by default, in every spelling {@link HostLiterals} reads and after looking a
 * name up (every address it resolves to is checked): link-local networks, which hold the
 * cloud metadata services ({@code 169.254.0.0/16}, {@code fe80::/10}); the metadata
 * addresses outside them and their names ({@link #METADATA}, {@link #METADATA_NAMES});
 * the deprecated IPv6 site-local network ({@link #SITE_LOCAL});
 * the unspecified addresses ({@code 0.0.0.0/8}, {@code ::}), which reach the local host; and
 * the gateway's own port on a loopback or local address. Loopback and private networks stay
 * allowed: a local vLLM or Ollama lives there. Any scheme but http and https, and user info
 * in the URL, are refused too.
 *
 * <p>The operator's {@code denied} networks are refused first, then the operator's
 * {@code allowed} ones are let through past the defaults; the own-port rule always holds.
 *
 * <p>A name that does not resolve is accepted: it may name a service not yet created, and
 * nothing can be reached through it now. The check is made when the deployment is given;
 * a name whose answers change afterwards is not checked again, so a network-level rule is
 * still what guarantees the metadata service cannot be reached.
 */
public final class ApiBaseRules {
    /** Link-local networks: cloud metadata services live here (169.254.169.254, ECS's 169.254.170.2). */
    public static final List<Cidr> LINK_LOCAL = List.of(Cidr.parse("169.254.0.0/16"), Cidr.parse("fe80::/10"));
    /** Metadata addresses outside link-local: AWS's IPv6 one, Alibaba's, Azure's wire server, Oracle Cloud's. */
    public static final List<Cidr> METADATA = List.of(Cidr.parse("fd00:ec2::254/128"), Cidr.parse("100.100.100.200/32"),
            Cidr.parse("168.63.129.16/32"), Cidr.parse("192.0.0.192/32"));
    /**
     * IPv6's deprecated site-local network (RFC 3879): no longer assigned, so nothing a
     * deployment should live at, yet stacks that still route it reach the local site with it.
     */
    public static final List<Cidr> SITE_LOCAL = List.of(Cidr.parse("fec0::/10"));
    /** Addresses that mean "this host": 0.0.0.0/8 and {@code ::}. */
    public static final List<Cidr> UNSPECIFIED = List.of(Cidr.parse("0.0.0.0/8"), Cidr.parse("::/128"));
    /** Names of metadata services, refused even where they do not resolve (they do on the cloud host). */
    public static final Set<String> METADATA_NAMES = Set.of("metadata.google.internal", "metadata.goog", "metadata",
            "instance-data", "instance-data.ec2.internal");

    private final List<Cidr> denied;
    private final List<Cidr> allowed;
    private final IntSupplier ownPort;
    private final HostLookup lookup;

    /**
     * @param denied  the operator's networks refused besides the defaults
     * @param allowed the operator's networks let through despite the defaults
     * @param ownPort the port the gateway listens on, known once it listens
     */
    public ApiBaseRules(List<Cidr> denied, List<Cidr> allowed, IntSupplier ownPort, HostLookup lookup) {
        this.denied = List.copyOf(denied);
        this.allowed = List.copyOf(allowed);
        this.ownPort = ownPort;
        this.lookup = lookup;
    }

    /**
     * Why {@code url} may not be called, or empty when it may. The reason never repeats the
     * URL or an address it resolved to, so neither a password nor an internal name leaks.
     */
    public Optional<String> refusal(String url) {
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            return Optional.of("it is not an absolute http or https URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("only http and https URLs may be called");
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("it carries user info (user:password@); give a credential in api_key instead");
        }
        int defaultPort = scheme.equals("https") ? 443 : 80;
        if (uri.getHost() != null && !uri.getHost().isEmpty()) {
            return refusal(uri.getHost(), uri.getPort() >= 0 ? uri.getPort() : defaultPort);
        }
        // java.net.URI leaves the host out when it is no RFC 2396 host name (2130706433, 0x7f000001,
        // a trailing dot), yet other parsers connect to it: the authority is read as host[:port].
        String authority = uri.getRawAuthority();
        if (authority == null || authority.isEmpty()) {
            return Optional.of("it is not an absolute http or https URL with a host");
        }
        int colon = authority.lastIndexOf(':');
        if (colon > authority.lastIndexOf(']') && authority.substring(colon + 1).matches("[0-9]{1,5}")) {
            return refusal(authority.substring(0, colon), Integer.parseInt(authority.substring(colon + 1)));
        }
        return refusal(authority, defaultPort);
    }

    /** Why {@code host} (a name or an address in any spelling) and {@code port} may not be called. */
    Optional<String> refusal(String host, int port) {
        String lower = host.toLowerCase(Locale.ROOT);
        String name = lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
        if (METADATA_NAMES.contains(name)) {
            return Optional.of("its host names a cloud metadata service");
        }
        Optional<InetAddress> literal = HostLiterals.parse(name);
        List<InetAddress> addresses = literal.map(List::of).orElseGet(() -> lookup.addresses(name));
        String subject = literal.isPresent() ? "its host is " : "its host name resolves to ";
        for (InetAddress address : addresses) {
            Optional<String> refused = refusal(HostLiterals.unwrapped(address), port);
            if (refused.isPresent()) {
                return Optional.of(subject + refused.get());
            }
        }
        return Optional.empty();
    }

    private Optional<String> refusal(InetAddress address, int port) {
        if (port == ownPort.getAsInt() && isLocal(address)) {
            return Optional.of("this gateway's own address and port");
        }
        if (denied.stream().anyMatch(network -> network.contains(address))) {
            return Optional.of("in a network general_settings.admin_api_base_denied_networks refuses");
        }
        if (allowed.stream().anyMatch(network -> network.contains(address))) {
            return Optional.empty();
        }
        if (LINK_LOCAL.stream().anyMatch(network -> network.contains(address))) {
            return Optional.of("a link-local address (169.254.0.0/16, fe80::/10), where cloud metadata services live");
        }
        if (METADATA.stream().anyMatch(network -> network.contains(address))) {
            return Optional.of("a cloud metadata address");
        }
        if (SITE_LOCAL.stream().anyMatch(network -> network.contains(address))) {
            return Optional.of("a deprecated IPv6 site-local address (fec0::/10)");
        }
        if (UNSPECIFIED.stream().anyMatch(network -> network.contains(address))) {
            return Optional.of("an unspecified address (0.0.0.0/8, ::), which reaches this host");
        }
        return Optional.empty();
    }

    /** Whether a connection to {@code address} stays on this host. */
    private static boolean isLocal(InetAddress address) {
        if (address.isLoopbackAddress() || address.isAnyLocalAddress() || UNSPECIFIED.stream().anyMatch(n -> n.contains(address))) {
            return true;
        }
        try {
            return NetworkInterface.getByInetAddress(address) != null;
        } catch (SocketException e) {
            return false;
        }
    }
}
