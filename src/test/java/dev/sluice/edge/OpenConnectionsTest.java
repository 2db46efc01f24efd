package dev.sluice.edge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.net.Cidr;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Connections counted in all and per client, an IPv6 client by its /64, a trusted proxy by neither. */
class OpenConnectionsTest {
    private static InetAddress at(String address) throws Exception {
        return InetAddress.getByName(address);
    }

    @Test
    void anAddressIsRefusedAtItsBoundAndLetInAgainOnceOneCloses() throws Exception {
        OpenConnections connections = new OpenConnections(100, 2, List.of());
        assertThat(connections.tryOpen(at("203.0.113.7"))).isEqualTo(OpenConnections.Refusal.NONE);
        assertThat(connections.tryOpen(at("203.0.113.7"))).isEqualTo(OpenConnections.Refusal.NONE);

        assertThat(connections.tryOpen(at("203.0.113.7"))).isEqualTo(OpenConnections.Refusal.TOO_MANY_FROM_ADDRESS);
        assertThat(connections.tryOpen(at("203.0.113.8"))).isEqualTo(OpenConnections.Refusal.NONE);
        assertThat(connections.count()).isEqualTo(3);

        connections.closed(at("203.0.113.7"));
        assertThat(connections.tryOpen(at("203.0.113.7"))).isEqualTo(OpenConnections.Refusal.NONE);
    }

    @Test
    void anIpv6ClientIsCountedByItsSlash64() throws Exception {
        OpenConnections connections = new OpenConnections(100, 2, List.of());
        connections.tryOpen(at("2001:db8:1:2::1"));
        connections.tryOpen(at("2001:db8:1:2:ffff::9"));

        assertThat(connections.tryOpen(at("2001:db8:1:2:aaaa:bbbb:cccc:dddd")))
                .isEqualTo(OpenConnections.Refusal.TOO_MANY_FROM_ADDRESS);
        assertThat(connections.tryOpen(at("2001:db8:1:3::1"))).as("another /64").isEqualTo(OpenConnections.Refusal.NONE);
        assertThat(connections.tryOpen(at("::ffff:203.0.113.7"))).as("IPv4 carried in IPv6").isEqualTo(OpenConnections.Refusal.NONE);
    }

    @Test
    void theBoundInAllHoldsForTrustedProxiesTooButNotThePerAddressOne() throws Exception {
        OpenConnections connections = new OpenConnections(3, 1, List.of(Cidr.parse("10.0.0.0/8")));
        assertThat(connections.tryOpen(at("10.0.0.5"))).isEqualTo(OpenConnections.Refusal.NONE);
        assertThat(connections.tryOpen(at("10.0.0.5"))).isEqualTo(OpenConnections.Refusal.NONE);
        assertThat(connections.tryOpen(at("10.0.0.5"))).isEqualTo(OpenConnections.Refusal.NONE);

        assertThat(connections.tryOpen(at("10.0.0.5"))).isEqualTo(OpenConnections.Refusal.TOO_MANY);
        assertThat(connections.addresses()).isZero();
    }
}
