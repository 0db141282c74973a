package io.github.ratelimit.http;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.core.status.Budget;
import io.github.ratelimit.core.status.CallerStanding;
import io.github.ratelimit.core.status.GroupStanding;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.CalendarPeriod;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.TokenBucket;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status body, read back by an independent JSON parser: each kind of limit with its
 * own members, names escaped into plain ASCII.
 */
class CallerStatusBodyTests {

	private static final Instant READ_AT = Instant.parse("2026-05-14T10:15:30.250Z");

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void writesEveryKindWithItsOwnMembers() {
		CalendarQuota month = new CalendarQuota(1000, CalendarPeriod.MONTH, ZoneOffset.UTC);
		CalendarQuota.Window period = month.window(READ_AT.toEpochMilli());
		GroupStanding group = new GroupStanding(1, false, List.of(
				new Budget("premium-user-default", Dimension.USER,
						new TokenBucket(150, 100, Duration.ofMinutes(1), "1m"), 97, 1_500, null),
				new Budget("premium-org-all", Dimension.ORG, month, 990, period.end() - READ_AT.toEpochMilli(), period),
				new Budget("group-user-export", Dimension.USER, new ConcurrencyLimit(2), 1, 0, null)));
		JsonNode body = read(new CallerStanding(new Identity("alice", null, "t-abc", "203.0.113.7", "premium", true),
				READ_AT, Map.of("default", group)));
		assertThat(body.get("read_at").asString()).isEqualTo("2026-05-14T10:15:30Z");
		assertThat(body.get("identity").get("org").isNull()).isTrue();
		assertThat(body.get("identity").has("token")).isFalse();
		JsonNode policies = body.get("groups").get("default").get("policies");
		JsonNode rate = policies.get(0);
		assertThat(rate.get("limit").asString()).isEqualTo("100/1m burst 150");
		assertThat(rate.get("quota").asLong()).isEqualTo(100);
		assertThat(rate.get("burst").asLong()).isEqualTo(150);
		assertThat(rate.get("window").asLong()).isEqualTo(60);
		assertThat(rate.get("reset").asLong()).isEqualTo(2);
		assertThat(rate.get("reset_at").asString()).isEqualTo("2026-05-14T10:15:32Z");
		assertThat(rate.has("period")).isFalse();
		JsonNode quota = policies.get(1);
		assertThat(quota.get("kind").asString()).isEqualTo("quota");
		assertThat(quota.has("burst")).isFalse();
		assertThat(quota.get("reset_at").asString()).isEqualTo("2026-06-01T00:00:00Z");
		assertThat(quota.get("period").get("start").asString()).isEqualTo("2026-05-01T00:00:00Z");
		JsonNode concurrency = policies.get(2);
		assertThat(concurrency.get("in_use").asLong()).isEqualTo(1);
		assertThat(concurrency.has("window")).isFalse();
		assertThat(concurrency.has("reset")).isFalse();
	}

	@Test
	void windowsAndLeakyBucketsSayTheirKindAndAFixedWindowItsWindow() {
		FixedWindow fixed = new FixedWindow(100, Duration.ofMinutes(1), "1m");
		CalendarQuota.Window window = fixed.window(READ_AT.toEpochMilli());
		GroupStanding group = new GroupStanding(1, false,
				List.of(new Budget("premium-user-default", Dimension.USER, fixed, 40,
						window.end() - READ_AT.toEpochMilli(), window),
						new Budget("premium-org-default", Dimension.ORG,
								new SlidingWindow(1000, Duration.ofHours(1), "1h"), 990, 3_000_000, null),
						new Budget("anonymous-ip-default", Dimension.IP,
								new LeakyBucket(10, Duration.ofSeconds(1), "1s"), 0, 100, null)));
		JsonNode policies = read(new CallerStanding(new Identity("alice", "acme", null, "203.0.113.7", "premium", true),
				READ_AT, Map.of("default", group)))
			.get("groups")
			.get("default")
			.get("policies");
		JsonNode fixedBudget = policies.get(0);
		assertThat(fixedBudget.get("kind").asString()).isEqualTo("fixed_window");
		assertThat(fixedBudget.get("limit").asString()).isEqualTo("100/1m fixed");
		assertThat(fixedBudget.get("window").asLong()).isEqualTo(60);
		assertThat(fixedBudget.get("reset_at").asString()).isEqualTo("2026-05-14T10:16:00Z");
		assertThat(fixedBudget.get("period").get("start").asString()).isEqualTo("2026-05-14T10:15:00Z");
		assertThat(fixedBudget.get("period").get("end").asString()).isEqualTo("2026-05-14T10:16:00Z");
		JsonNode sliding = policies.get(1);
		assertThat(sliding.get("kind").asString()).isEqualTo("sliding_window");
		assertThat(sliding.get("limit").asString()).isEqualTo("1000/1h sliding");
		assertThat(sliding.has("period")).isFalse();
		JsonNode leaky = policies.get(2);
		assertThat(leaky.get("kind").asString()).isEqualTo("leaky_bucket");
		assertThat(leaky.get("limit").asString()).isEqualTo("10/1s leaky");
		assertThat(leaky.has("burst")).isFalse();
		assertThat(leaky.get("window").asLong()).isOne();
	}

	@Test
	void escapesNamesIntoPlainAscii() {
		String user = "\"></script>\u00e9\u0000";
		byte[] bytes = CallerStatusBody.write(new CallerStanding(
				new Identity(user, "acme", null, "2001:db8::/64", "premium", true), READ_AT, Map.of()));
		assertThat(new String(bytes, StandardCharsets.UTF_8)).doesNotContain("<").doesNotContain("\u00e9");
		for (byte b : bytes) {
			assertThat(b).isBetween((byte) 0x20, (byte) 0x7e);
		}
		JsonNode body = this.json.readTree(bytes);
		assertThat(body.get("identity").get("user").asString()).isEqualTo(user);
		assertThat(body.get("groups").isEmpty()).isTrue();
	}

	private JsonNode read(CallerStanding standing) {
		return this.json.readTree(CallerStatusBody.write(standing));
	}

}
