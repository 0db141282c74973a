package io.github.ratelimit.identity;

import java.net.InetAddress;
import java.util.Random;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IpLiterals} and the rendering of {@link IpAddress}.
 */
class IpLiteralsTests {

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			0.0.0.0                                | 0.0.0.0
			203.0.113.7                            | 203.0.113.7
			255.255.255.255                        | 255.255.255.255
			::                                     | ::
			::1                                    | ::1
			1::                                    | 1::
			2001:DB8::1                            | 2001:db8::1
			2001:0db8:0000:0000:0000:0000:0000:0001 | 2001:db8::1
			2001:db8:0:0:1:0:0:1                   | 2001:db8::1:0:0:1
			2001:db8:0:1:1:1:1:1                   | 2001:db8:0:1:1:1:1:1
			2001:0:0:1:0:0:0:1                     | 2001:0:0:1::1
			1:2:3:4:5:6:7::                        | 1:2:3:4:5:6:7:0
			::2:3:4:5:6:7:8                        | 0:2:3:4:5:6:7:8
			fe80::1:2                              | fe80::1:2
			::ffff:203.0.113.7                     | 203.0.113.7
			::FFFF:cb00:7107                       | 203.0.113.7
			0:0:0:0:0:ffff:203.0.113.7             | 203.0.113.7
			::203.0.113.7                          | ::cb00:7107
			64:ff9b::203.0.113.7                   | 64:ff9b::cb00:7107
			1:2:3:4:5:6:1.2.3.4                    | 1:2:3:4:5:6:102:304
			""")
	void parsesAddressLiteralsToCanonicalForm(String literal, String canonical) {
		assertThat(address(literal)).hasToString(canonical);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "1.2.3", "1.2.3.4.5", "1.2.3.256", "010.1.1.1", "1.02.3.4", "00.1.1.1",
			"1.2.3.-4", "+1.2.3.4", "1..2.3", ".1.2.3.4", "1.2.3.4.", "0x7f.0.0.1", "2130706433", "1.2.3.4 ",
			" 1.2.3.4", "1.2.3.1000", "١.٢.٣.٤", "localhost", "example.com", ":", ":::", "1:::2", "::1::", "1::2::3",
			":1::", "1:", ":1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8",
			"12345::", "g::", "::ffff:1.2.3", "::ffff:1.2.3.4.5", "1:2:3:4:5:6:7:1.2.3.4", "::1.2.3.4:5", "1.2.3.4::",
			"::ffff:01.2.3.4", "::%eth0", "::1/128", "[::1]", "１.２.３.４" })
	void rejectsAnythingElseAsAnAddress(String text) {
		assertThat(IpLiterals.parseAddress(text, 0, text.length())).isNull();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			203.0.113.7:443             | 203.0.113.7
			203.0.113.7:0               | 203.0.113.7
			203.0.113.7:65535           | 203.0.113.7
			203.0.113.7:_hidden         | 203.0.113.7
			[2001:db8::1]               | 2001:db8::1
			[2001:db8::1]:8080          | 2001:db8::1
			[2001:db8::1]:_obf-port.1   | 2001:db8::1
			[fe80::1%eth0]:80           | fe80::1
			[fe80::1%25eth0]            | fe80::1
			fe80::1%eth0                | fe80::1
			fe80::1%3                   | fe80::1
			[::ffff:203.0.113.7]:1      | 203.0.113.7
			""")
	void parsesNodesWithBracketsZonesAndPorts(String node, String canonical) {
		assertThat(node(node)).hasToString(canonical);
	}

	@ParameterizedTest
	@ValueSource(strings = { "unknown", "_hidden", "_203.0.113.7", "203.0.113.7:", "203.0.113.7:65536",
			"203.0.113.7:123456", "203.0.113.7:-1", "203.0.113.7:_", "203.0.113.7:_a b", "203.0.113.7:80:80",
			"2001:db8::1:443x", "[2001:db8::1", "2001:db8::1]", "[2001:db8::1]:", "[2001:db8::1]80",
			"[2001:db8::1]:99999", "[203.0.113.7]", "[203.0.113.7]:80", "[]", "[::1]]", "fe80::1%", "fe80::1%eth 0",
			"fe80::1%eth0:80", "203.0.113.7%eth0", "[fe80::1%]", "\"203.0.113.7\"", "203.0.113.7 :80" })
	void rejectsMalformedNodes(String text) {
		assertThat(IpLiterals.parseNode(text, 0, text.length())).isNull();
	}

	@Test
	void parsesARegionWithoutCopyingIt() {
		String header = "x, 203.0.113.7 ,y";
		assertThat(IpLiterals.parseNode(header, 3, 14)).hasToString("203.0.113.7");
		assertThat(IpLiterals.parseNode(header, 2, 14)).isNull();
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			203.0.113.7                        | 32  | 64  | 203.0.113.7
			203.0.113.7                        | 24  | 64  | 203.0.113.0/24
			203.0.113.7                        | 0   | 64  | 0.0.0.0/0
			::ffff:203.0.113.7                 | 16  | 64  | 203.0.0.0/16
			2001:db8:1:2:3:4:5:6               | 32  | 64  | 2001:db8:1:2::/64
			2001:db8:1:2:3:4:5:6               | 32  | 48  | 2001:db8:1::/48
			2001:db8:1:2ff:3:4:5:6             | 32  | 56  | 2001:db8:1:200::/56
			2001:db8:1:2:3:4:5:6               | 32  | 128 | 2001:db8:1:2:3:4:5:6
			2001:db8:1:2:3:4:5:6               | 32  | 127 | 2001:db8:1:2:3:4:5:6/127
			2001:db8:1:2:3:4:5:7               | 32  | 127 | 2001:db8:1:2:3:4:5:6/127
			2001:db8:1:2:3:4:5:6               | 32  | 0   | ::/0
			::1                                | 32  | 64  | ::/64
			""")
	void rendersTheGroupOfAnAddress(String address, int ipv4Prefix, int ipv6Prefix, String group) {
		assertThat(address(address).toGroup(ipv4Prefix, ipv6Prefix)).isEqualTo(group);
	}

	@Test
	void readsEveryTextualFormOfRandomAddressesAsJavaDoes() throws Exception {
		Random random = new Random(4291);
		for (int i = 0; i < 20_000; i++) {
			int[] groups = randomGroups(random);
			String text = randomForm(groups, random);
			IpAddress parsed = address(text);
			// a literal with a colon is never looked up by name, so this is safe to
			// compare against
			byte[] expected = InetAddress.getByName(text).getAddress();
			assertThat(parsed.isIpv4()).as(text).isEqualTo(expected.length == 4);
			assertThat(toBytes(parsed, expected.length)).as(text).isEqualTo(expected);
			// the canonical form reads back as the same address
			assertThat(address(parsed.toString())).as(text).isEqualTo(parsed);
		}
	}

	private static int[] randomGroups(Random random) {
		int[] groups = new int[8];
		for (int i = 0; i < 8; i++) {
			// plenty of zero runs, so "::" lands in every position
			groups[i] = switch (random.nextInt(4)) {
				case 0, 1 -> 0;
				case 2 -> random.nextInt(16);
				default -> random.nextInt(0x10000);
			};
		}
		return groups;
	}

	private static String randomForm(int[] groups, Random random) {
		boolean dottedTail = random.nextInt(4) == 0;
		int count = dottedTail ? 6 : 8;
		StringBuilder builder = new StringBuilder();
		int gapStart = -1;
		int gapEnd = -1;
		if (random.nextBoolean()) {
			// "::" over a random run of zero groups
			int start = random.nextInt(count);
			int end = start;
			while (end < count && groups[end] == 0) {
				end++;
			}
			if (end > start) {
				gapStart = start;
				gapEnd = start + 1 + random.nextInt(end - start);
			}
		}
		for (int i = 0; i < count; i++) {
			if (i == gapStart) {
				builder.append("::");
				i = gapEnd - 1;
				continue;
			}
			if (i > 0 && i != gapEnd) {
				builder.append(':');
			}
			String hex = Integer.toHexString(groups[i]);
			if (random.nextBoolean()) {
				hex = "0".repeat(random.nextInt(5 - hex.length())) + hex;
			}
			builder.append(random.nextBoolean() ? hex : hex.toUpperCase());
		}
		if (dottedTail) {
			if (gapEnd != count || gapStart < 0) {
				builder.append(':');
			}
			builder.append(groups[6] >>> 8).append('.').append(groups[6] & 0xff).append('.');
			builder.append(groups[7] >>> 8).append('.').append(groups[7] & 0xff);
		}
		return builder.toString();
	}

	private static byte[] toBytes(IpAddress address, int length) {
		byte[] bytes = new byte[16];
		for (int i = 0; i < 8; i++) {
			bytes[i] = (byte) (address.high() >>> (56 - 8 * i));
			bytes[8 + i] = (byte) (address.low() >>> (56 - 8 * i));
		}
		// Java turns IPv4-mapped literals into Inet4Address, as we do
		return (length == 4) ? new byte[] { bytes[12], bytes[13], bytes[14], bytes[15] } : bytes;
	}

	static IpAddress address(String text) {
		IpAddress address = IpLiterals.parseAddress(text, 0, text.length());
		assertThat(address).as(text).isNotNull();
		return nonNull(address);
	}

	private static IpAddress node(String text) {
		IpAddress address = IpLiterals.parseNode(text, 0, text.length());
		assertThat(address).as(text).isNotNull();
		return nonNull(address);
	}

	private static IpAddress nonNull(@Nullable IpAddress address) {
		if (address == null) {
			throw new AssertionError();
		}
		return address;
	}

}
