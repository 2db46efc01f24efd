package dev.sluice.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Reads a URL's host as an IP address when it is written as one, in every spelling some
 * resolver accepts, so a check cannot be passed by writing the same address differently.
 *
 * <p>IPv4 follows the C library's {@code inet_aton}, which many HTTP stacks fall back to:
 * one to four parts, each decimal, {@code 0x} hex or {@code 0}-led octal, the last part
 * filling the bytes left ({@code 2130706433}, {@code 0x7f000001}, {@code 0177.1} and
 * {@code 127.1} are all 127.0.0.1). IPv6 is any text with a colon, brackets and a zone
 * ({@code %eth0}) removed. An IPv6 address that carries an IPv4 one is read as the IPv4
 * address, the one a connection to it reaches through a translator or tunnel: IPv4-mapped
 * {@code ::ffff:a.b.c.d}, IPv4-compatible {@code ::a.b.c.d}, SIIT's IPv4-translated
 * {@code ::ffff:0:a.b.c.d}, NAT64 {@code 64:ff9b::a.b.c.d} (and the local-use
 * {@code 64:ff9b:1::/48}, its last 32 bits), 6to4 {@code 2002:AABB:CCDD::}
 * and Teredo {@code 2001:0::} (whose client address is its last 32 bits inverted).
 */
public final class HostLiterals {
    private static final Pattern IPV6_TEXT = Pattern.compile("[0-9a-fA-F:.]+");
    private static final byte[] NAT64_PREFIX = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
    private static final byte[] NAT64_LOCAL_PREFIX = {0, 0x64, (byte) 0xff, (byte) 0x9b, 0, 1};
    /** Bytes 8 to 11 of SIIT's IPv4-translated addresses, {@code ::ffff:0:0:0/96} (RFC 2765). */
    private static final byte[] SIIT_MARK = {(byte) 0xff, (byte) 0xff, 0, 0};
    private static final byte[] TEREDO_PREFIX = {0x20, 0x01, 0, 0};

    private HostLiterals() {}

    /** The address {@code host} spells, or empty when it is a name. Never looks a name up. */
    public static Optional<InetAddress> parse(String host) {
        String text = host.strip();
        if (text.startsWith("[") && text.endsWith("]")) {
            text = text.substring(1, text.length() - 1);
        }
        if (text.contains(":")) {
            return ipv6(text);
        }
        if (text.endsWith(".")) {
            text = text.substring(0, text.length() - 1);
        }
        return ipv4(text);
    }

    /**
     * The IPv4 address an IPv6 one carries (mapped, compatible, SIIT-translated, NAT64, 6to4
     * or Teredo), else the address itself.
     */
    public static InetAddress unwrapped(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        byte[] bytes = address.getAddress();
        boolean compatible = zeros(bytes, 0, 12);
        // The well-known NAT64 prefix, and RFC 8215's local-use 64:ff9b:1::/48 read the same way (its /96s carry the address last).
        boolean nat64 = Arrays.equals(bytes, 0, 12, NAT64_PREFIX, 0, 12) || Arrays.equals(bytes, 0, 6, NAT64_LOCAL_PREFIX, 0, 6);
        boolean translated = zeros(bytes, 0, 8) && Arrays.equals(bytes, 8, 12, SIIT_MARK, 0, 4);
        // ::/128 and ::1 are IPv6's own unspecified and loopback addresses, not IPv4 ones.
        boolean ownIpv6 = compatible && bytes[12] == 0 && bytes[13] == 0 && bytes[14] == 0 && (bytes[15] == 0 || bytes[15] == 1);
        if ((compatible && !ownIpv6) || nat64 || translated) {
            return v4(new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]});
        }
        if (bytes[0] == 0x20 && bytes[1] == 0x02) { // 6to4: 2002:AABB:CCDD::/48 is the site of a.b.c.d
            return v4(new byte[] {bytes[2], bytes[3], bytes[4], bytes[5]});
        }
        if (Arrays.equals(bytes, 0, 4, TEREDO_PREFIX, 0, 4)) { // the client behind the relay, its address inverted
            return v4(new byte[] {(byte) ~bytes[12], (byte) ~bytes[13], (byte) ~bytes[14], (byte) ~bytes[15]});
        }
        return address;
    }

    private static boolean zeros(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static Optional<InetAddress> ipv6(String text) {
        int zone = text.indexOf('%');
        String address = zone < 0 ? text : text.substring(0, zone);
        if (!IPV6_TEXT.matcher(address).matches()) {
            return Optional.empty();
        }
        try {
            // Text of only hex digits, colons and dots is read as a literal: no lookup happens.
            return Optional.of(unwrapped(InetAddress.getByName(address)));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    private static Optional<InetAddress> ipv4(String text) {
        String[] parts = text.split("\\.", -1);
        if (parts.length < 1 || parts.length > 4) {
            return Optional.empty();
        }
        long[] values = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            long value = part(parts[i]);
            if (value < 0) {
                return Optional.empty();
            }
            values[i] = value;
        }
        long address = 0;
        for (int i = 0; i < values.length - 1; i++) {
            if (values[i] > 255) {
                return Optional.empty();
            }
            address |= values[i] << (8 * (3 - i));
        }
        long last = values[values.length - 1];
        int lastBytes = 5 - values.length;
        if (last >= 1L << (8 * lastBytes)) {
            return Optional.empty();
        }
        address |= last;
        return Optional.of(v4(new byte[] {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8),
                (byte) address}));
    }

    /** One part's value, or -1 when it is not a number in any of the three bases. */
    private static long part(String part) {
        if (part.isEmpty() || part.length() > 12) {
            return -1;
        }
        int radix = 10;
        String digits = part;
        if (part.startsWith("0x") || part.startsWith("0X")) {
            radix = 16;
            digits = part.substring(2);
            if (digits.isEmpty()) {
                return 0; // inet_aton reads a bare 0x as zero
            }
        } else if (part.length() > 1 && part.startsWith("0")) {
            radix = 8;
            digits = part.substring(1);
        }
        for (int i = 0; i < digits.length(); i++) {
            if (Character.digit(digits.charAt(i), radix) < 0) {
                return -1;
            }
        }
        return Long.parseLong(digits, radix);
    }

    private static InetAddress v4(byte[] bytes) {
        try {
            return (Inet4Address) InetAddress.getByAddress(bytes);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("four bytes are always an IPv4 address", e);
        }
    }
}
