package io.github.ratelimit.autoconfigure;

import java.util.List;
import java.util.function.ToLongFunction;

import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.storage.RateLimitStore;

/**
 * Maps {@code ratelimit.status} into the status endpoint's parts, failing on an invalid
 * property with an {@link InvalidRateLimitConfigurationException} that names it and shows
 * a valid value.
 */
final class StatusMapper {

	static final String PATH_PROPERTY = "ratelimit.status.path";

	private static final String EXAMPLE_PATH = "/ratelimit";

	private StatusMapper() {
	}

	/**
	 * The status path, checked: a literal path of its own (not the root, no pattern, no
	 * query), since it is both answered and excluded from every limit.
	 */
	static String path(RateLimitProperties.Status status) {
		String path = status.getPath();
		String reason = null;
		if (path == null || path.isBlank()) {
			reason = "the status endpoint needs a path";
		}
		else if (!path.startsWith("/")) {
			reason = "a path starts with '/'";
		}
		else if (path.equals("/") || path.startsWith("//")) {
			reason = "the root cannot be the status path: it would take every request of the root";
		}
		else if (!path.chars().allMatch(StatusMapper::isLiteralPathChar)) {
			reason = "a literal path of letters, digits and - . _ ~ / only: no pattern (* ? { }), "
					+ "query, fragment, space or encoded character";
		}
		if (reason != null) {
			throw new InvalidRateLimitConfigurationException(PATH_PROPERTY, String.valueOf(path), reason, EXAMPLE_PATH);
		}
		return path;
	}

	/** The status path as the pattern a request path is matched with. */
	static PathPattern pattern(RateLimitProperties.Status status) {
		return PathPatternParser.defaultInstance.parse(path(status));
	}

	/** The paths the status adds to the limiter's exclusions: its own, when it is on. */
	static List<String> excludedPaths(RateLimitProperties.Status status) {
		return status.isEnabled() ? List.of(path(status)) : List.of();
	}

	/** The cost of a request of each group: its configured cost, 1 for others. */
	static ToLongFunction<String> groupCosts(RateLimitProperties properties) {
		return (group) -> {
			RateLimitProperties.Group configured = properties.getGroups().get(group);
			return (configured != null) ? configured.getCost() : 1;
		};
	}

	/**
	 * Checks that the store can read buckets without taking tokens from them, which the
	 * status needs ({@link RateLimitStore#inspect}).
	 */
	static void checkStoreReads(RateLimitStore store) {
		if (!store.canInspect()) {
			throw new InvalidRateLimitConfigurationException("ratelimit.status.enabled", true,
					"the rate-limit store (" + store.name() + ") cannot read budgets without taking tokens; "
							+ "the memory store and the Redis 'script' strategy can "
							+ "(ratelimit.storage.redis.strategy=script)",
					"false");
		}
	}

	private static boolean isLiteralPathChar(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
				|| c == '_' || c == '~' || c == '/';
	}

}
