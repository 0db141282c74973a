package io.github.ratelimit.sample;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances of the sample app on the 'redis' and 'ops' profiles share one real Redis:
 * what an operator sets through the Actuator endpoint of one applies on the other within
 * the refresh interval (1s, the default: polled for up to 5s here), and bans started on
 * one shut the caller out of both.
 * <p>
 * Loopback is a trusted proxy in the sample, so each test is a client of its own through
 * X-Forwarded-For.
 */
class TwoInstancesRuntimeControlTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final String[] OPS = Http.basic("ops", "ops-secret");

	/** The refresh interval (1s) with room for a busy machine. */
	private static final long PROPAGATION_MILLIS = 5_000;

	private final SampleInstances instances = new SampleInstances("redis", "ops");

	@AfterEach
	void stop() {
		this.instances.close();
	}

	@Test
	void overrideSetOnOneInstanceAppliesOnTheOtherUntilItExpires() {
		String keyPrefix = RedisTestServer.uniqueKeyPrefix("runtime-override");
		int a = this.instances.start(keyPrefix);
		int b = this.instances.start(keyPrefix);
		String client = randomAddress();
		assertThat(limit(status(b, client))).isEqualTo("60");

		HttpResponse<String> set = Http.json("POST", url(a, "/actuator/ratelimits/overrides"),
				"{\"dimension\":\"ip\",\"id\":\"" + client + "\",\"limit\":\"500/1m\",\"expires\":\"8s\"}", OPS);
		assertThat(set.statusCode()).as(set.body()).isEqualTo(200);
		JsonNode override = json.readTree(set.body());
		assertThat(override.get("limit").asString()).isEqualTo("500/1m");
		assertThat(override.get("expiresAt").isNull()).isFalse();
		// the instance that set it applies it at once; the other at its next refresh
		assertThat(limit(status(a, client))).isEqualTo("500");
		HttpResponse<String> onB = poll(() -> status(b, client), (response) -> "500".equals(limit(response)),
				PROPAGATION_MILLIS);
		assertThat(limit(onB)).as("the override on the other instance").isEqualTo("500");
		JsonNode listed = json.readTree(Http.send("GET", url(b, "/actuator/ratelimits"), OPS).body()).get("overrides");
		assertThat(listed).hasSize(1);
		assertThat(listed.get(0).get("dimension").asString()).isEqualTo("ip");
		assertThat(listed.get(0).get("id").asString()).isEqualTo(client);
		assertThat(listed.get(0).get("limit").asString()).isEqualTo("500/1m");

		// expired: the tier's limit again, on both, and the override is no longer listed
		HttpResponse<String> expired = poll(() -> status(b, client), (response) -> "60".equals(limit(response)),
				20_000);
		assertThat(limit(expired)).as("the tier's limit after the override expired").isEqualTo("60");
		assertThat(limit(status(a, client))).isEqualTo("60");
		assertThat(
				json.readTree(Http.send("GET", url(b, "/actuator/ratelimits/overrides"), OPS).body()).get("overrides"))
			.isEmpty();
	}

	@Test
	void bansStartedOnOneInstanceHoldOnBothAndRepeatsLastTwiceAsLong() {
		String keyPrefix = RedisTestServer.uniqueKeyPrefix("runtime-bans");
		String[] bans = { "--ratelimit.bans.refusals=5", "--ratelimit.bans.duration=1h",
				"--ratelimit.bans.max-duration=1d" };
		int[] ports = { this.instances.start(keyPrefix, bans), this.instances.start(keyPrefix, bans) };
		String client = randomAddress();

		HttpResponse<String> banned = refuseUntilBanned(ports, client, 0);
		assertBanned(banned, 3300, 3600);
		for (int port : ports) {
			assertBanned(
					poll(() -> notify(port, client), (response) -> response.statusCode() == 403, PROPAGATION_MILLIS),
					3300, 3600);
		}
		JsonNode listed = json.readTree(Http.send("GET", url(ports[1], "/actuator/ratelimits/bans"), OPS).body())
			.get("bans");
		assertThat(listed).hasSize(1);
		assertThat(listed.get(0).get("subject").asString()).isEqualTo("ip:" + client);
		assertThat(listed.get(0).get("offence").asInt()).isEqualTo(1);

		// lifted on the first: at once there, within the refresh interval on the second
		HttpResponse<String> lifted = Http.send("DELETE",
				url(ports[0], "/actuator/ratelimits/bans?subject=ip:" + client), OPS);
		assertThat(lifted.statusCode()).as(lifted.body()).isEqualTo(200);
		assertThat(json.readTree(lifted.body()).get("lifted").asBoolean()).isTrue();
		int refused = 0;
		for (HttpResponse<String> response : List.of(notify(ports[0], client), poll(() -> notify(ports[1], client),
				(notBanned) -> notBanned.statusCode() != 403, PROPAGATION_MILLIS))) {
			assertThat(response.statusCode()).as(response.body()).isIn(200, 429);
			refused += (response.statusCode() == 429) ? 1 : 0;
		}

		// the offence is remembered: the next ban lasts twice as long
		assertBanned(refuseUntilBanned(ports, client, refused), 6900, 7200);
		for (int port : ports) {
			assertBanned(
					poll(() -> notify(port, client), (response) -> response.statusCode() == 403, PROPAGATION_MILLIS),
					6900, 7200);
		}
	}

	/**
	 * Sends notifications (5 a minute for anonymous callers), alternately to each
	 * instance, until one answers 403; at least 5 refusals come first, counting those
	 * since the last ban.
	 */
	private static HttpResponse<String> refuseUntilBanned(int[] ports, String client, int refusedAlready) {
		int refusals = refusedAlready;
		long deadline = System.nanoTime() + 15_000_000_000L;
		for (int i = 0; System.nanoTime() < deadline; i++) {
			HttpResponse<String> response = notify(ports[i % 2], client);
			if (response.statusCode() == 403) {
				assertThat(refusals).as("refusals before the ban").isGreaterThanOrEqualTo(5);
				return response;
			}
			assertThat(response.statusCode()).as(response.body()).isIn(200, 429);
			refusals += (response.statusCode() == 429) ? 1 : 0;
			pause(50);
		}
		throw new AssertionError("not banned after " + refusals + " refusals");
	}

	private static void assertBanned(HttpResponse<String> response, long minRetryAfter, long maxRetryAfter) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
		JsonNode body = json.readTree(response.body());
		assertThat(body.get("code").asString()).isEqualTo("banned");
		long retryAfter = Long.parseLong(response.headers().firstValue("Retry-After").orElseThrow());
		assertThat(retryAfter).isBetween(minRetryAfter, maxRetryAfter);
		assertThat(body.get("retry_after").asLong()).isEqualTo(retryAfter);
		assertThat(body.get("reset_at").asString()).isNotBlank();
	}

	/**
	 * A status request, repeated while it is admitted without headers: a decision Redis
	 * is slower for than its timeout (50 ms) fails open, which a busy machine sees now
	 * and then.
	 */
	private static HttpResponse<String> status(int port, String client) {
		return poll(() -> Http.send("GET", url(port, "/v1/status"), "X-Forwarded-For", client),
				(response) -> limit(response) != null, 2_000);
	}

	private static HttpResponse<String> notify(int port, String client) {
		return Http.send("POST", url(port, "/v1/notifications/send"), "X-Forwarded-For", client);
	}

	private static String limit(HttpResponse<String> response) {
		return response.headers().firstValue("X-RateLimit-Limit").orElse(null);
	}

	/**
	 * Repeats a request until its response matches or the time is up; answers the last
	 * response.
	 */
	private static HttpResponse<String> poll(Supplier<HttpResponse<String>> request,
			Predicate<HttpResponse<String>> done, long millis) {
		long deadline = System.nanoTime() + millis * 1_000_000;
		HttpResponse<String> response = request.get();
		while (!done.test(response) && System.nanoTime() < deadline) {
			pause(200);
			response = request.get();
		}
		return response;
	}

	private static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static String url(int port, String path) {
		return "http://127.0.0.1:" + port + path;
	}

	// documentation addresses (RFC 5737), one per test
	private static String randomAddress() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return "203.0.113." + random.nextInt(1, 255);
	}

}
