package io.github.ratelimit.identity;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ClientIpResolver}.
 */
class ClientIpResolverTests {

	private static final String XFF = "X-Forwarded-For";

	private final ClientIpResolver resolver = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32, 64);

	private final ClientIpResolver forwardedResolver = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32,
			64, ForwardedHeader.FORWARDED);

	@Test
	void byDefaultOnlyLoopbackIsTrustedSoAPrivateNetworkClientCannotRotateItsIdentity() {
		ClientIpResolver defaults = new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES, 32, 64);
		for (int i = 0; i < 20; i++) {
			TestRequest request = TestRequest.from("10.1.2.3").header(XFF, "198.51.100." + i);
			assertThat(defaults.resolve(request)).isEqualTo("10.1.2.3");
		}
		assertThat(defaults.resolve(TestRequest.from("127.0.0.1").header(XFF, "198.51.100.7")))
			.isEqualTo("198.51.100.7");
		ClientIpResolver behindBalancer = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32, 64);
		assertThat(behindBalancer.resolve(TestRequest.from("10.1.2.3").header(XFF, "198.51.100.7")))
			.as("one documented line away")
			.isEqualTo("198.51.100.7");
	}

	@Test
	void usesThePeerAddressWithoutAProxy() {
		assertThat(this.resolver.resolve(TestRequest.from("203.0.113.7"))).isEqualTo("203.0.113.7");
	}

	@Test
	void ignoresForwardedForFromUntrustedPeer() {
		TestRequest request = TestRequest.from("203.0.113.7").header(XFF, "198.51.100.1");
		assertThat(this.resolver.resolve(request)).isEqualTo("203.0.113.7");
	}

	@Test
	void ignoresForwardedFromUntrustedPeer() {
		TestRequest request = TestRequest.from("203.0.113.7").header("Forwarded", "for=198.51.100.1");
		assertThat(this.forwardedResolver.resolve(request)).isEqualTo("203.0.113.7");
	}

	@Test
	void untrustedPeerRotatingForwardedForKeepsItsAddress() {
		for (int i = 0; i < 100; i++) {
			TestRequest request = TestRequest.from("203.0.113.7").header(XFF, "198.51.100." + i);
			assertThat(this.resolver.resolve(request)).isEqualTo("203.0.113.7");
		}
	}

	@Test
	void ignoresForwardedForWhenNoProxyIsTrusted() {
		ClientIpResolver trustsNobody = new ClientIpResolver(List.of(), 32, 64);
		TestRequest request = TestRequest.from("127.0.0.1").header(XFF, "198.51.100.1");
		assertThat(trustsNobody.resolve(request)).isEqualTo("127.0.0.1");
	}

	@Test
	void usesForwardedForFromTrustedPeer() {
		TestRequest request = TestRequest.from("10.0.0.1").header(XFF, "198.51.100.1");
		assertThat(this.resolver.resolve(request)).isEqualTo("198.51.100.1");
	}

	@Test
	void usesThePeerWhenTrustedPeerSendsNoForwardedFor() {
		assertThat(this.resolver.resolve(TestRequest.from("10.0.0.1"))).isEqualTo("10.0.0.1");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			198.51.100.1, 203.0.113.7, 10.0.0.2, 192.168.1.1 | 203.0.113.7
			203.0.113.7,10.0.0.2                             | 203.0.113.7
			' 203.0.113.7 ,	10.0.0.2 '                       | 203.0.113.7
			10.0.0.9, 203.0.113.7, 127.0.0.1                 | 203.0.113.7
			203.0.113.7, 198.51.100.1                        | 198.51.100.1
			""")
	void skipsTrustedHopsRightToLeft(String forwardedFor, String client) {
		TestRequest request = TestRequest.from("10.0.0.1").header(XFF, forwardedFor);
		assertThat(this.resolver.resolve(request)).isEqualTo(client);
	}

	@Test
	void clientBehindProxyCannotRotateItsAddress() {
		for (int i = 0; i < 100; i++) {
			// the client writes the left part; the trusted proxy appends the address it
			// saw
			TestRequest request = TestRequest.from("10.0.0.1").header(XFF, "198.51.100." + i + ", 203.0.113.7");
			assertThat(this.resolver.resolve(request)).isEqualTo("203.0.113.7");
		}
	}

	@Test
	void walksEveryFieldLineInOrder() {
		TestRequest request = TestRequest.from("10.0.0.1")
			.header(XFF, "198.51.100.1, 203.0.113.7")
			.header(XFF, "10.0.0.3, 10.0.0.2");
		assertThat(this.resolver.resolve(request)).isEqualTo("203.0.113.7");
		TestRequest reversed = TestRequest.from("10.0.0.1")
			.header(XFF, "10.0.0.3, 10.0.0.2")
			.header(XFF, "198.51.100.1, 203.0.113.7");
		assertThat(this.resolver.resolve(reversed)).isEqualTo("203.0.113.7");
	}

	@Test
	void usesTheLeftmostHopWhenEveryHopIsTrusted() {
		TestRequest request = TestRequest.from("10.0.0.1").header(XFF, "10.0.0.3, 192.168.0.2");
		assertThat(this.resolver.resolve(request)).isEqualTo("10.0.0.3");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			garbage                            | 10.0.0.1
			unknown                            | 10.0.0.1
			''                                 | 10.0.0.1
			' , ,, '                           | 10.0.0.1
			203.0.113.7, garbage               | 10.0.0.1
			203.0.113.7, garbage, 10.0.0.2     | 10.0.0.2
			203.0.113.7, unknown, 10.0.0.2     | 10.0.0.2
			203.0.113.7, _hidden, 10.0.0.2     | 10.0.0.2
			garbage, 203.0.113.7               | 203.0.113.7
			garbage, 10.0.0.3, 10.0.0.2        | 10.0.0.3
			010.0.0.1, 10.0.0.2                | 10.0.0.2
			1.2.3, 10.0.0.2                    | 10.0.0.2
			localhost, 10.0.0.2                | 10.0.0.2
			203.0.113.7,, 10.0.0.2             | 203.0.113.7
			"203.0.113.7"                      | 10.0.0.1
			203.0.113.7 198.51.100.1           | 10.0.0.1
			""")
	void garbageInForwardedForNeverWins(String forwardedFor, String client) {
		TestRequest request = TestRequest.from("10.0.0.1").header(XFF, forwardedFor);
		assertThat(this.resolver.resolve(request)).isEqualTo(client);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			203.0.113.7:5555          | 203.0.113.7
			[2001:db8:1:2::1]:443     | 2001:db8:1:2::/64
			2001:db8:1:2::1           | 2001:db8:1:2::/64
			[2001:db8:1:2::1]         | 2001:db8:1:2::/64
			::ffff:203.0.113.7        | 203.0.113.7
			""")
	void readsPortsBracketsAndMappedAddressesInForwardedFor(String forwardedFor, String client) {
		TestRequest request = TestRequest.from("10.0.0.1").header(XFF, forwardedFor);
		assertThat(this.resolver.resolve(request)).isEqualTo(client);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			for=192.0.2.60;proto=http;by=203.0.113.43             | 192.0.2.60
			for="[2001:db8:cafe::17]:4711"                        | 2001:db8:cafe::/64
			for="[2001:db8:cafe::17]"                             | 2001:db8:cafe::/64
			For="192.0.2.60:4711"                                 | 192.0.2.60
			FOR=192.0.2.60:4711                                   | 192.0.2.60
			for=192.0.2.60:_obf                                   | 192.0.2.60
			for=192.0.2.43, for=198.51.100.17                     | 198.51.100.17
			for=198.51.100.17, for=10.0.0.2                       | 198.51.100.17
			for=198.51.100.17;by=10.0.0.2, for=10.0.0.2;proto=https | 198.51.100.17
			proto=https;for=198.51.100.17                         | 198.51.100.17
			for=198.51.100.17;;proto=http                         | 198.51.100.17
			' for = 198.51.100.17 '                               | 198.51.100.17
			for=198.51.100.17;host="a,b;c", for=10.0.0.2          | 198.51.100.17
			for=10.0.0.3, for=10.0.0.2                            | 10.0.0.3
			for=198.51.100.17,,for=10.0.0.2                       | 198.51.100.17
			""")
	void readsTheForParameterOfForwarded(String forwarded, String client) {
		TestRequest request = TestRequest.from("10.0.0.1").header("Forwarded", forwarded);
		assertThat(this.forwardedResolver.resolve(request)).isEqualTo(client);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			for=unknown                                | 10.0.0.1
			for=_hidden                                | 10.0.0.1
			for=198.51.100.17, for=_hidden             | 10.0.0.1
			for=198.51.100.17, for=unknown, for=10.0.0.2 | 10.0.0.2
			for=_hidden, for=10.0.0.2                  | 10.0.0.2
			proto=https                                | 10.0.0.1
			for=198.51.100.17, proto=https             | 10.0.0.1
			for=198.51.100.17;for=192.0.2.1            | 10.0.0.1
			for="198.51.100.\\17"                       | 10.0.0.1
			for="198.51.100.17                         | 10.0.0.1
			for="198.51.100.17, for=10.0.0.2           | 10.0.0.1
			for=198.51.100.17 x                        | 10.0.0.1
			=198.51.100.17                             | 10.0.0.1
			for                                        | 10.0.0.1
			for=                                       | 10.0.0.1
			garbage, for=198.51.100.17                 | 198.51.100.17
			for=198.51.100.17 x, for=10.0.0.2          | 10.0.0.2
			for="[2001:db8::1", for=10.0.0.2           | 10.0.0.2
			""")
	void garbageInForwardedNeverWins(String forwarded, String client) {
		TestRequest request = TestRequest.from("10.0.0.1").header("Forwarded", forwarded);
		assertThat(this.forwardedResolver.resolve(request)).isEqualTo(client);
	}

	@Test
	void walksEveryForwardedFieldLineSeparately() {
		// a quote the client left open cannot swallow the element the proxy added on its
		// own line
		TestRequest request = TestRequest.from("10.0.0.1")
			.header("Forwarded", "for=\"198.51.100.1")
			.header("Forwarded", "for=203.0.113.7");
		assertThat(this.forwardedResolver.resolve(request)).isEqualTo("203.0.113.7");
	}

	@Test
	void readsOnlyTheConfiguredHeader() {
		TestRequest request = TestRequest.from("10.0.0.1")
			.header(XFF, "203.0.113.7")
			.header("Forwarded", "for=198.51.100.1");
		assertThat(this.resolver.resolve(request)).isEqualTo("203.0.113.7");
		assertThat(this.forwardedResolver.resolve(request)).isEqualTo("198.51.100.1");
		TestRequest spoofed = TestRequest.from("10.0.0.1").header("Forwarded", "for=198.51.100.1");
		assertThat(this.resolver.resolve(spoofed)).isEqualTo("10.0.0.1");
	}

	@Test
	void groupsIpv6ByPrefix() {
		String first = this.resolver.resolve(TestRequest.from("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
		String second = this.resolver.resolve(TestRequest.from("2001:db8:1:2::1"));
		String otherNetwork = this.resolver.resolve(TestRequest.from("2001:db8:1:3::1"));
		assertThat(first).isEqualTo("2001:db8:1:2::/64").isEqualTo(second);
		assertThat(otherNetwork).isEqualTo("2001:db8:1:3::/64");
	}

	@Test
	void groupsIpv6ByConfiguredPrefix() {
		ClientIpResolver by48 = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32, 48);
		assertThat(by48.resolve(TestRequest.from("2001:db8:1:2::1"))).isEqualTo("2001:db8:1::/48");
		ClientIpResolver by128 = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32, 128);
		assertThat(by128.resolve(TestRequest.from("2001:DB8:0:0:1:0:0:1"))).isEqualTo("2001:db8::1:0:0:1");
	}

	@Test
	void groupsIpv4ByPrefix() {
		ClientIpResolver by24 = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 24, 64);
		assertThat(by24.resolve(TestRequest.from("203.0.113.7"))).isEqualTo("203.0.113.0/24");
		assertThat(by24.resolve(TestRequest.from("10.0.0.1").header(XFF, "203.0.113.200"))).isEqualTo("203.0.113.0/24");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			::ffff:203.0.113.7        | 203.0.113.7
			0:0:0:0:0:ffff:cb00:7107  | 203.0.113.7
			203.0.113.7:51234         | 203.0.113.7
			[2001:db8::1]:51234       | 2001:db8::/64
			fe80::1%eth0              | fe80::/64
			0:0:0:0:0:0:0:1           | ::/64
			""")
	void normalisesThePeerAddress(String remoteAddress, String id) {
		assertThat(this.resolver.resolve(TestRequest.from(remoteAddress))).isEqualTo(id);
	}

	@Test
	void trustsAnIpv4MappedPeerAsItsIpv4Address() {
		TestRequest request = TestRequest.from("::ffff:10.0.0.1").header(XFF, "203.0.113.7");
		assertThat(this.resolver.resolve(request)).isEqualTo("203.0.113.7");
	}

	@Test
	void trustsIpv6LoopbackAndUniqueLocalProxies() {
		assertThat(this.resolver.resolve(TestRequest.from("0:0:0:0:0:0:0:1").header(XFF, "203.0.113.7")))
			.isEqualTo("203.0.113.7");
		assertThat(this.resolver.resolve(TestRequest.from("fd00::5").header(XFF, "2001:db8::1")))
			.isEqualTo("2001:db8::/64");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "garbage", "localhost", "1.2.3", "010.0.0.1", "unix:/run/app.sock", "[::1" })
	void isUnknownWhenThePeerIsNotAnAddress(String remoteAddress) {
		assertThat(this.resolver.resolve(TestRequest.from(remoteAddress))).isEqualTo(ClientIpResolver.UNKNOWN);
		assertThat(this.resolver.resolveAddress(TestRequest.from(remoteAddress))).isEqualTo(ClientIpResolver.UNKNOWN);
	}

	@Test
	void isUnknownWithoutAPeerAddress() {
		TestRequest request = TestRequest.from(null).header(XFF, "203.0.113.7");
		assertThat(this.resolver.resolve(request)).isEqualTo(ClientIpResolver.UNKNOWN);
	}

	@Test
	void resolvesTheAddressWithoutGrouping() {
		TestRequest request = TestRequest.from("10.0.0.1").header(XFF, "[2001:DB8:1:2::1]:443");
		assertThat(this.resolver.resolveAddress(request)).isEqualTo("2001:db8:1:2::1");
		assertThat(this.resolver.resolve(request)).isEqualTo("2001:db8:1:2::/64");
	}

	@Test
	void walksALongChainOfTrustedHops() {
		StringBuilder chain = new StringBuilder("198.51.100.1, 203.0.113.7");
		for (int i = 0; i < 1000; i++) {
			chain.append(", 10.0.").append(i / 250).append('.').append(i % 250);
		}
		TestRequest request = TestRequest.from("10.0.0.1").header(XFF, chain.toString());
		assertThat(this.resolver.resolve(request)).isEqualTo("203.0.113.7");
	}

	@Test
	void namesTheInvalidTrustedProxy() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ClientIpResolver(List.of("10.0.0.0/8", "::1", "10.0.0.1/8"), 32, 64))
			.withMessage("trustedProxies[2]: '10.0.0.1/8' is not a valid CIDR range: "
					+ "host bits are set below the /8 prefix; did you mean 10.0.0.0/8?");
	}

	@Test
	void rejectsPrefixesOutOfRange() {
		List<String> trusted = CidrRange.LOOPBACK_AND_PRIVATE_RANGES;
		assertThatIllegalArgumentException().isThrownBy(() -> new ClientIpResolver(trusted, 33, 64))
			.withMessage("ipv4Prefix must be from 0 to 32, not 33");
		assertThatIllegalArgumentException().isThrownBy(() -> new ClientIpResolver(trusted, 32, -1))
			.withMessage("ipv6Prefix must be from 0 to 128, not -1");
	}

	@ParameterizedTest
	@CsvSource({ "198.51.100.7, 198.51.100.7", "198.51.100.7/32, 198.51.100.7", "::ffff:198.51.100.7, 198.51.100.7",
			"2001:db8:5::1, 2001:db8:5::/64", "2001:DB8:5:0:ffff::2, 2001:db8:5::/64",
			"2001:db8:5::/64, 2001:db8:5::/64", "unknown, unknown" })
	void anAddressAnOperatorNamesIsTheIdItsRequestsGet(String text, String id) {
		assertThat(this.resolver.idOf(text)).isEqualTo(id);
		if (!text.contains("/") && !text.equals("unknown")) {
			assertThat(this.resolver.resolve(TestRequest.from(text))).isEqualTo(id);
		}
	}

	@Test
	void anAddressIsItsGroupByTheConfiguredPrefixes() {
		ClientIpResolver grouped = new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES, 24, 48);
		assertThat(grouped.idOf("198.51.100.7")).isEqualTo("198.51.100.0/24");
		assertThat(grouped.idOf("198.51.100.0/24")).isEqualTo("198.51.100.0/24");
		assertThat(grouped.idOf("2001:db8:5:7::1")).isEqualTo("2001:db8:5::/48");
		assertThat(grouped.example(false)).isEqualTo("2001:db8:5::/48");
	}

	@ParameterizedTest
	@ValueSource(strings = { "not-an-address", "198.51.100", "198.51.100.7:80", "[2001:db8::1]", "fe80::1%eth0", "" })
	void whatNamesNoAddressIsRefusedWithTheFormToUse(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> this.resolver.idOf(text))
			.withMessageContaining("is not an IP address")
			.withMessageContaining("198.51.100.7, 2001:db8:5::1")
			.withMessageContaining("2001:db8:5::/64");
	}

	@ParameterizedTest
	@ValueSource(strings = { "198.51.100.0/24", "2001:db8:5::/48", "2001:db8:5::1/64", "2001:db8:5::/128",
			"::ffff:198.51.100.7/128" })
	void aGroupClientsAreNotCountedInIsRefusedWithTheGroupToUse(String text) {
		assertThatIllegalArgumentException().isThrownBy(() -> this.resolver.idOf(text))
			.withMessageContaining("is not a group clients are counted in")
			.withMessageContaining("ratelimit.identity.ipv6-prefix");
	}

}
