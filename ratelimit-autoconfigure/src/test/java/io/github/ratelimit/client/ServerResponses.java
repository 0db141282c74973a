package io.github.ratelimit.client;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.LimitReport;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;

/**
 * Responses as the server side of this starter writes them, so that the client is tested
 * against what our servers really send.
 */
final class ServerResponses {

	static final Instant DECIDED_AT = Instant.parse("2026-01-17T12:34:33Z");

	private static final Identity ALICE = new Identity("alice", "acme", null, "203.0.113.7", "premium", true);

	private ServerResponses() {
	}

	/**
	 * The refusal of an org over its export quota of 100 a minute, which frees in
	 * {@code resetSeconds}.
	 */
	static Decision.Rejected orgRefusal(long resetSeconds) {
		Policy org = new Policy("premium", Dimension.ORG, "export", LimitParser.parse("100/1m"));
		PolicyState state = new PolicyState(org, 0, "acme", 0, resetSeconds, true);
		return new Decision.Rejected(ALICE, Classification.of("export", 1), DECIDED_AT,
				new LimitReport(List.of(state), state));
	}

	/** An admitted request of a user with {@code remaining} of 100 a minute left. */
	static Decision.Allowed userAdmitted(long remaining, long resetSeconds) {
		Policy user = new Policy("premium", Dimension.USER, "default", LimitParser.parse("100/1m"));
		PolicyState state = new PolicyState(user, 0, "alice", remaining, resetSeconds, false);
		return new Decision.Allowed(ALICE, Classification.of("default", 1), DECIDED_AT,
				new LimitReport(List.of(state), state));
	}

	/** The headers our server writes for a decision, in the given styles. */
	static Map<String, List<String>> headers(Decision decision, HeaderStyle... styles) {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		RateLimitHeaders.of(styles)
			.write(decision, (name, value) -> headers.computeIfAbsent(name, (key) -> new ArrayList<>()).add(value));
		return headers;
	}

	static HeaderLookup lookup(Decision decision, HeaderStyle... styles) {
		return HeaderLookup.of(headers(decision, styles));
	}

	/** The problem+json body our server writes for a refusal. */
	static byte[] body(Decision.Refusal refusal) {
		return new ProblemDetailsBodyWriter().write(refusal, "7f9c2b1e4d");
	}

	/** Headers given as name, value, name, value... */
	static HeaderLookup headers(String... namesAndValues) {
		Map<String, List<String>> headers = new LinkedHashMap<>();
		for (int i = 0; i < namesAndValues.length; i += 2) {
			headers.computeIfAbsent(namesAndValues[i], (key) -> new ArrayList<>()).add(namesAndValues[i + 1]);
		}
		return HeaderLookup.of(headers);
	}

}
