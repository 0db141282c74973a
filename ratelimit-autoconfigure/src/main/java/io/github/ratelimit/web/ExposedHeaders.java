package io.github.ratelimit.web;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RequestIds;

/**
 * The response headers of ours a browser's script may read: a CORS response lists them in
 * {@code Access-Control-Expose-Headers}, next to what the application exposes itself.
 * Without them, {@code fetch()} reads {@code RateLimit} and {@code Retry-After} as
 * {@code null}.
 */
public final class ExposedHeaders {

	/** The CORS response header that lists what a script may read. */
	public static final String EXPOSE_HEADERS = "Access-Control-Expose-Headers";

	/** The CORS response header that says the origin may read the response. */
	public static final String ALLOW_ORIGIN = "Access-Control-Allow-Origin";

	private final List<String> names;

	private ExposedHeaders(List<String> names) {
		this.names = List.copyOf(names);
	}

	/**
	 * The headers the given writer may send, {@code Retry-After} and
	 * {@code X-Request-Id}.
	 * @param headers the rate-limit header writer
	 * @return the exposed headers
	 */
	public static ExposedHeaders of(RateLimitHeaders headers) {
		Assert.notNull(headers, "'headers' must not be null");
		List<String> names = new ArrayList<>(headers.headerNames());
		names.add(RequestIds.HEADER);
		return new ExposedHeaders(names);
	}

	/** The names exposed. */
	public List<String> names() {
		return this.names;
	}

	/**
	 * What to add to a response's {@code Access-Control-Expose-Headers} so that it lists
	 * ours too.
	 * @param values the header's present values, each a comma-separated list, or
	 * {@code null}
	 * @return our names that none of the values lists, comma-separated, or {@code null}
	 * when none is missing
	 */
	public @Nullable String missingFrom(@Nullable Collection<String> values) {
		Set<String> present = new TreeSet<>();
		if (values != null) {
			for (String value : values) {
				for (String name : StringUtils.commaDelimitedListToStringArray(value)) {
					present.add(name.trim().toLowerCase(Locale.ROOT));
				}
			}
		}
		StringBuilder missing = new StringBuilder();
		for (String name : this.names) {
			if (!present.contains(name.toLowerCase(Locale.ROOT))) {
				missing.append(missing.isEmpty() ? "" : ", ").append(name);
			}
		}
		return missing.isEmpty() ? null : missing.toString();
	}

}
