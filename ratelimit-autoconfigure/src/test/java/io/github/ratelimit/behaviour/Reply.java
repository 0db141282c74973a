package io.github.ratelimit.behaviour;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.NumberItem;
import org.greenbytes.http.sfv.OuterList;
import org.greenbytes.http.sfv.Parser;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An HTTP response as the tests read it, whether it came through {@code java.net.http} or
 * a raw socket.
 *
 * @param status the status code
 * @param headers the header fields by lower-case name, every field line in order
 * @param body the body, decoded as UTF-8
 */
record Reply(int status, Map<String, List<String>> headers, String body) {

	private static final JsonMapper json = JsonMapper.builder().build();

	/** The first value of a header. */
	Optional<String> header(String name) {
		List<String> values = this.headers.get(name.toLowerCase(Locale.ROOT));
		return (values != null && !values.isEmpty()) ? Optional.of(values.get(0)) : Optional.empty();
	}

	/** Whether the response carries any rate-limit header field. */
	boolean hasRateLimitHeaders() {
		return this.headers.keySet()
			.stream()
			.anyMatch((name) -> name.startsWith("ratelimit") || name.startsWith("x-ratelimit")
					|| name.equals("retry-after"));
	}

	/**
	 * {@code RateLimit}, parsed by an independent structured-field parser: one member,
	 * the binding policy.
	 */
	ListElement<?> rateLimit() {
		OuterList list = Parser.parseList(header("RateLimit").orElseThrow());
		if (list.get().size() != 1) {
			throw new AssertionError("RateLimit should name one policy: " + list.serialize());
		}
		return list.get().get(0);
	}

	/**
	 * Every member of {@code RateLimit}: the binding policy, then any a warning names.
	 */
	List<ListElement<?>> rateLimitMembers() {
		return Parser.parseList(header("RateLimit").orElseThrow()).get();
	}

	/** {@code RateLimit-Warning}, parsed; empty when the response warns of nothing. */
	List<ListElement<?>> warnings() {
		return header("RateLimit-Warning").map((value) -> Parser.parseList(value).get()).orElse(List.of());
	}

	/** A string parameter of a structured-field member. */
	static String stringParam(ListElement<?> element, String name) {
		Object item = element.getParams().get(name);
		if (!(item instanceof org.greenbytes.http.sfv.StringItem string)) {
			throw new AssertionError("No string parameter '" + name + "' in " + element.serialize());
		}
		return string.get();
	}

	/** {@code RateLimit-Policy}, parsed: every applicable policy. */
	List<ListElement<?>> policies() {
		return Parser.parseList(header("RateLimit-Policy").orElseThrow()).get();
	}

	/** The names of the policies in {@code RateLimit-Policy}, in order. */
	List<Object> policyNames() {
		return policies().stream().map((policy) -> (Object) policy.get()).toList();
	}

	/** The remaining quota of the binding policy, as {@code RateLimit} says. */
	long remaining() {
		return param(rateLimit(), "r");
	}

	/** The body as JSON. */
	JsonNode json() {
		return json.readTree(this.body);
	}

	static long param(ListElement<?> element, String name) {
		Object item = element.getParams().get(name);
		if (!(item instanceof NumberItem<?> number)) {
			throw new AssertionError("No integer parameter '" + name + "' in " + element.serialize());
		}
		return number.getAsLong();
	}

	@Override
	public String toString() {
		return this.status + " " + this.headers + " " + this.body;
	}

}
