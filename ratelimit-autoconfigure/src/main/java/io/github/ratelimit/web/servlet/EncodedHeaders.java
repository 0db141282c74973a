package io.github.ratelimit.web.servlet;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RequestIds;

/**
 * Header names and values as the bytes {@link TomcatHeaders} hands to Tomcat, encoded
 * once where they are the same on every response: the limiter's header names, and the
 * values that depend on the policies only ({@code RateLimit-Policy}, the limit). The rest
 * is encoded per response. An array is shared by every response that sends it: Tomcat
 * copies header bytes out and never writes into them.
 */
final class EncodedHeaders {

	/** The most distinct values kept; policies are configuration, so a few are usual. */
	static final int MAX_VALUES = 1024;

	private static final Map<String, byte[]> NAMES = Stream
		.of(RequestIds.HEADER, RateLimitHeaders.RATE_LIMIT_POLICY, RateLimitHeaders.RATE_LIMIT,
				RateLimitHeaders.RATE_LIMIT_LIMIT, RateLimitHeaders.RATE_LIMIT_REMAINING,
				RateLimitHeaders.RATE_LIMIT_RESET, RateLimitHeaders.X_RATE_LIMIT_LIMIT,
				RateLimitHeaders.X_RATE_LIMIT_REMAINING, RateLimitHeaders.X_RATE_LIMIT_RESET,
				RateLimitHeaders.RETRY_AFTER, RateLimitHeaders.RATE_LIMIT_WARNING)
		.collect(Collectors.toUnmodifiableMap((name) -> name, (name) -> name.getBytes(StandardCharsets.ISO_8859_1)));

	// whose values are the same for every response of a policy set
	private static final Set<String> POLICY_VALUED = Set.of(RateLimitHeaders.RATE_LIMIT_POLICY,
			RateLimitHeaders.RATE_LIMIT_LIMIT, RateLimitHeaders.X_RATE_LIMIT_LIMIT);

	/** The values every {@link TomcatHeaders} shares. */
	static final EncodedHeaders SHARED = new EncodedHeaders(MAX_VALUES);

	private final Map<String, byte[]> values = new ConcurrentHashMap<>();

	private final int maxValues;

	EncodedHeaders(int maxValues) {
		this.maxValues = maxValues;
	}

	/**
	 * The bytes of a header name, or {@code null} when it is not all visible ASCII.
	 * @param name the name
	 * @return its bytes
	 */
	static byte @Nullable [] name(String name) {
		byte[] known = NAMES.get(name);
		return (known != null) ? known : visibleAscii(name);
	}

	/**
	 * The bytes of a header value, or {@code null} when it is not all visible ASCII.
	 * @param name the header's name
	 * @param value the value
	 * @return its bytes
	 */
	byte @Nullable [] value(String name, String value) {
		if (!POLICY_VALUED.contains(name)) {
			return visibleAscii(value);
		}
		byte[] known = this.values.get(value);
		if (known != null) {
			return known;
		}
		byte[] bytes = visibleAscii(value);
		if (bytes != null && this.values.size() < this.maxValues) {
			this.values.putIfAbsent(value, bytes);
		}
		return bytes;
	}

	/**
	 * The string's bytes when every character is visible ASCII, a space or a tab.
	 */
	static byte @Nullable [] visibleAscii(String value) {
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if ((c < 0x20 && c != '\t') || c > 0x7e) {
				return null;
			}
		}
		return value.getBytes(StandardCharsets.ISO_8859_1);
	}

}
