package io.github.ratelimit.identity;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Throws many random and half-valid strings at the address parser and the resolvers:
 * nothing may throw, loop, or produce an id outside the safe charset. Seeded, so a
 * failure can be replayed.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = ThreadMode.SEPARATE_THREAD)
class IdentityFuzzTests {

	private static final Pattern SAFE_ID = Pattern.compile("[0-9a-f.:/]{1,43}");

	private static final String[] PIECES = { "1", "10", "0", "00", "010", "255", "256", "4294967296", "203", "113", "7",
			"ffff", "FFFF", "2001", "db8", "fe80", "12345", "g", "x", ".", "..", ":", "::", ":::", "[", "]", "%", "%25",
			"eth0", ",", ", ", ";", "=", "\"", "\\", "\\\"", " ", "\t", "for", "For", "by", "proto", "host", "unknown",
			"_hidden", "_", "-", "/", "203.0.113.7", "10.0.0.2", "127.0.0.1", "::1", "::ffff:", "2001:db8::1",
			"[2001:db8::1]:443", "fd00::1", "1.2.3.4:80", ":65535", ":65536", "\u0000", "\r", "\n", "\u00ff", "\u00e9",
			"\u2028", "\uff11", "\u0663", "\ud83d\ude00", "\ud800" };

	private final Random random = new Random(0x5eed);

	private final ClientIpResolver xffResolver = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32, 64);

	private final ClientIpResolver forwardedResolver = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 24,
			56, ForwardedHeader.FORWARDED);

	@Test
	void randomTextNeverBreaksTheAddressParser() {
		for (int i = 0; i < 50_000; i++) {
			String text = randomText();
			IpAddress node = IpLiterals.parseNode(text, 0, text.length());
			IpAddress address = IpLiterals.parseAddress(text, 0, text.length());
			for (IpAddress parsed : new IpAddress[] { node, address }) {
				if (parsed != null) {
					String canonical = parsed.toString();
					assertThat(canonical).as(text).matches(SAFE_ID);
					assertThat(IpLiterals.parseAddress(canonical, 0, canonical.length())).as(text).isEqualTo(parsed);
				}
			}
			if (text.length() > 2) {
				// regions inside a longer string, as header elements are parsed
				int from = this.random.nextInt(text.length());
				int to = from + this.random.nextInt(text.length() - from + 1);
				IpLiterals.parseNode(text, from, to);
			}
		}
	}

	@Test
	void garbageInForwardedForNeverFails() {
		for (int i = 0; i < 20_000; i++) {
			TestRequest request = TestRequest.from("10.0.0.1").header("X-Forwarded-For", randomText());
			if (this.random.nextBoolean()) {
				request.header("X-Forwarded-For", randomText());
			}
			assertSafe(this.xffResolver.resolve(request));
			assertSafe(this.xffResolver.resolveAddress(request));
		}
	}

	@Test
	void forwardedForWalkMatchesTheRightToLeftDefinition() {
		TrustedProxies trusted = new TrustedProxies(CidrRange.LOOPBACK_AND_PRIVATE_RANGES);
		String[] hops = { "203.0.113.7", "198.51.100.1", "2001:db8::1", "[2001:db8:1::1]:443", "10.0.0.2",
				"192.168.1.1:80", "::1", "fd00::2", "::ffff:10.0.0.3", "unknown", "_hidden", "garbage", "010.0.0.1", "",
				" ", "\t" };
		int clients = 0;
		for (int i = 0; i < 20_000; i++) {
			StringBuilder line = new StringBuilder();
			int count = this.random.nextInt(6);
			for (int h = 0; h < count; h++) {
				if (h > 0) {
					line.append(',');
				}
				line.append(this.random.nextBoolean() ? " " : "").append(hops[this.random.nextInt(hops.length)]);
			}
			String peer = (this.random.nextInt(5) == 0) ? "203.0.113.99" : "10.0.0.1";
			TestRequest request = TestRequest.from(peer).header("X-Forwarded-For", line.toString());
			String expected = rightToLeft(peer, line.toString(), trusted).toGroup(32, 64);
			assertThat(this.xffResolver.resolve(request)).as(line.toString()).isEqualTo(expected);
			clients += expected.equals(peer) ? 0 : 1;
		}
		// the generator reaches clients other than the peer, so the walk was exercised
		assertThat(clients).isGreaterThan(5_000);
	}

	/** The walk as the design states it, written plainly. */
	private static IpAddress rightToLeft(String peer, String forwardedFor, TrustedProxies trusted) {
		IpAddress last = IpLiterals.parseNode(peer, 0, peer.length());
		assertThat(last).isNotNull();
		if (!trusted.contains(last)) {
			return last;
		}
		String[] hops = forwardedFor.split(",", -1);
		for (int i = hops.length - 1; i >= 0; i--) {
			String hop = hops[i].replaceAll("^[ \\t]+|[ \\t]+$", "");
			if (hop.isEmpty()) {
				continue;
			}
			IpAddress address = IpLiterals.parseNode(hop, 0, hop.length());
			if (address == null) {
				return last;
			}
			if (!trusted.contains(address)) {
				return address;
			}
			last = address;
		}
		return last;
	}

	@Test
	void garbageInForwardedNeverFails() {
		for (int i = 0; i < 20_000; i++) {
			TestRequest request = TestRequest.from("::1").header("Forwarded", randomForwarded());
			if (this.random.nextBoolean()) {
				request.header("Forwarded", randomText());
			}
			assertSafe(this.forwardedResolver.resolve(request));
		}
	}

	@Test
	void untrustedPeerIsItsOwnIdWhateverItSends() {
		for (int i = 0; i < 5_000; i++) {
			TestRequest request = TestRequest.from("203.0.113.7")
				.header("X-Forwarded-For", randomText())
				.header("Forwarded", randomForwarded());
			assertThat(this.xffResolver.resolve(request)).isEqualTo("203.0.113.7");
			assertThat(this.forwardedResolver.resolve(request)).isEqualTo("203.0.113.0/24");
		}
	}

	@Test
	void randomPeerAddressesAreSafeOrUnknown() {
		for (int i = 0; i < 20_000; i++) {
			String remote = randomText();
			assertSafe(this.xffResolver.resolve(TestRequest.from(remote)));
			assertSafe(this.forwardedResolver.resolve(TestRequest.from(remote)));
		}
	}

	@Test
	void randomBytesAsHeadersNeverFail() {
		for (int i = 0; i < 20_000; i++) {
			byte[] bytes = new byte[this.random.nextInt(64)];
			this.random.nextBytes(bytes);
			// servlet containers decode header bytes as ISO-8859-1; some stacks use UTF-8
			String latin1 = new String(bytes, StandardCharsets.ISO_8859_1);
			String utf8 = new String(bytes, StandardCharsets.UTF_8);
			for (String value : List.of(latin1, utf8)) {
				TestRequest request = TestRequest.from("127.0.0.1")
					.header("X-Forwarded-For", value)
					.header("Forwarded", value)
					.header("X-API-Key", value);
				assertSafe(this.xffResolver.resolve(request));
				assertSafe(this.forwardedResolver.resolve(request));
			}
		}
	}

	@Test
	void randomApiKeysStayAnonymous() {
		ApiKeyIdentityResolver resolver = new ApiKeyIdentityResolver(
				List.of(ApiKey.ofKey("ak_live_3f9c2d7e1b", "alice", null, null)));
		ApiKeyIdentityResolver authorization = new ApiKeyIdentityResolver("Authorization",
				List.of(ApiKey.ofKey("ak_live_3f9c2d7e1b", "alice", null, null)));
		for (int i = 0; i < 20_000; i++) {
			String key = randomText();
			assertThat(resolver.resolve(TestRequest.from("203.0.113.7").header("X-API-Key", key))).isNull();
			assertThat(authorization.resolve(TestRequest.from("203.0.113.7").header("Authorization", key))).isNull();
		}
	}

	@Test
	void randomRangesAreRejectedWithAReason() {
		for (int i = 0; i < 20_000; i++) {
			String text = randomText();
			assertThatNoException().as(text).isThrownBy(() -> {
				String reason = CidrRange.invalidReason(text);
				if (reason == null) {
					assertThat(CidrRange.parse(text).toString()).matches("[0-9a-f.:]+/[0-9]{1,3}");
				}
			});
		}
	}

	private static void assertSafe(String id) {
		if (!ClientIpResolver.UNKNOWN.equals(id)) {
			assertThat(id).matches(SAFE_ID);
		}
	}

	private String randomText() {
		int mode = this.random.nextInt(4);
		StringBuilder builder = new StringBuilder();
		int length = this.random.nextInt(16);
		for (int i = 0; i < length; i++) {
			if (mode == 0) {
				// any UTF-16 unit, surrogates included
				builder.append((char) this.random.nextInt(0x10000));
			}
			else if (mode == 1) {
				builder.append((char) (0x20 + this.random.nextInt(0x5f)));
			}
			else {
				builder.append(PIECES[this.random.nextInt(PIECES.length)]);
			}
		}
		return builder.toString();
	}

	private String randomForwarded() {
		StringBuilder builder = new StringBuilder();
		int elements = 1 + this.random.nextInt(4);
		for (int i = 0; i < elements; i++) {
			if (i > 0) {
				builder.append(this.random.nextBoolean() ? ", " : ",");
			}
			builder.append((this.random.nextInt(5) == 0) ? randomText() : "for=");
			boolean quoted = this.random.nextBoolean();
			if (quoted) {
				builder.append('"');
			}
			builder.append(randomText());
			if (quoted && this.random.nextInt(4) != 0) {
				builder.append('"');
			}
			if (this.random.nextBoolean()) {
				builder.append(";proto=").append(randomText());
			}
		}
		return builder.toString();
	}

}
