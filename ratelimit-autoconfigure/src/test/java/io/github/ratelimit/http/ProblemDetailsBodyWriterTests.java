package io.github.ratelimit.http;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;

import static io.github.ratelimit.http.TestDecisions.ALICE;
import static io.github.ratelimit.http.TestDecisions.orgExportRejected;
import static io.github.ratelimit.http.TestDecisions.policy;
import static io.github.ratelimit.http.TestDecisions.rejected;
import static io.github.ratelimit.http.TestDecisions.violated;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The problem body, read back with Jackson (strict: duplicate members and trailing tokens
 * fail).
 */
class ProblemDetailsBodyWriterTests {

	private static final JsonMapper json = JsonMapper.builder()
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private final ProblemDetailsBodyWriter writer = new ProblemDetailsBodyWriter();

	@Test
	void contentTypeIsProblemJson() {
		assertThat(this.writer.contentType()).isEqualTo("application/problem+json");
	}

	@Test
	void rejectionHasEveryMemberOfTheContractInOrder() {
		JsonNode body = read(orgExportRejected(), "7f9c2b1e4d");

		assertThat(body.propertyNames()).containsExactly("type", "title", "status", "detail", "violated-policies",
				"code", "scope", "group", "tier", "limit", "remaining", "retry_after", "reset_at", "policy",
				"request_id");
		assertThat(body.get("type").stringValue())
			.isEqualTo("https://iana.org/assignments/http-problem-types#quota-exceeded");
		assertThat(body.get("title").stringValue()).isEqualTo("Too Many Requests");
		assertThat(body.get("status").isIntegralNumber()).isTrue();
		assertThat(body.get("status").longValue()).isEqualTo(429);
		assertThat(body.get("detail").stringValue())
			.isEqualTo("Request rate exceeded for org 'acme'. Retry after 23 seconds.");
		assertThat(body.get("violated-policies").isArray()).isTrue();
		assertThat(body.get("violated-policies").get(0).stringValue()).isEqualTo("premium-org-export");
		assertThat(body.get("violated-policies").size()).isOne();
		assertThat(body.get("code").stringValue()).isEqualTo("rate_limit_exceeded");
		assertThat(body.get("scope").stringValue()).isEqualTo("org");
		assertThat(body.get("group").stringValue()).isEqualTo("export");
		assertThat(body.get("tier").stringValue()).isEqualTo("premium");
		assertThat(body.get("limit").longValue()).isEqualTo(100);
		assertThat(body.get("remaining").longValue()).isZero();
		assertThat(body.get("retry_after").longValue()).isEqualTo(23);
		assertThat(body.get("reset_at").stringValue()).isEqualTo("2026-01-17T12:34:56Z");
		assertThat(body.get("policy").stringValue()).isEqualTo("100;w=60");
		assertThat(body.get("request_id").stringValue()).isEqualTo("7f9c2b1e4d");
	}

	@Test
	void refusalByAKeyNamesTheKeyAndTheValueTheCallerSent() {
		Policy repo = Policy.keyed("premium", "repo", "repos", LimitParser.parse("10/1m"), Mode.ENFORCE, 0,
				CountedResponses.ALL);
		JsonNode body = read(rejected(ALICE, "repos", violated(repo, 0, "acme-app", 6)), "id");
		assertThat(body.get("scope").stringValue()).isEqualTo("repo");
		assertThat(body.get("violated-policies").get(0).stringValue()).isEqualTo("premium-repo-repos");
		assertThat(body.get("detail").stringValue())
			.isEqualTo("Request rate exceeded for repo 'acme-app'. Retry after 6 seconds.");
	}

	@Test
	void aKeyValueBreaksNeitherTheJsonNorTheDetailsLength() {
		Policy tenant = Policy.keyed(PolicyScope.BACKSTOP, "tenant", "default", LimitParser.parse("10/1m"),
				Mode.ENFORCE, 0, CountedResponses.ALL);
		String forged = "\"}, \"status\": 200, \"x\": \"\n\u0000" + "y".repeat(200);
		JsonNode body = read(rejected(ALICE, "default", violated(tenant, 0, forged, 6)), "id");
		assertThat(body.get("status").longValue()).isEqualTo(429);
		assertThat(body.get("scope").stringValue()).isEqualTo("tenant");
		String detail = body.get("detail").stringValue();
		assertThat(detail).startsWith("Request rate exceeded for tenant '" + forged.substring(0, 64) + "\u2026'");
		assertThat(detail.length()).isLessThan(140);
	}

	@Test
	void violatedPoliciesNameTheBindingFirst() {
		Policy user = policy("premium", Dimension.USER, "auth", "50/1m, 500/1h");
		PolicyState minute = violated(user, 0, "alice", 20);
		PolicyState hour = violated(user, 1, "alice", 600);

		JsonNode body = read(rejected(ALICE, "auth", hour, minute, hour), "id");

		assertThat(body.get("violated-policies").values()).extracting(JsonNode::stringValue)
			.containsExactly("premium-user-auth-1h", "premium-user-auth-1m");
		assertThat(body.get("detail").stringValue())
			.isEqualTo("Request rate exceeded for user 'alice'. Retry after 600 seconds.");
		assertThat(body.get("policy").stringValue()).isEqualTo("500;w=3600");
	}

	@Test
	void oneSecondIsSingular() {
		JsonNode body = read(rejectedFor(Dimension.USER, "alice", 1), "id");

		assertThat(body.get("detail").stringValue()).endsWith("Retry after 1 second.");
		assertThat(body.get("retry_after").longValue()).isOne();
	}

	@Test
	void ipScopeNamesTheAddress() {
		assertThat(read(rejectedFor(Dimension.IP, "203.0.113.7", 5), "id").get("detail").stringValue())
			.isEqualTo("Request rate exceeded for IP address 203.0.113.7. Retry after 5 seconds.");
	}

	@Test
	void ipv6ScopeNamesThePrefix() {
		assertThat(read(rejectedFor(Dimension.IP, "2001:db8:1:2::/64", 5), "id").get("detail").stringValue())
			.isEqualTo("Request rate exceeded for IP network 2001:db8:1:2::/64. Retry after 5 seconds.");
	}

	@Test
	void tokenScopeNeverShowsTheTokenHash() {
		String hash = "3f1d9a0c5be27e84aa19c02b7d4e6f81";
		Identity integration = new Identity(null, null, hash, "203.0.113.7", "partner", true);
		Policy token = policy("partner", Dimension.TOKEN, "default", "100/1m");
		PolicyState binding = violated(token, 0, hash, 9);

		byte[] bytes = this.writer.write(rejected(integration, "default", binding, binding), "id");

		assertThat(new String(bytes, StandardCharsets.UTF_8)).doesNotContain(hash).doesNotContain(hash.substring(0, 8));
		JsonNode body = json.readTree(bytes);
		assertThat(body.get("detail").stringValue())
			.isEqualTo("Request rate exceeded for this API key. Retry after 9 seconds.");
		assertThat(body.get("scope").stringValue()).isEqualTo("token");
	}

	@Test
	void resetAtIsRoundedUpToTheSecond() {
		Policy user = policy("premium", Dimension.USER, "default", "10/1m");
		PolicyState binding = violated(user, 0, "alice", 23);
		Decision.Rejected decision = TestDecisions.rejectedAt(Instant.parse("2026-01-17T12:34:32.250Z"), ALICE,
				"default", binding, binding);

		assertThat(read(decision, "id").get("reset_at").stringValue()).isEqualTo("2026-01-17T12:34:56Z");
	}

	@Test
	void evilIdsAreEscapedIntoValidJson() {
		String evil = "a\"b\\c'd\n\re\tf\u0000g\u001fh</script>&i\u00e9\u4e2d\ud83d\ude00\u2028";

		byte[] bytes = this.writer.write(rejectedFor(Dimension.USER, evil, 3), "id");

		for (byte b : bytes) {
			assertThat(b).as("printable ASCII only").isBetween((byte) 0x20, (byte) 0x7e);
		}
		assertThat(read(bytes).get("detail").stringValue())
			.isEqualTo("Request rate exceeded for user '" + evil + "'. Retry after 3 seconds.");
	}

	@Test
	void loneSurrogateBecomesAReplacementCharacter() {
		JsonNode body = read(rejectedFor(Dimension.ORG, "x\ud800y\udc00", 3), "id");

		assertThat(body.get("detail").stringValue()).contains("for org 'x\ufffdy\ufffd'");
	}

	@Test
	void longIdsAreCapped() {
		String huge = "a".repeat(10_000);

		JsonNode body = read(rejectedFor(Dimension.USER, huge, 3), "id");

		String detail = body.get("detail").stringValue();
		assertThat(detail).contains("'" + "a".repeat(64) + "\u2026'").hasSizeLessThan(130);
	}

	@Test
	void cappingNeverSplitsASurrogatePair() {
		String id = "a".repeat(63) + "\ud83d\ude00".repeat(100);

		String detail = read(rejectedFor(Dimension.USER, id, 3), "id").get("detail").stringValue();

		assertThat(detail).contains("'" + "a".repeat(63) + "\u2026'");
	}

	@Test
	void requestIdIsEscapedAndCappedEvenWhenAnAdapterPassesItRaw() {
		JsonNode body = read(orgExportRejected(), "x\r\nSet-Cookie: a=b\"" + "z".repeat(10_000));

		String requestId = body.get("request_id").stringValue();
		assertThat(requestId).startsWith("x\r\nSet-Cookie: a=b\"").hasSizeLessThanOrEqualTo(129);
	}

	@Test
	void blockedTierIsForbiddenAndNamesTierAndGroup() {
		Policy blocked = policy("anonymous", Dimension.IP, "admin", "0");
		Identity anonymous = Identity.anonymous("198.51.100.4", "anonymous");

		JsonNode body = read(TestDecisions.blocked(anonymous, "admin", blocked), "req-1");

		assertThat(body.propertyNames()).containsExactly("type", "title", "status", "detail", "code", "scope", "group",
				"tier", "request_id");
		assertThat(body.get("type").stringValue()).isEqualTo("about:blank");
		assertThat(body.get("title").stringValue()).isEqualTo("Forbidden");
		assertThat(body.get("status").longValue()).isEqualTo(403);
		assertThat(body.get("detail").stringValue())
			.isEqualTo("The 'anonymous' tier may not call the 'admin' endpoints.");
		assertThat(body.get("code").stringValue()).isEqualTo("tier_not_allowed");
		assertThat(body.get("scope").stringValue()).isEqualTo("ip");
		assertThat(body.get("group").stringValue()).isEqualTo("admin");
		assertThat(body.get("tier").stringValue()).isEqualTo("anonymous");
		assertThat(body.get("request_id").stringValue()).isEqualTo("req-1");
	}

	@Test
	void groupBlockedByTheBackstopDoesNotBlameTheTier() {
		Policy backstop = policy(PolicyScope.BACKSTOP, Dimension.IP, "internal", "0");

		JsonNode body = read(TestDecisions.blocked(ALICE, "internal", backstop), "id");

		assertThat(body.get("detail").stringValue()).isEqualTo("No caller may call the 'internal' endpoints.");
	}

	@Test
	void blockedDefaultGroupSpeaksOfTheseEndpoints() {
		Policy blocked = policy("anonymous", Dimension.IP, "default", "0");

		JsonNode body = read(TestDecisions.blocked(Identity.anonymous("198.51.100.4", "anonymous"), "default", blocked),
				"id");

		assertThat(body.get("detail").stringValue()).isEqualTo("The 'anonymous' tier may not call these endpoints.");
	}

	@Test
	void unavailableStoreAnswersServiceUnavailable() {
		JsonNode body = read(TestDecisions.unavailable(ALICE, "export"), "req-2");

		assertThat(body.propertyNames()).containsExactly("type", "title", "status", "detail", "code", "group", "tier",
				"retry_after", "request_id");
		assertThat(body.get("status").longValue()).isEqualTo(503);
		assertThat(body.get("title").stringValue()).isEqualTo("Service Unavailable");
		assertThat(body.get("code").stringValue()).isEqualTo("rate_limiter_unavailable");
		assertThat(body.get("retry_after").longValue()).isOne();
		assertThat(body.get("detail").stringValue()).endsWith("Retry after 1 second.");
	}

	@Test
	void geoAndReputationRefusalsSayWhyWithTheirOwnCodes() {
		Decision.Denied access = TestDecisions.denied(ALICE, "export");
		Decision.Denied geo = new Decision.Denied(access.identity(), access.classification(), access.decidedAt(),
				DenialReason.GEO);
		Decision.Denied reputation = new Decision.Denied(access.identity(), access.classification(), access.decidedAt(),
				DenialReason.REPUTATION);
		assertThat(read(access, "r").get("code").stringValue()).isEqualTo("access_denied");
		JsonNode geoBody = read(geo, "r");
		assertThat(geoBody.propertyNames()).containsExactly("type", "title", "status", "detail", "code", "group",
				"request_id");
		assertThat(geoBody.get("status").longValue()).isEqualTo(403);
		assertThat(geoBody.get("code").stringValue()).isEqualTo("geo_blocked");
		assertThat(geoBody.get("detail").stringValue()).contains("country");
		assertThat(read(reputation, "r").get("code").stringValue()).isEqualTo("reputation_denied");
	}

	@Test
	void shedRequestAnswersServiceUnavailableWithLoadShed() {
		JsonNode body = read(TestDecisions.shed(ALICE, "search", Priority.LOW, 7), "req-3");

		assertThat(body.propertyNames()).containsExactly("type", "title", "status", "detail", "code", "group", "tier",
				"priority", "retry_after", "reset_at", "request_id");
		assertThat(body.get("status").longValue()).isEqualTo(503);
		assertThat(body.get("code").stringValue()).isEqualTo("load_shed");
		assertThat(body.get("group").stringValue()).isEqualTo("search");
		assertThat(body.get("tier").stringValue()).isEqualTo("premium");
		assertThat(body.get("priority").stringValue()).isEqualTo("low");
		assertThat(body.get("retry_after").longValue()).isEqualTo(7);
		assertThat(body.get("reset_at").stringValue()).isEqualTo("2026-01-17T12:34:40Z");
		assertThat(body.get("detail").stringValue())
			.isEqualTo("The service is overloaded and sheds requests of this priority; no limit of yours was spent. "
					+ "Retry after 7 seconds.");
	}

	private static Decision.Rejected rejectedFor(Dimension dimension, String id, long retryAfter) {
		Identity identity = new Identity((dimension == Dimension.USER) ? id : "alice",
				(dimension == Dimension.ORG) ? id : "acme", null, (dimension == Dimension.IP) ? id : "203.0.113.7",
				"premium", true);
		Policy policy = policy("premium", dimension, "default", "10/1m");
		PolicyState binding = violated(policy, 0, id, retryAfter);
		return rejected(identity, "default", binding, binding);
	}

	private JsonNode read(Decision.Refusal decision, String requestId) {
		return read(this.writer.write(decision, requestId));
	}

	private static JsonNode read(byte[] bytes) {
		return json.readTree(bytes);
	}

}
