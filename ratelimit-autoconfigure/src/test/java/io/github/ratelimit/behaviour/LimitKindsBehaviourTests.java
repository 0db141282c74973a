package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.greenbytes.http.sfv.ListElement;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Fixed windows, sliding windows and leaky buckets over real HTTP, the same on each web
 * stack and store that decides them (memory, and Redis with the script strategy): a
 * concurrent burst admits exactly what the kind allows, and the refusal's headers and
 * body say when requests are back. Windows are an hour long and keys fresh, so nothing
 * frees up while a test runs (a fixed window's burst waits out an hour boundary that is
 * near). On Redis, two instances share one budget exactly.
 * <p>
 * Each kind is its own tier, reached with an API key of its own per test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LimitKindsBehaviourTests {

	private static final int BURST = 20;

	private static final long HOUR_MILLIS = Duration.ofHours(1).toMillis();

	/** The queued leaky bucket: one slot every 2 s, a wait of up to 5 s. */
	private static final long QUEUE_SLOT_MILLIS = 2000;

	/** Tiers and their user limits on every group; each API key below is one user. */
	private static final Map<String, String> TIERS = Map.of("fixed", "5/1h fixed", "sliding", "5/1h sliding", "leaky",
			"1/1h leaky", "queued", "30/1m leaky");

	/**
	 * Each test's API keys, by tier: {@code <tier>-<n>} is user {@code <tier>-user-<n>}.
	 */
	private static final int KEYS_PER_TIER = 4;

	private final Stack stack;

	private final Storage storage;

	private @Nullable Map<String, String> properties;

	private @Nullable BehaviourApp app;

	LimitKindsBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		int key = 0;
		for (Map.Entry<String, String> tier : TIERS.entrySet()) {
			properties.put("ratelimit.tiers." + tier.getKey() + ".user.default", tier.getValue());
			properties.put("ratelimit.tiers." + tier.getKey() + ".user.burst", tier.getValue());
			for (int n = 0; n < KEYS_PER_TIER; n++) {
				String prefix = "ratelimit.identity.api-keys[" + key++ + "].";
				properties.put(prefix + "key", tier.getKey() + "-" + n);
				properties.put(prefix + "user", tier.getKey() + "-user-" + n);
				properties.put(prefix + "tier", tier.getKey());
			}
		}
		properties.put("ratelimit.status.enabled", "true");
		// requests to /api/burst wait for a slot up to 5 s: a queue of 0, 2 and 4 s
		properties.put("ratelimit.groups.burst.max-wait", "5s");
		this.properties = properties;
		this.app = BehaviourApp.start(this.stack, properties).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void fixedWindowAdmitsItsQuotaAndRefusesUntilTheWindowEnds() {
		awaitClearOfHourBoundary();
		ConcurrentLoad load = burst(app(), app(), "/api/hello", "fixed-0");
		assertThat(load.statuses()).containsOnly(entry(200, 5L), entry(429, (long) BURST - 5));
		Reply refused = get(app(), "/api/hello", "fixed-0");
		Instant now = Instant.now();
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		Instant windowEnd = Instant.ofEpochMilli(Math.floorDiv(now.toEpochMilli(), HOUR_MILLIS) * HOUR_MILLIS)
			.plusMillis(HOUR_MILLIS);
		long untilEnd = secondsUntil(now, windowEnd);
		long retryAfter = retryAfter(refused);
		assertThat(retryAfter).as("Retry-After runs to the window's end, all of it back then")
			.isBetween(untilEnd - 1, untilEnd + 1);
		assertPolicy(refused, "fixed-user-default", 5, 3600);
		assertThat(Reply.param(refused.rateLimit(), "r")).isZero();
		assertThat(Reply.param(refused.rateLimit(), "t")).isEqualTo(retryAfter);
		assertThat(refused.header("X-RateLimit-Reset")).hasValue(Long.toString(retryAfter));
		JsonNode body = refused.json();
		assertThat(body.get("code").asString()).isEqualTo("fixed_window_limit_exceeded");
		assertThat(body.get("detail").asString())
			.isEqualTo("Limit of 5 requests per 1h window exceeded for user 'fixed-user-0'. All 5 are back when the "
					+ "window ends. Retry after " + retryAfter + " seconds.");
		assertThat(Instant.parse(body.get("reset_at").asString())).isEqualTo(windowEnd);
	}

	@Test
	void slidingWindowAdmitsItsQuotaAndRefusesUntilThePreviousWindowSlidesOut() {
		awaitClearOfHourBoundary();
		ConcurrentLoad load = burst(app(), app(), "/api/hello", "sliding-0");
		assertThat(load.statuses()).containsOnly(entry(200, 5L), entry(429, (long) BURST - 5));
		Reply refused = get(app(), "/api/hello", "sliding-0");
		Instant now = Instant.now();
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		// the 5 counted in this hour weigh fully until it ends, then less as the next
		// hour runs: one fits again a fifth into it
		long windowStart = Math.floorDiv(now.toEpochMilli(), HOUR_MILLIS) * HOUR_MILLIS;
		long untilFits = secondsUntil(now, Instant.ofEpochMilli(windowStart + HOUR_MILLIS + HOUR_MILLIS / 5));
		long retryAfter = retryAfter(refused);
		assertThat(retryAfter).as("Retry-After runs to when the counted requests have slid out enough")
			.isBetween(untilFits - 1, untilFits + 1);
		assertPolicy(refused, "sliding-user-default", 5, 3600);
		assertThat(Reply.param(refused.rateLimit(), "t")).isEqualTo(retryAfter);
		JsonNode body = refused.json();
		assertThat(body.get("code").asString()).isEqualTo("sliding_window_limit_exceeded");
		assertThat(body.get("detail").asString()).startsWith(
				"Limit of 5 requests in any sliding 1h window exceeded for user 'sliding-user-0'. Requests free up "
						+ "gradually");
	}

	@Test
	void leakyBucketLetsOneThroughAndRefusesTheRestUntilItsNextSlot() {
		ConcurrentLoad load = burst(app(), app(), "/api/hello", "leaky-0");
		assertThat(load.statuses()).containsOnly(entry(200, 1L), entry(429, (long) BURST - 1));
		Reply refused = get(app(), "/api/hello", "leaky-0");
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		long retryAfter = retryAfter(refused);
		assertThat(retryAfter).as("Retry-After is the next slot, an hour after the one taken").isBetween(3590L, 3600L);
		assertPolicy(refused, "leaky-user-default", 1, 3600);
		assertThat(Reply.param(refused.rateLimit(), "r")).isZero();
		assertThat(Reply.param(refused.rateLimit(), "t")).isEqualTo(retryAfter);
		JsonNode body = refused.json();
		assertThat(body.get("code").asString()).isEqualTo("steady_rate_exceeded");
		assertThat(body.get("detail").asString())
			.isEqualTo("Steady rate of 1 requests per 1h exceeded for user 'leaky-user-0'. Requests are let through "
					+ "one at a time, one every 1h: space them out rather than send a burst. Retry after " + retryAfter
					+ " seconds.");
	}

	@Test
	void leakyBucketWithMaxWaitQueuesRequestsForTheirSlots() {
		Queue<Long> admittedAfterMillis = new ConcurrentLinkedQueue<>();
		ConcurrentLoad load = ConcurrentLoad.run(8, (i) -> () -> {
			long start = System.nanoTime();
			Reply reply = get(app(), "/api/burst", "queued-0");
			if (reply.status() == 200) {
				admittedAfterMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
			}
			return reply.status();
		});
		// slots at 0, 2 and 4 s are within the 5 s of max-wait; the next, at 6 s, is not
		assertThat(load.statuses()).containsOnly(entry(200, 3L), entry(429, 5L));
		List<Long> waits = admittedAfterMillis.stream().sorted().toList();
		assertThat(waits.get(1)).as("the second waited for its slot: %s", waits)
			.isGreaterThanOrEqualTo(QUEUE_SLOT_MILLIS - 500);
		assertThat(waits.get(2)).as("the third waited for its slot: %s", waits)
			.isGreaterThanOrEqualTo(2 * QUEUE_SLOT_MILLIS - 500);
	}

	@Test
	void statusEndpointReportsEachKindAsTheStoreHoldsIt() {
		awaitClearOfHourBoundary();
		for (String tier : List.of("fixed", "sliding", "leaky")) {
			assertThat(get(app(), "/api/hello", tier + "-2").status()).isEqualTo(200);
		}
		Instant now = Instant.now();
		Instant windowStart = Instant.ofEpochMilli(Math.floorDiv(now.toEpochMilli(), HOUR_MILLIS) * HOUR_MILLIS);
		JsonNode fixed = budget("fixed-2", "fixed-user-default");
		assertThat(fixed.get("kind").asString()).isEqualTo("fixed_window");
		assertThat(fixed.get("limit").asString()).isEqualTo("5/1h fixed");
		assertThat(fixed.get("remaining").asLong()).isEqualTo(4);
		assertThat(fixed.get("window").asLong()).isEqualTo(3600);
		assertThat(Instant.parse(fixed.get("period").get("start").asString())).isEqualTo(windowStart);
		assertThat(Instant.parse(fixed.get("reset_at").asString())).as("whole again at the window's end")
			.isEqualTo(windowStart.plusMillis(HOUR_MILLIS));
		JsonNode sliding = budget("sliding-2", "sliding-user-default");
		assertThat(sliding.get("kind").asString()).isEqualTo("sliding_window");
		assertThat(sliding.get("limit").asString()).isEqualTo("5/1h sliding");
		assertThat(sliding.get("remaining").asLong()).isEqualTo(4);
		assertThat(sliding.has("period")).isFalse();
		JsonNode leaky = budget("leaky-2", "leaky-user-default");
		assertThat(leaky.get("kind").asString()).isEqualTo("leaky_bucket");
		assertThat(leaky.get("limit").asString()).isEqualTo("1/1h leaky");
		assertThat(leaky.get("remaining").asLong()).as("the next slot is taken").isZero();
		assertThat(leaky.get("reset").asLong()).as("the slot taken drains in an hour").isBetween(3590L, 3600L);
	}

	/**
	 * The status endpoint's budget of {@code name}, as the caller with {@code key} reads
	 * it.
	 */
	private JsonNode budget(String key, String name) {
		Reply status = get(app(), "/ratelimit", key);
		assertThat(status.status()).as("%s", status).isEqualTo(200);
		for (JsonNode budget : status.json().get("groups").get("default").get("policies")) {
			if (budget.get("name").asString().equals(name)) {
				return budget;
			}
		}
		throw new AssertionError("no budget " + name + ": " + status);
	}

	@Test
	void twoInstancesOnOneRedisShareEachKindsBurstExactly() {
		assumeThat(this.storage).as("instances share budgets through Redis").isNotEqualTo(Storage.MEMORY);
		awaitClearOfHourBoundary();
		assertThat(this.properties).isNotNull();
		try (BehaviourApp second = BehaviourApp.start(this.stack, this.properties).awaitStoreConnected()) {
			assertThat(burst(app(), second, "/api/hello", "fixed-1").statuses()).as("fixed window")
				.containsOnly(entry(200, 5L), entry(429, (long) BURST - 5));
			assertThat(burst(app(), second, "/api/hello", "sliding-1").statuses()).as("sliding window")
				.containsOnly(entry(200, 5L), entry(429, (long) BURST - 5));
			assertThat(burst(app(), second, "/api/hello", "leaky-1").statuses()).as("leaky bucket")
				.containsOnly(entry(200, 1L), entry(429, (long) BURST - 1));
			// and the other instance refuses the spent key too
			assertThat(get(second, "/api/hello", "fixed-1").status()).isEqualTo(429);
			assertThat(get(app(), "/api/hello", "leaky-1").status()).isEqualTo(429);
			assertThat(second.failureModeDecisions()).as("decisions that got the failure mode").isZero();
		}
		assertThat(app().failureModeDecisions()).as("decisions that got the failure mode").isZero();
	}

	/** {@value #BURST} requests at once with one API key, alternately on each app. */
	private static ConcurrentLoad burst(BehaviourApp first, BehaviourApp second, String path, String key) {
		BehaviourApp[] apps = { first, second };
		return ConcurrentLoad.run(BURST, (i) -> () -> get(apps[i % 2], path, key).status());
	}

	/**
	 * Waits out an hour boundary that is less than 15 s away, so that a fixed window's
	 * burst falls in one window.
	 */
	private static void awaitClearOfHourBoundary() {
		long now = System.currentTimeMillis();
		long untilBoundary = HOUR_MILLIS - Math.floorMod(now, HOUR_MILLIS);
		if (untilBoundary < 15_000) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(untilBoundary + 100));
		}
	}

	private static void assertPolicy(Reply reply, String name, long quota, long window) {
		ListElement<?> policy = reply.policies()
			.stream()
			.filter((member) -> member.get().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no policy " + name + ": " + reply));
		assertThat(Reply.param(policy, "q")).isEqualTo(quota);
		assertThat(Reply.param(policy, "w")).isEqualTo(window);
		assertThat(policy.getParams()).containsOnlyKeys("q", "w");
		assertThat(reply.rateLimit().get()).isEqualTo(name);
	}

	private static long retryAfter(Reply reply) {
		return Long.parseLong(reply.header("Retry-After").orElseThrow(() -> new AssertionError("" + reply)));
	}

	/** Whole seconds from {@code now} to {@code then}, rounded up. */
	private static long secondsUntil(Instant now, Instant then) {
		return (Duration.between(now, then).toMillis() + 999) / 1000;
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private static Reply get(BehaviourApp app, String path, String key) {
		return Http.send(app.port(), "GET", path, "X-Forwarded-For", "198.51.200.1", "X-API-Key", key);
	}

}
