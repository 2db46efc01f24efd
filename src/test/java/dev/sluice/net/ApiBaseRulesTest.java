package dev.sluice.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Where a deployment given through the model API may point: every spelling of a refused address, both ways. */
class ApiBaseRulesTest {
    private static final int OWN_PORT = 4000;

    /** Names this test resolves itself; any other goes to the JDK's resolver. */
    private static final Map<String, String> NAMES = Map.of(
            "imds.example.test", "169.254.169.254",
            "mapped.example.test", "::ffff:169.254.169.254",
            "vllm.example.test", "10.1.2.3");

    private static List<InetAddress> lookup(String name) {
        String address = NAMES.get(name);
        if (address == null) {
            return HostLookup.JDK.addresses(name);
        }
        try {
            return List.of(InetAddress.getByName(address));
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final ApiBaseRules DEFAULTS = new ApiBaseRules(List.of(), List.of(), () -> OWN_PORT, ApiBaseRulesTest::lookup);

    @ParameterizedTest
    @ValueSource(strings = {
            "http://169.254.169.254/latest/meta-data",
            "http://169.254.170.2",
            "http://[::ffff:169.254.169.254]",
            "http://[::ffff:a9fe:a9fe]",
            "http://[::169.254.169.254]",
            "http://[64:ff9b::169.254.169.254]",
            "http://[64:ff9b:1::a9fe:a9fe]",      // local-use NAT64 (RFC 8215)
            "http://[64:ff9b:1:2:3:4:a9fe:a9fe]",
            "http://[2002:a9fe:a9fe::]",          // 6to4 around 169.254.169.254
            "http://[2002:a9fe:a9fe:1::1]",
            "http://[::ffff:0:a9fe:a9fe]",        // SIIT's IPv4-translated form
            "http://[::ffff:0:169.254.169.254]",
            "http://[2001:0:4136:e378:8000:63bf:5601:5601]", // Teredo: the client, 5601:5601 inverted, is 169.254.169.254
            "http://[2002:6464:64c8::]",          // 6to4 around Alibaba's 100.100.100.200
            "http://192.0.0.192",                 // Oracle Cloud's metadata address
            "http://[::ffff:192.0.0.192]",
            "http://[fec0::1]",                   // deprecated site-local
            "http://[fec0:0:0:ffff::1]",
            "http://[feff::1]",
            "http://2852039166",          // 169.254.169.254 as one integer
            "http://0xa9fea9fe",          // as one hex number
            "http://0xA9.0xFE.0xA9.0xFE", // hex parts
            "http://0251.0376.0251.0376", // octal parts
            "http://169.254.43518",       // short form: the last part fills the rest
            "http://169.16689662",
            "http://169.254.169.254.",    // a trailing dot
            "http://[fe80::1]",
            "http://[fe80::1%25eth0]",
            "http://[fd00:ec2::254]",
            "http://100.100.100.200",
            "http://168.63.129.16",
            "http://0.0.0.0:8080",
            "http://0:8080",
            "http://0.1.2.3",
            "http://[::]:8080",
            "http://[::ffff:0.0.0.0]",
            "http://metadata.google.internal/computeMetadata/v1",
            "http://METADATA.GOOGLE.INTERNAL.",
            "http://metadata",
            "http://imds.example.test",   // a name that resolves to a refused address
            "http://mapped.example.test",
            "http://127.0.0.1:4000",      // the gateway's own port, on loopback
            "http://localhost:4000",
            "http://2130706433:4000",
            "http://0x7f000001:4000",
            "http://0177.0.0.1:4000",
            "http://127.1:4000",
            "http://[::1]:4000",
            "http://[::ffff:127.0.0.1]:4000",
            "ftp://example.com",
            "file:///etc/passwd",
            "gopher://10.0.0.1:70",
            "http://user:secret@example.com",
            "http://user@example.com",
    })
    void refusesByDefault(String url) {
        assertThat(DEFAULTS.refusal(url)).as(url).isPresent();
        assertThat(DEFAULTS.refusal(url).get()).as("the reason never repeats a password").doesNotContain("secret");
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "http://127.0.0.1:8000",
            "http://127.0.0.1",
            "http://localhost:11434",
            "http://2130706433:8000",
            "http://[::1]:8000",
            "http://10.0.0.5:8000/v1",
            "http://10.1.2.3",
            "http://172.16.0.1",
            "http://192.168.1.20:8080",
            "http://[fd12:3456::1]:8000",
            "https://8.8.8.8",
            "https://[2001:4860:4860::8888]",
            "http://[2002:0a00:0005::1]:8000",    // 6to4 around a private address stays allowed, as 10.0.0.5 is
            "http://[2002:0808:0808::]",
            "http://[64:ff9b:1::a00:5]:8000",     // local-use NAT64 around 10.0.0.5
            "http://[fe00::1]",                   // just below fe80::/10
            "http://192.0.0.191",
            "http://192.0.0.193",
            "http://vllm.example.test:8000",
            "https://api.openai.com",
            "https://name-that-does-not-resolve.invalid", // accepted: nothing can be reached through it now
            "HTTP://127.0.0.1:8000",
    })
    void allowsByDefault(String url) {
        assertThat(DEFAULTS.refusal(url)).as(url).isEmpty();
    }

    @Test
    void reasonsSayWhatTheAddressIs() {
        assertThat(DEFAULTS.refusal("http://169.254.169.254")).contains(
                "its host is a link-local address (169.254.0.0/16, fe80::/10), where cloud metadata services live");
        assertThat(DEFAULTS.refusal("http://imds.example.test").orElseThrow()).startsWith("its host name resolves to a link-local");
        assertThat(DEFAULTS.refusal("http://127.0.0.1:4000")).contains("its host is this gateway's own address and port");
        assertThat(DEFAULTS.refusal("http://[fd00:ec2::254]")).contains("its host is a cloud metadata address");
        assertThat(DEFAULTS.refusal("http://192.0.0.192")).contains("its host is a cloud metadata address");
        assertThat(DEFAULTS.refusal("http://[2002:a9fe:a9fe::]")).contains(
                "its host is a link-local address (169.254.0.0/16, fe80::/10), where cloud metadata services live");
        assertThat(DEFAULTS.refusal("http://[fec0::1]")).contains("its host is a deprecated IPv6 site-local address (fec0::/10)");
        assertThat(DEFAULTS.refusal("http://0.0.0.0")).contains("its host is an unspecified address (0.0.0.0/8, ::), which reaches this host");
        assertThat(DEFAULTS.refusal("ftp://example.com")).contains("only http and https URLs may be called");
    }

    @Test
    void theOwnPortIsTheDefaultPortOfTheSchemeWhenTheUrlNamesNone() {
        ApiBaseRules on80 = new ApiBaseRules(List.of(), List.of(), () -> 80, ApiBaseRulesTest::lookup);
        assertThat(on80.refusal("http://127.0.0.1")).isPresent();
        assertThat(on80.refusal("https://127.0.0.1")).isEmpty();
        assertThat(on80.refusal("http://127.0.0.1:81")).isEmpty();
    }

    @Test
    void theOwnPortOnAnyAddressOfThisHostIsRefused() throws Exception {
        Optional<InetAddress> local = java.net.NetworkInterface.networkInterfaces()
                .flatMap(java.net.NetworkInterface::inetAddresses)
                .filter(address -> address instanceof java.net.Inet4Address && !address.isLoopbackAddress()
                        && !address.isLinkLocalAddress())
                .findFirst();
        Assumptions.assumeTrue(local.isPresent(), "this host has a non-loopback IPv4 address");
        String host = local.get().getHostAddress();
        assertThat(DEFAULTS.refusal("http://" + host + ":" + OWN_PORT)).contains("its host is this gateway's own address and port");
        assertThat(DEFAULTS.refusal("http://" + host + ":" + (OWN_PORT + 1))).isEmpty();
    }

    @Test
    void theOperatorNarrowsAndWidens() {
        ApiBaseRules narrowed = new ApiBaseRules(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("fd00::/8")), List.of(),
                () -> OWN_PORT, ApiBaseRulesTest::lookup);
        assertThat(narrowed.refusal("http://10.0.0.5:8000")).contains(
                "its host is in a network general_settings.admin_api_base_denied_networks refuses");
        assertThat(narrowed.refusal("http://012.0.0.5:8000")).as("in any spelling").isPresent();
        assertThat(narrowed.refusal("http://[::ffff:10.0.0.5]:8000")).isPresent();
        assertThat(narrowed.refusal("http://vllm.example.test")).as("after resolving").isPresent();
        assertThat(narrowed.refusal("http://11.0.0.5:8000")).isEmpty();
        assertThat(narrowed.refusal("http://192.168.0.1")).isEmpty();

        ApiBaseRules widened = new ApiBaseRules(List.of(Cidr.parse("169.254.169.254/32")), List.of(Cidr.parse("169.254.0.0/16")),
                () -> OWN_PORT, ApiBaseRulesTest::lookup);
        assertThat(widened.refusal("http://169.254.170.2")).as("allowed by the operator").isEmpty();
        assertThat(widened.refusal("http://169.254.169.254")).as("denied wins over allowed").isPresent();
        assertThat(widened.refusal("http://[fe80::1]")).as("the rest of the defaults still hold").isPresent();

        ApiBaseRules ownPortAllowed = new ApiBaseRules(List.of(), List.of(Cidr.parse("127.0.0.0/8")), () -> OWN_PORT,
                ApiBaseRulesTest::lookup);
        assertThat(ownPortAllowed.refusal("http://127.0.0.1:4000")).as("the own port is never allowed").isPresent();
    }

    @Test
    void hostLiteralsReadEverySpellingAndNeverANAme() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        for (String spelling : List.of("127.0.0.1", "2130706433", "0x7f000001", "0X7F.1", "0177.0.0.1", "0177.1", "127.1",
                "127.0.1", "[::ffff:127.0.0.1]", "::ffff:7f00:1", "127.0.0.1.")) {
            assertThat(HostLiterals.parse(spelling)).as(spelling).contains(loopback);
        }
        for (String name : List.of("localhost", "example.com", "1.2.3.4.5", "256.1.1.1", "08.1.1.1", "0x1g", "4294967296",
                "127.256.0.1", "", "[zz::1]")) {
            assertThat(HostLiterals.parse(name)).as(name).isEmpty();
        }
        assertThat(HostLiterals.parse("4294967295")).contains(InetAddress.getByName("255.255.255.255"));
        assertThat(HostLiterals.parse("::1")).contains(InetAddress.getByName("::1"));
        assertThat(HostLiterals.parse("::")).contains(InetAddress.getByName("::"));
    }

    @Test
    void networksAreReadWithAClearRule() throws Exception {
        assertThat(Cidr.parse("10.0.0.0/8").contains(InetAddress.getByName("10.255.0.1"))).isTrue();
        assertThat(Cidr.parse("10.0.0.0/8").contains(InetAddress.getByName("11.0.0.0"))).isFalse();
        assertThat(Cidr.parse("10.1.2.3/8").contains(InetAddress.getByName("10.9.9.9"))).as("bits past the prefix ignored").isTrue();
        assertThat(Cidr.parse("192.168.1.7").contains(InetAddress.getByName("192.168.1.7"))).isTrue();
        assertThat(Cidr.parse("192.168.1.7").contains(InetAddress.getByName("192.168.1.8"))).isFalse();
        assertThat(Cidr.parse("fe80::/10").contains(InetAddress.getByName("febf::1"))).isTrue();
        assertThat(Cidr.parse("fe80::/10").contains(InetAddress.getByName("fec0::1"))).isFalse();
        assertThat(Cidr.parse("0.0.0.0/0").contains(InetAddress.getByName("::1"))).as("families do not mix").isFalse();
        for (String bad : List.of("10.0.0.0/33", "fe80::/129", "10.0.0.0/x", "example.com/8", "2130706433/8", "10.0.0/8", "")) {
            assertThat(Optional.of(bad).map(text -> {
                try {
                    Cidr.parse(text);
                    return "read";
                } catch (IllegalArgumentException e) {
                    return e.getMessage();
                }
            })).as(bad).isNotEqualTo(Optional.of("read"));
        }
    }
}
