package dev.sluice.net;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * A network in CIDR form ({@code 169.254.0.0/16}, {@code fe80::/10}); a bare address is the
 * network of that one address. Bits past the prefix are ignored, as most tools read them.
 */
public record Cidr(byte[] network, int prefix, String text) {

    /** @throws IllegalArgumentException naming what is wrong, for a config problem */
    public static Cidr parse(String text) {
        int slash = text.indexOf('/');
        String host = slash < 0 ? text : text.substring(0, slash);
        InetAddress address = literal(host.strip());
        int max = address instanceof Inet4Address ? 32 : 128;
        int prefix = max;
        if (slash >= 0) {
            String bits = text.substring(slash + 1).strip();
            if (!bits.matches("[0-9]{1,3}") || Integer.parseInt(bits) > max) {
                throw new IllegalArgumentException("a prefix length from 0 to " + max);
            }
            prefix = Integer.parseInt(bits);
        }
        return new Cidr(masked(address.getAddress(), prefix), prefix, text.strip());
    }

    /** Whether {@code address} is in this network; an IPv6 address carrying an IPv4 one is read as that. */
    public boolean contains(InetAddress address) {
        byte[] bytes = HostLiterals.unwrapped(address).getAddress();
        return bytes.length == network.length && java.util.Arrays.equals(masked(bytes, prefix), network);
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Cidr cidr && cidr.prefix == prefix && java.util.Arrays.equals(cidr.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(network) + prefix;
    }

    /** Only plain dotted IPv4 and IPv6 text: a config names networks the way people read them. */
    private static InetAddress literal(String host) {
        boolean dotted = host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
        if (!dotted && !host.contains(":")) {
            throw new IllegalArgumentException("an IPv4 or IPv6 address");
        }
        InetAddress address = HostLiterals.parse(host)
                .orElseThrow(() -> new IllegalArgumentException("an IPv4 or IPv6 address"));
        return HostLiterals.unwrapped(address);
    }

    private static byte[] masked(byte[] bytes, int prefix) {
        byte[] result = bytes.clone();
        for (int i = 0; i < result.length; i++) {
            int keep = Math.max(0, Math.min(8, prefix - 8 * i));
            result[i] = (byte) (result[i] & (0xff << (8 - keep)));
        }
        return result;
    }
}
