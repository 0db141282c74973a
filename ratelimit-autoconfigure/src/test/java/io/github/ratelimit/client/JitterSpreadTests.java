package io.github.ratelimit.client;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.random.RandomGenerator;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A hundred clients refused at the same instant do not come back at one instant: their
 * retries spread over the jitter interval (or the backoff interval when the refusal says
 * nothing), roughly uniformly.
 */
class JitterSpreadTests {

	private static final int CLIENTS = 100;

	private static final URI ORDERS = URI.create("https://api.example.com/orders");

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-01-17T12:34:33Z"));

	@Test
	void retriesAfterTheSameRetryAfterSpreadOverTheJitter() {
		ClientRetrySettings settings = ClientRetrySettings.DEFAULTS.withJitter(Duration.ofSeconds(10));
		List<Duration> waits = new ArrayList<>();
		for (int i = 0; i < CLIENTS; i++) {
			// a hundred applications, each with its own random
			waits.add(firstRetry(settings, new Random(i), ServerResponses.headers("Retry-After", "5")));
		}

		assertThat(waits)
			.allSatisfy((wait) -> assertThat(wait).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(15)));
		assertThat(spread(waits)).as("no two-second bucket holds them all").isGreaterThan(Duration.ofSeconds(9));
		assertThat(buckets(waits, Duration.ofSeconds(5), Duration.ofSeconds(1), 10))
			.as("about ten in each second of the jitter")
			.allSatisfy((count) -> assertThat(count).isBetween(3, 20));
	}

	@Test
	void theDefaultJitterSpreadsOverItsWholeSecond() {
		List<Duration> waits = new ArrayList<>();
		for (int i = 0; i < CLIENTS; i++) {
			waits.add(firstRetry(ClientRetrySettings.DEFAULTS, new Random(1000 + i),
					ServerResponses.headers("Retry-After", "5")));
		}

		assertThat(spread(waits)).isGreaterThan(Duration.ofMillis(900));
		assertThat(buckets(waits, Duration.ofSeconds(5), Duration.ofMillis(100), 10))
			.allSatisfy((count) -> assertThat(count).isBetween(2, 25));
	}

	@Test
	void backoffWithoutRetryAfterSpreadsOverTheBackoffInterval() {
		// one random shared by every client this time
		Random shared = new Random(99);
		List<ClientCall> calls = new ArrayList<>();
		List<Duration> first = new ArrayList<>();
		for (int i = 0; i < CLIENTS; i++) {
			RateLimitClient client = new RateLimitClient(ClientRetrySettings.DEFAULTS, this.clock, shared,
					ClientEvents.NONE);
			ClientCall call = client.start("GET", ORDERS, false);
			call.beforeSend();
			first.add(delay(call.afterResponse(429, HeaderLookup.none(), () -> null)));
			calls.add(call);
		}
		List<Duration> second = new ArrayList<>();
		for (ClientCall call : calls) {
			call.beforeSend();
			second.add(delay(call.afterResponse(429, HeaderLookup.none(), () -> null)));
		}

		assertThat(first).allSatisfy((wait) -> assertThat(wait).isBetween(Duration.ZERO, Duration.ofMillis(500)));
		assertThat(spread(first)).isGreaterThan(Duration.ofMillis(400));
		assertThat(buckets(first, Duration.ZERO, Duration.ofMillis(100), 5))
			.allSatisfy((count) -> assertThat(count).isBetween(8, 35));
		assertThat(second).allSatisfy((wait) -> assertThat(wait).isBetween(Duration.ZERO, Duration.ofSeconds(1)));
		assertThat(spread(second)).isGreaterThan(Duration.ofMillis(800));
		assertThat(buckets(second, Duration.ZERO, Duration.ofMillis(200), 5))
			.allSatisfy((count) -> assertThat(count).isBetween(8, 35));
	}

	private Duration firstRetry(ClientRetrySettings settings, RandomGenerator random, HeaderLookup headers) {
		RateLimitClient client = new RateLimitClient(settings, this.clock, random, ClientEvents.NONE);
		ClientCall call = client.start("GET", ORDERS, false);
		call.beforeSend();
		return delay(call.afterResponse(429, headers, () -> null));
	}

	private static Duration delay(ClientDecision decision) {
		assertThat(decision).isInstanceOf(ClientDecision.Retry.class);
		return ((ClientDecision.Retry) decision).delay();
	}

	private static Duration spread(List<Duration> waits) {
		return Collections.max(waits).minus(Collections.min(waits));
	}

	/**
	 * How many waits fall in each of {@code count} buckets of {@code width} from
	 * {@code start}.
	 */
	private static List<Integer> buckets(List<Duration> waits, Duration start, Duration width, int count) {
		int[] buckets = new int[count];
		for (Duration wait : waits) {
			int index = (int) (wait.minus(start).toNanos() / width.toNanos());
			buckets[Math.min(index, count - 1)]++;
		}
		List<Integer> counts = new ArrayList<>();
		for (int bucket : buckets) {
			counts.add(bucket);
		}
		return counts;
	}

}
