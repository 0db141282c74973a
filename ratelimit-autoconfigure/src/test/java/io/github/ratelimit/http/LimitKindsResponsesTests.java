package io.github.ratelimit.http;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.NumberItem;
import org.greenbytes.http.sfv.Parser;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;

import static io.github.ratelimit.http.TestDecisions.ALICE;
import static io.github.ratelimit.http.TestDecisions.policy;
import static io.github.ratelimit.http.TestDecisions.rejectedAt;
import static io.github.ratelimit.http.TestDecisions.violated;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What fixed windows, sliding windows and leaky buckets look like on the wire in every
 * header style, and the problem body of their refusals: a quota per window in
 * {@code RateLimit-Policy}, the store's wait in {@code t} and {@code Retry-After}, and a
 * {@code code} and {@code detail} that say how the limit frees requests. Headers are read
 * back with an independent structured-field parser.
 */
class LimitKindsResponsesTests {

	/** 23 s before the minute's end: a fixed window of 1m ends at 12:35:00. */
	private static final Instant DECIDED_AT = Instant.parse("2026-01-17T12:34:37Z");

	@Test
	void fixedWindowRefusalSaysAllOfItIsBackAtTheWindowsEnd() {
		Policy user = policy("premium", Dimension.USER, "default", "100/1m fixed");
		PolicyState state = violated(user, 0, "alice", 23);
		Decision.Rejected decision = rejectedAt(DECIDED_AT, ALICE, "default", state, state);

		Map<String, String> ietf = write(decision, HeaderStyle.IETF, HeaderStyle.X_RATELIMIT);
		ListElement<?> policy = Parser.parseList(ietf.get("RateLimit-Policy")).get().get(0);
		assertThat(policy.get()).isEqualTo("premium-user-default");
		assertThat(param(policy, "q")).isEqualTo(100);
		assertThat(param(policy, "w")).isEqualTo(60);
		assertThat(policy.getParams()).containsOnlyKeys("q", "w");
		ListElement<?> rateLimit = Parser.parseList(ietf.get("RateLimit")).get().get(0);
		assertThat(param(rateLimit, "r")).isZero();
		assertThat(param(rateLimit, "t")).isEqualTo(23);
		assertThat(ietf).containsEntry("Retry-After", "23")
			.containsEntry("X-RateLimit-Limit", "100")
			.containsEntry("X-RateLimit-Remaining", "0")
			.containsEntry("X-RateLimit-Reset", "23");
		assertThat(write(decision, HeaderStyle.SPLIT)).containsEntry("RateLimit-Policy", "100;w=60")
			.containsEntry("RateLimit-Reset", "23");
		assertThat(write(decision, HeaderStyle.DRAFT7)).containsEntry("RateLimit", "limit=100, remaining=0, reset=23")
			.containsEntry("RateLimit-Policy", "100;w=60");

		JsonNode body = body(decision);
		assertThat(body.get("code").asString()).isEqualTo("fixed_window_limit_exceeded");
		assertThat(body.get("detail").asString())
			.isEqualTo("Limit of 100 requests per 1m window exceeded for user 'alice'. All 100 are back when the "
					+ "window ends. Retry after 23 seconds.");
		assertThat(body.get("limit").asLong()).isEqualTo(100);
		assertThat(body.get("policy").asString()).isEqualTo("100;w=60");
		assertThat(body.get("reset_at").asString()).isEqualTo("2026-01-17T12:35:00Z");
	}

	@Test
	void fixedWindowResetsAtItsBoundaryNotASecondAfter() {
		Policy user = policy("premium", Dimension.USER, "default", "100/1m fixed");
		// 1.7 s before the minute's end: retry_after rounds up to 2 s, the window ends
		// at the minute itself
		PolicyState state = violated(user, 0, "alice", 2);
		JsonNode body = body(rejectedAt(Instant.parse("2026-01-17T12:34:58.300Z"), ALICE, "default", state, state));
		assertThat(body.get("retry_after").asLong()).isEqualTo(2);
		assertThat(body.get("reset_at").asString()).isEqualTo("2026-01-17T12:35:00Z");
	}

	@Test
	void slidingWindowRefusalSaysRequestsFreeUpGradually() {
		Policy org = policy("premium", Dimension.ORG, "default", "100/1m sliding");
		PolicyState state = violated(org, 0, "acme", 4);
		Decision.Rejected decision = rejectedAt(DECIDED_AT, ALICE, "default", state, state);

		Map<String, String> ietf = write(decision, HeaderStyle.IETF);
		ListElement<?> policy = Parser.parseList(ietf.get("RateLimit-Policy")).get().get(0);
		assertThat(param(policy, "q")).isEqualTo(100);
		assertThat(param(policy, "w")).isEqualTo(60);
		assertThat(policy.getParams()).containsOnlyKeys("q", "w");
		assertThat(param(Parser.parseList(ietf.get("RateLimit")).get().get(0), "t")).isEqualTo(4);
		assertThat(ietf).containsEntry("Retry-After", "4");

		JsonNode body = body(decision);
		assertThat(body.get("code").asString()).isEqualTo("sliding_window_limit_exceeded");
		assertThat(body.get("detail").asString())
			.isEqualTo("Limit of 100 requests in any sliding 1m window exceeded for org 'acme'. Requests free up "
					+ "gradually as earlier ones leave the window. Retry after 4 seconds.");
		assertThat(body.get("reset_at").asString()).isEqualTo("2026-01-17T12:34:41Z");
	}

	@Test
	void leakyBucketRefusalSaysRequestsPassOneAtATimeAtTheRate() {
		Policy ip = policy("anonymous", Dimension.IP, "default", "10/1s leaky");
		PolicyState state = violated(ip, 0, "203.0.113.7", 1);
		Decision.Rejected decision = rejectedAt(DECIDED_AT, ALICE, "default", state, state);

		Map<String, String> ietf = write(decision, HeaderStyle.IETF, HeaderStyle.X_RATELIMIT);
		ListElement<?> policy = Parser.parseList(ietf.get("RateLimit-Policy")).get().get(0);
		assertThat(param(policy, "q")).isEqualTo(10);
		assertThat(param(policy, "w")).isEqualTo(1);
		// a leaky bucket holds no burst: no rl-burst
		assertThat(policy.getParams()).containsOnlyKeys("q", "w");
		assertThat(ietf).containsEntry("Retry-After", "1").containsEntry("X-RateLimit-Limit", "10");

		JsonNode body = body(decision);
		assertThat(body.get("code").asString()).isEqualTo("steady_rate_exceeded");
		assertThat(body.get("detail").asString())
			.isEqualTo("Steady rate of 10 requests per 1s exceeded for IP address 203.0.113.7. Requests are let "
					+ "through one at a time, one every 100ms: space them out rather than send a burst. "
					+ "Retry after 1 second.");
		assertThat(body.get("policy").asString()).isEqualTo("10;w=1");
	}

	@Test
	void slowLeakyBucketNamesItsSlotInTheUnitItWasWrittenIn() {
		Policy user = policy("premium", Dimension.USER, "reports", "1/1h leaky");
		PolicyState state = violated(user, 0, "alice", 3_541);
		JsonNode body = body(rejectedAt(DECIDED_AT, ALICE, "reports", state, state));
		assertThat(body.get("detail").asString()).contains("one every 1h:").endsWith("Retry after 3541 seconds.");
		assertThat(body.get("retry_after").asLong()).isEqualTo(3_541);
	}

	private static Map<String, String> write(Decision decision, HeaderStyle... styles) {
		Map<String, String> written = new LinkedHashMap<>();
		RateLimitHeaders.of(styles).write(decision, written::put);
		return written;
	}

	private static long param(ListElement<?> member, String name) {
		return ((NumberItem<?>) member.getParams().get(name)).getAsLong();
	}

	private static JsonNode body(Decision.Refusal decision) {
		return JsonMapper.builder().build().readTree(new ProblemDetailsBodyWriter().write(decision, "req-1"));
	}

}
