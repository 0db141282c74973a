package io.github.ratelimit.reputation;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.identity.CidrRange;

import static org.assertj.core.api.Assertions.assertThat;

class AddressRangesTests {

	@Test
	void holdsTheAddressesOfItsRangesAndNoOthers() {
		AddressRanges ranges = AddressRanges.of(List.of(CidrRange.parse("203.0.113.0/24"),
				CidrRange.parse("2001:db8::/32"), CidrRange.parse("192.0.2.7")));
		assertThat(contains(ranges, "203.0.113.0")).isTrue();
		assertThat(contains(ranges, "203.0.113.255")).isTrue();
		assertThat(contains(ranges, "203.0.112.255")).isFalse();
		assertThat(contains(ranges, "203.0.114.0")).isFalse();
		assertThat(contains(ranges, "192.0.2.7")).isTrue();
		assertThat(contains(ranges, "192.0.2.8")).isFalse();
		assertThat(contains(ranges, "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")).isTrue();
		assertThat(contains(ranges, "2001:db9::")).isFalse();
		assertThat(contains(ranges, "::ffff:203.0.113.1")).isTrue();
		assertThat(contains(ranges, "::")).isFalse();
		assertThat(AddressRanges.EMPTY.contains(0, 0)).isFalse();
	}

	@Test
	void mergesOverlappingAndAdjacentRanges() {
		AddressRanges ranges = AddressRanges.of(List.of(CidrRange.parse("10.0.1.0/24"), CidrRange.parse("10.0.0.0/24"),
				CidrRange.parse("10.0.0.0/16"), CidrRange.parse("10.1.0.0/16"), CidrRange.parse("::/0")));
		// ::/0 holds every address, the IPv4 ones too
		assertThat(ranges.intervals()).isEqualTo(1);
		AddressRanges ipv4 = AddressRanges.of(List.of(CidrRange.parse("10.0.1.0/24"), CidrRange.parse("10.0.0.0/24"),
				CidrRange.parse("10.0.2.0/24"), CidrRange.parse("10.0.4.0/24")));
		assertThat(ipv4.intervals()).isEqualTo(2);
		assertThat(contains(ipv4, "10.0.2.255")).isTrue();
		assertThat(contains(ipv4, "10.0.3.0")).isFalse();
		assertThat(contains(ipv4, "10.0.4.1")).isTrue();
	}

	@Test
	void agreesWithCheckingEveryRange() {
		Random random = new Random(42);
		List<CidrRange> cidrs = new ArrayList<>();
		for (int i = 0; i < 300; i++) {
			int prefix = 8 + random.nextInt(25);
			long address = random.nextInt() & 0xffffffffL;
			long network = address & (0xffffffffL << (32 - prefix)) & 0xffffffffL;
			cidrs.add(CidrRange.parse(ipv4(network) + "/" + prefix));
		}
		AddressRanges ranges = AddressRanges.of(cidrs);
		for (int i = 0; i < 20_000; i++) {
			String address = ipv4(random.nextInt() & 0xffffffffL);
			boolean expected = cidrs.stream().anyMatch((cidr) -> cidr.contains(address));
			assertThat(contains(ranges, address)).as(address).isEqualTo(expected);
		}
	}

	private static String ipv4(long value) {
		return (value >>> 24) + "." + ((value >>> 16) & 255) + "." + ((value >>> 8) & 255) + "." + (value & 255);
	}

	private static boolean contains(AddressRanges ranges, String address) {
		AddressBits bits = AddressBits.parse(address);
		assertThat(bits).isNotNull();
		return ranges.contains(bits);
	}

}
