package io.github.ratelimit.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The headers of a response, as an adapter sees them in its HTTP library:
 * {@code response.getHeaders()::get} or similar.
 */
@FunctionalInterface
public interface HeaderLookup {

	/**
	 * Returns the values of a header.
	 * @param name the header name, matched regardless of case
	 * @return every value (one per field line), empty when the header is absent
	 */
	List<String> values(String name);

	/**
	 * Returns the first value of a header.
	 * @param name the header name, matched regardless of case
	 * @return the first value, or {@code null} when the header is absent
	 */
	default @Nullable String first(String name) {
		List<String> values = values(name);
		return (values == null || values.isEmpty()) ? null : values.get(0);
	}

	/**
	 * Returns a lookup over a map of header names and values; names are matched
	 * regardless of case.
	 * @param headers the headers
	 * @return the lookup
	 */
	static HeaderLookup of(Map<String, ? extends List<String>> headers) {
		Map<String, List<String>> copy = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
		headers.forEach((name, values) -> copy.computeIfAbsent(name, (key) -> new ArrayList<>()).addAll(values));
		return (name) -> Collections.unmodifiableList(copy.getOrDefault(name, List.of()));
	}

	/**
	 * Returns a lookup with no headers.
	 * @return the lookup
	 */
	static HeaderLookup none() {
		return (name) -> List.of();
	}

}
