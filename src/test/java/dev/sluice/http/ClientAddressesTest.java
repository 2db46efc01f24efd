package dev.sluice.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.net.Cidr;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Who a request is from: the peer, unless the peer is a trusted proxy that names the client. */
class ClientAddressesTest {
    private final ClientAddresses behindProxies = new ClientAddresses(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("fd00::/8")));

    @Test
    void aPeerThatIsNoTrustedProxyIsTheClientWhateverItSays() {
        assertThat(behindProxies.of("203.0.113.9", List.of("198.51.100.1"))).isEqualTo("203.0.113.9");
        assertThat(ClientAddresses.PEER.of("10.0.0.5", List.of("198.51.100.1"))).isEqualTo("10.0.0.5");
    }

    @Test
    void behindATrustedProxyTheRightmostUntrustedHopIsTheClient() {
        // The client may write anything at the left; the proxies append what they saw at the right.
        assertThat(behindProxies.of("10.0.0.5", List.of("1.2.3.4, 198.51.100.7, 10.0.0.9"))).isEqualTo("198.51.100.7");
        assertThat(behindProxies.of("10.0.0.5", List.of("1.2.3.4", "198.51.100.7"))).isEqualTo("198.51.100.7");
        assertThat(behindProxies.of("fd00::1", List.of("[2001:db8::7]"))).isEqualTo("[2001:db8::7]");
    }

    @Test
    void withNoHeaderOrOnlyTrustedHopsTheLeftmostTrustedOneIsTheClient() {
        assertThat(behindProxies.of("10.0.0.5", List.of())).isEqualTo("10.0.0.5");
        assertThat(behindProxies.of("10.0.0.5", List.of("10.1.1.1, 10.2.2.2"))).isEqualTo("10.1.1.1");
    }

    @Test
    void aHopThatIsNoAddressEndsTheWalkAtTheLastAddressSeen() {
        assertThat(behindProxies.of("10.0.0.5", List.of("198.51.100.7, unknown, 10.0.0.9"))).isEqualTo("10.0.0.9");
    }

    @Test
    void aHopWrittenWithItsPortIsTheAddressWithoutIt() {
        assertThat(behindProxies.of("10.0.0.5", List.of("198.51.100.7:51234"))).isEqualTo("198.51.100.7");
        assertThat(behindProxies.of("10.0.0.5", List.of("[2001:db8::7]:51234"))).isEqualTo("[2001:db8::7]");
        assertThat(behindProxies.of("10.0.0.5", List.of("10.0.0.9:443, 198.51.100.7:80"))).isEqualTo("198.51.100.7");
    }
}
