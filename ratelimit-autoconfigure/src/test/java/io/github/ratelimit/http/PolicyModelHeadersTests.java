package io.github.ratelimit.http;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.NumberItem;
import org.greenbytes.http.sfv.Parser;
import org.greenbytes.http.sfv.StringItem;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.LimitReport;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;

import static io.github.ratelimit.http.TestDecisions.ALICE;
import static io.github.ratelimit.http.TestDecisions.DECIDED_AT;
import static io.github.ratelimit.http.TestDecisions.admitted;
import static io.github.ratelimit.http.TestDecisions.policy;
import static io.github.ratelimit.http.TestDecisions.rejected;
import static io.github.ratelimit.http.TestDecisions.violated;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What quotas, concurrency caps and warnings look like on the wire, read back with an
 * independent structured-field parser.
 */
class PolicyModelHeadersTests {

	private final RateLimitHeaders headers = RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT);

	@Test
	void softLimitWarningNamesTheQuotaAndRateLimitReportsIt() {
		Policy user = policy("premium", Dimension.USER, "default", "100/1m");
		Policy quota = policy("premium", Dimension.ORG, Policy.ALL_GROUPS, "10000/month");
		PolicyState userState = admitted(user, 0, "alice", 60, 0);
		PolicyState quotaState = admitted(quota, 0, "acme", 1800, 0);
		Decision decision = TestDecisions.allowed(ALICE, "default", new LimitReport(List.of(quotaState, userState),
				userState, List.of(new LimitReport.Warning(quotaState, false))));
		Map<String, String> written = write(decision);

		List<ListElement<?>> warnings = Parser.parseList(written.get("RateLimit-Warning")).get();
		assertThat(warnings).singleElement().satisfies((warning) -> {
			assertThat(warning.get()).isEqualTo("premium-org-all");
			assertThat(((StringItem) warning.getParams().get("code")).get()).isEqualTo("near-limit");
			assertThat(((NumberItem<?>) warning.getParams().get("r")).getAsLong()).isEqualTo(1800);
		});
		List<ListElement<?>> rateLimit = Parser.parseList(written.get("RateLimit")).get();
		assertThat(rateLimit.stream().map((member) -> (Object) member.get()).toList())
			.containsExactly("premium-user-default", "premium-org-all");
		ListElement<?> quotaPolicy = Parser.parseList(written.get("RateLimit-Policy")).get().get(0);
		assertThat(quotaPolicy.get()).isEqualTo("premium-org-all");
		assertThat(((NumberItem<?>) quotaPolicy.getParams().get("q")).getAsLong()).isEqualTo(10000);
		assertThat(((NumberItem<?>) quotaPolicy.getParams().get("w")).getAsLong()).isEqualTo(30 * 86400);
		assertThat(written).containsEntry("X-RateLimit-Limit", "100");
	}

	@Test
	void concurrencyCapSaysItsUnitAndItsRefusalSaysConcurrency() {
		Policy cap = policy(PolicyScope.GROUP, Dimension.USER, "export", "2 concurrent");
		PolicyState state = violated(cap, 0, "alice", 1);
		Decision.Rejected decision = rejected(ALICE, "export", state, state);
		Map<String, String> written = write(decision);

		ListElement<?> member = Parser.parseList(written.get("RateLimit-Policy")).get().get(0);
		assertThat(member.get()).isEqualTo("group-user-export");
		assertThat(((StringItem) member.getParams().get("qu")).get()).isEqualTo("concurrent-requests");
		assertThat(((NumberItem<?>) member.getParams().get("q")).getAsLong()).isEqualTo(2);
		assertThat(written).containsEntry("Retry-After", "1").doesNotContainKey("RateLimit-Warning");
		JsonNode body = body(decision);
		assertThat(body.get("code").asString()).isEqualTo("concurrency_limit_exceeded");
		assertThat(body.get("detail").asString()).startsWith("Too many concurrent requests for user 'alice'");
	}

	@Test
	void spentQuotaIsReportedAsAQuotaWithItsBoundary() {
		Policy quota = policy("premium", Dimension.ORG, Policy.ALL_GROUPS, "1000/day");
		PolicyState state = violated(quota, 0, "acme", 41_487);
		JsonNode body = body(rejected(ALICE, "default", state, state));
		assertThat(body.get("code").asString()).isEqualTo("quota_exceeded");
		assertThat(body.get("detail").asString()).startsWith("Daily quota exceeded for org 'acme'");
		assertThat(body.get("retry_after").asLong()).isEqualTo(41_487);
		assertThat(body.get("reset_at").asString()).isEqualTo(DECIDED_AT.plusSeconds(41_487).toString());
	}

	@Test
	void spentQuotaResetsAtItsBoundaryNotASecondAfter() {
		Policy quota = policy("premium", Dimension.ORG, Policy.ALL_GROUPS, "1000/day");
		// 1.7 s before midnight: retry_after rounds up to 2 s, the quota resets at
		// midnight itself
		PolicyState state = violated(quota, 0, "acme", 2);
		Decision.Rejected decision = TestDecisions.rejectedAt(Instant.parse("2026-01-17T23:59:58.300Z"), ALICE,
				"default", state, state);
		JsonNode body = body(decision);
		assertThat(body.get("retry_after").asLong()).isEqualTo(2);
		assertThat(body.get("reset_at").asString()).isEqualTo("2026-01-18T00:00:00Z");
	}

	@Test
	void warnModeRefusalIsAnOverLimitWarningOnAnAdmittedResponse() {
		Policy user = policy("premium", Dimension.USER, "default", "100/1m");
		PolicyState state = admitted(user, 0, "alice", 0, 1);
		Decision decision = TestDecisions.allowed(ALICE, "default",
				new LimitReport(List.of(state), state, List.of(new LimitReport.Warning(state, true))));
		Map<String, String> written = write(decision);
		ListElement<?> warning = Parser.parseList(written.get("RateLimit-Warning")).get().get(0);
		assertThat(((StringItem) warning.getParams().get("code")).get()).isEqualTo("over-limit");
		assertThat(written).doesNotContainKey("Retry-After");
		assertThat(Parser.parseList(written.get("RateLimit")).get()).hasSize(1);
		// a hidden-headers style hides warnings too
		Map<String, String> hidden = new LinkedHashMap<>();
		RateLimitHeaders.of(HeaderStyle.NONE).write(decision, hidden::put);
		assertThat(hidden).isEmpty();
	}

	private Map<String, String> write(Decision decision) {
		Map<String, String> written = new LinkedHashMap<>();
		this.headers.write(decision, written::put);
		return written;
	}

	private static JsonNode body(Decision.Refusal decision) {
		byte[] bytes = new ProblemDetailsBodyWriter().write(decision, "req-1");
		return JsonMapper.builder().build().readTree(bytes);
	}

}
