package io.github.ratelimit.identity;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CidrRange}.
 */
class CidrRangeTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			10.0.0.0/8          | 10.0.0.0/8
			'  10.0.0.0/8 '     | 10.0.0.0/8
			192.0.2.1           | 192.0.2.1/32
			0.0.0.0/0           | 0.0.0.0/0
			::1                 | ::1/128
			::1/128             | ::1/128
			FC00::/7            | fc00::/7
			2001:DB8:0::/32     | 2001:db8::/32
			::/0                | ::/0
			::ffff:0:0/96       | ::ffff:0:0/96
			::ffff:10.0.0.0/104 | ::ffff:a00:0/104
			""")
	void parsesRangesToCanonicalForm(String cidr, String canonical) {
		assertThat(CidrRange.parse(cidr)).hasToString(canonical);
		assertThat(CidrRange.invalidReason(cidr)).isNull();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			10.0.0.0/8        | 10.0.0.1              | true
			10.0.0.0/8        | 10.255.255.255        | true
			10.0.0.0/8        | 11.0.0.0              | false
			10.0.0.0/8        | 9.255.255.255         | false
			10.0.0.0/8        | ::ffff:10.1.2.3       | true
			10.0.0.0/8        | [::ffff:10.1.2.3]:443 | true
			10.0.0.0/8        | 10.1.2.3:8080         | true
			172.16.0.0/12     | 172.31.255.255        | true
			172.16.0.0/12     | 172.32.0.0            | false
			192.0.2.1         | 192.0.2.1             | true
			192.0.2.1         | 192.0.2.2             | false
			0.0.0.0/0         | 203.0.113.7           | true
			0.0.0.0/0         | 2001:db8::1           | false
			::1/128           | ::1                   | true
			::1/128           | 0:0:0:0:0:0:0:1       | true
			::1/128           | [::1]:8080            | true
			::1/128           | ::2                   | false
			::1/128           | 127.0.0.1             | false
			fc00::/7          | fd12:3456::1          | true
			fc00::/7          | fe00::1               | false
			fc00::/7          | fe80::1%eth0          | false
			2001:db8::/32     | 2001:db8:ffff::1      | true
			2001:db8::/32     | 2001:db9::1           | false
			::/0              | 203.0.113.7           | true
			::ffff:0:0/96     | 203.0.113.7           | true
			10.0.0.0/8        | 010.0.0.1             | false
			10.0.0.0/8        | 10.0.0                | false
			10.0.0.0/8        | not an address        | false
			""")
	void containsTheAddressesOfItsBlock(String cidr, String address, boolean contained) {
		assertThat(CidrRange.parse(cidr).contains(address)).isEqualTo(contained);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
			""                    | a range must not be empty
			10.0.0.1/8            | host bits are set below the /8 prefix; did you mean 10.0.0.0/8?
			2001:db8::1/32        | host bits are set below the /32 prefix; did you mean 2001:db8::/32?
			10.0.0.0/33           | the prefix length after '/' must be a number from 0 to 32 for an IPv4 range
			::/129                | the prefix length after '/' must be a number from 0 to 128 for an IPv6 range
			10.0.0.0/             | the prefix length after '/' must be a number from 0 to 32 for an IPv4 range
			10.0.0.0/08           | the prefix length after '/' must be a number from 0 to 32 for an IPv4 range
			10.0.0.0/-8           | the prefix length after '/' must be a number from 0 to 32 for an IPv4 range
			10.0.0.0/8/8          | the prefix length after '/' must be a number from 0 to 32 for an IPv4 range
			10.0/8                | '10.0' is not an IPv4 address (a.b.c.d, no leading zeros) or an IPv6 address
			010.0.0.0/8           | '010.0.0.0' is not an IPv4 address (a.b.c.d, no leading zeros) or an IPv6 address
			localhost             | 'localhost' is not an IPv4 address (a.b.c.d, no leading zeros) or an IPv6 address
			fe80::%eth0/64        | zone ids (%...) are not allowed in a range
			[::1]/128             | write IPv6 ranges without brackets, for example fc00::/7
			""")
	void explainsWhyARangeIsInvalid(String cidr, String reason) {
		assertThat(CidrRange.invalidReason(cidr)).isEqualTo(reason);
		assertThatIllegalArgumentException().isThrownBy(() -> CidrRange.parse(cidr))
			.withMessage("'" + cidr + "' is not a valid CIDR range: " + reason);
	}

	@Test
	void providedRangesAreValid() {
		assertThat(CidrRange.LOOPBACK_AND_PRIVATE_RANGES).containsAll(CidrRange.DEFAULT_TRUSTED_PROXIES)
			.containsAll(CidrRange.PRIVATE_RANGES)
			.allSatisfy((cidr) -> assertThat(CidrRange.invalidReason(cidr)).isNull());
	}

	@ParameterizedTest
	@ValueSource(strings = { "127.0.0.1", "::1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "fd00::1" })
	void loopbackAndPrivateRangesCoverWhatTheirNameSays(String address) {
		assertThat(CidrRange.LOOPBACK_AND_PRIVATE_RANGES)
			.anySatisfy((cidr) -> assertThat(CidrRange.parse(cidr).contains(address)).isTrue());
	}

	@ParameterizedTest
	@ValueSource(strings = { "10.1.2.3", "172.20.0.1", "192.168.1.1", "fd00::1" })
	void defaultTrustedProxiesLeaveThePrivateRangesOut(String address) {
		assertThat(CidrRange.DEFAULT_TRUSTED_PROXIES)
			.noneSatisfy((cidr) -> assertThat(CidrRange.parse(cidr).contains(address)).isTrue());
	}

	@Test
	void equalRangesAreEqual() {
		assertThat(CidrRange.parse("FC00::/7")).isEqualTo(CidrRange.parse("fc00:0::/7"))
			.hasSameHashCodeAs(CidrRange.parse("fc00:0::/7"))
			.isNotEqualTo(CidrRange.parse("fc00::/8"));
	}

}
