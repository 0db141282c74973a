package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import org.greenbytes.http.sfv.ListElement;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DecisionListener;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Calendar quotas, soft limits and the observe and warn modes over real HTTP, the same on
 * each web stack and store that decides them (memory, and Redis with the script
 * strategy). The app is the behavioural one with a metered tier and modes set on its
 * groups.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class PolicyModelBehaviourTests {

	/** Quota boundaries in a zone far from UTC, so that a zone mix-up shows. */
	private static final ZoneId ZONE = ZoneId.of("Pacific/Auckland");

	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	PolicyModelBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.quotas.zone", ZONE.getId());
		properties.put("ratelimit.identity.api-keys[0].key", "quota-key-mona");
		properties.put("ratelimit.identity.api-keys[0].user", "mona");
		properties.put("ratelimit.identity.api-keys[0].tier", "metered");
		properties.put("ratelimit.identity.api-keys[1].key", "soft-key-sven");
		properties.put("ratelimit.identity.api-keys[1].user", "sven");
		properties.put("ratelimit.identity.api-keys[1].tier", "metered");
		// metered: a plan quota of 8 a month per user over every group, reports 5 an
		// hour, warn from 60% used
		properties.put("ratelimit.tiers.metered.quota.user", "8/month");
		properties.put("ratelimit.tiers.metered.user.default", "100/1h");
		properties.put("ratelimit.tiers.metered.user.reports", "5/1h");
		properties.put("ratelimit.tiers.metered.warn-at", "60%");
		// a group being rolled out in observe mode, one in warn mode
		properties.put("ratelimit.groups.reports.mode", "warn");
		properties.put("ratelimit.tiers.anonymous.ip.reports", "2/1h");
		properties.put("ratelimit.groups.burst.mode", "observe");
		properties.put("ratelimit.tiers.anonymous.ip.burst", "2/1h");
		this.app = BehaviourApp.start(this.stack, properties, ObservedDecisions.class).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void monthlyQuotaRefusesUntilTheMonthBoundaryInTheConfiguredZone() {
		String[] mona = client("X-API-Key", "quota-key-mona");
		for (int i = 1; i <= 8; i++) {
			Reply reply = get("/api/hello", mona);
			assertThat(reply.status()).as("request %d: %s", i, reply).isEqualTo(200);
		}
		Reply refused = get("/api/hello", mona);
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		Instant boundary = LocalDate.now(ZONE).withDayOfMonth(1).plusMonths(1).atStartOfDay(ZONE).toInstant();
		long untilBoundary = Duration.between(Instant.now(), boundary).toSeconds();
		long retryAfter = Long.parseLong(refused.header("Retry-After").orElseThrow());
		assertThat(retryAfter).as("Retry-After runs to the 1st in %s", ZONE)
			.isBetween(untilBoundary - 5, untilBoundary + 5);
		JsonNode body = refused.json();
		assertThat(body.get("code").asString()).isEqualTo("quota_exceeded");
		assertThat(body.get("detail").asString()).startsWith("Monthly quota exceeded for user 'mona'");
		assertThat(body.get("violated-policies").get(0).asString()).isEqualTo("metered-user-all");
		assertThat(body.get("limit").asLong()).isEqualTo(8);
		Instant resetAt = Instant.parse(body.get("reset_at").asString());
		assertThat(Duration.between(boundary, resetAt).abs()).isLessThanOrEqualTo(Duration.ofSeconds(5));
		ListElement<?> rateLimit = refused.rateLimitMembers().get(0);
		assertThat(rateLimit.get()).isEqualTo("metered-user-all");
		assertThat(Reply.param(rateLimit, "t")).isEqualTo(retryAfter);
		ListElement<?> quotaPolicy = refused.policies()
			.stream()
			.filter((policy) -> policy.get().equals("metered-user-all"))
			.findFirst()
			.orElseThrow();
		assertThat(Reply.param(quotaPolicy, "q")).isEqualTo(8);
		assertThat(Reply.param(quotaPolicy, "w")).isEqualTo(30 * 86400);
		// the quota counts every group of the tier
		assertThat(get("/api/reports/1", mona).status()).isEqualTo(429);
	}

	@Test
	void softLimitWarnsFromTheThresholdAndBlocksOnlyAtTheLimit() {
		String[] sven = client("X-API-Key", "soft-key-sven");
		// reports: 5 an hour, warn-at 60%: remaining 4 and 3 are quiet, 2 and below warn
		for (int i = 1; i <= 2; i++) {
			Reply reply = get("/api/reports/1", sven);
			assertThat(reply.status()).isEqualTo(200);
			assertThat(reply.warnings()).as("request %d: %s", i, reply).isEmpty();
		}
		for (int i = 3; i <= 5; i++) {
			Reply reply = get("/api/reports/1", sven);
			assertThat(reply.status()).as("request %d is below the hard limit: %s", i, reply).isEqualTo(200);
			ListElement<?> warning = reply.warnings()
				.stream()
				.filter((member) -> member.get().equals("metered-user-reports"))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no warning for metered-user-reports: " + reply));
			assertThat(Reply.stringParam(warning, "code")).isEqualTo("near-limit");
			assertThat(Reply.param(warning, "r")).isEqualTo(5 - i);
		}
		// reports is in warn mode for every tier: over the limit, admitted with an
		// over-limit warning
		Reply over = get("/api/reports/1", sven);
		assertThat(over.status()).as("%s", over).isEqualTo(200);
		assertThat(over.warnings()).anySatisfy((warning) -> {
			assertThat(warning.get()).isEqualTo("metered-user-reports");
			assertThat(Reply.stringParam(warning, "code")).isEqualTo("over-limit");
		});
	}

	@Test
	void warnModeAdmitsWithTheHeadersAndAnOverLimitWarning() {
		String[] client = client();
		get("/api/reports/1", client);
		get("/api/reports/1", client);
		Reply over = get("/api/reports/1", client);
		assertThat(over.status()).as("%s", over).isEqualTo(200);
		assertThat(over.rateLimitMembers().get(0).get()).isEqualTo("anonymous-ip-reports");
		assertThat(Reply.param(over.rateLimitMembers().get(0), "r")).isZero();
		assertThat(over.warnings()).singleElement().satisfies((warning) -> {
			assertThat(warning.get()).isEqualTo("anonymous-ip-reports");
			assertThat(Reply.stringParam(warning, "code")).isEqualTo("over-limit");
		});
		assertThat(over.header("Retry-After")).isEmpty();
	}

	@Test
	void observeModeLeavesResponsesByteIdenticalAndCountsWouldBeRefusals() {
		ObservedDecisions observed = app().context().getBean(ObservedDecisions.class);
		String address = nextAddress();
		String[] client = { "X-Forwarded-For", address, "X-Request-Id", "observe-" + address };
		List<Reply> replies = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			replies.add(get("/api/burst", client));
		}
		// burst: 2 an hour, observed: the third to fifth would have been refused, and
		// nothing shows
		for (Reply reply : replies) {
			assertThat(reply.status()).isEqualTo(200);
			assertThat(reply.hasRateLimitHeaders()).as("%s", reply).isFalse();
			assertThat(withoutDate(reply)).isEqualTo(withoutDate(replies.get(0)));
			assertThat(reply.body()).isEqualTo(replies.get(0).body());
		}
		assertThat(observed.wouldRefuse(address)).isEqualTo(3);
	}

	private static Map<String, List<String>> withoutDate(Reply reply) {
		Map<String, List<String>> headers = new LinkedHashMap<>(reply.headers());
		headers.remove("date");
		return headers;
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private Reply get(String path, String... headers) {
		return Http.send(app().port(), "GET", path, headers);
	}

	private static String[] client(String... headers) {
		String[] all = new String[headers.length + 2];
		all[0] = "X-Forwarded-For";
		all[1] = nextAddress();
		System.arraycopy(headers, 0, all, 2, headers.length);
		return all;
	}

	/** Client addresses from 198.51.100.0/24 and on: apart from the other suites'. */
	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.51." + (100 + (n >> 8)) + "." + (n & 255);
	}

	/**
	 * Counts, per client address, the admitted requests that an observed limit would have
	 * refused.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ObservedDecisions {

		private final Queue<String> addresses = new ConcurrentLinkedQueue<>();

		@Bean
		DecisionListener observedDecisionCounter() {
			return (decision, elapsedNanos) -> {
				if (decision instanceof Decision.Allowed allowed && !allowed.observed().isEmpty()) {
					this.addresses.add(String.valueOf(decision.identity().ip()));
				}
			};
		}

		long wouldRefuse(String address) {
			return this.addresses.stream().filter(address::equals).count();
		}

	}

}
