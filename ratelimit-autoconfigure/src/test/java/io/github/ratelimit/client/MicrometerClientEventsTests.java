package io.github.ratelimit.client;

import java.net.URI;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client's meters count waits, retries and give-ups with bounded tags, never a host.
 */
class MicrometerClientEventsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-01-17T12:34:33Z"));

	private final RateLimitClient client = new RateLimitClient(ClientRetrySettings.DEFAULTS, this.clock, new Random(1),
			new MicrometerClientEvents(this.registry));

	@Test
	void recordsRetriesWaitsAndGiveUps() {
		ClientCall get = this.client.start("GET", URI.create("https://api.example.com/a"), false);
		get.beforeSend();
		ClientDecision retry = get.afterResponse(429, ServerResponses.headers("Retry-After", "2"), () -> null);
		this.clock.advance(((ClientDecision.Retry) retry).delay());
		ClientCall post = this.client.start("POST", URI.create("https://b.example.com/"), false);
		post.beforeSend();
		post.afterResponse(429, HeaderLookup.none(), () -> null);

		assertThat(this.registry.get(MicrometerClientEvents.RETRIES).tag("status", "429").counter().count()).isOne();
		assertThat(this.registry.get(MicrometerClientEvents.WAITS).tag("reason", "retry-after").timer().count())
			.isOne();
		assertThat(this.registry.get(MicrometerClientEvents.WAITS)
			.tag("reason", "retry-after")
			.timer()
			.totalTime(TimeUnit.MILLISECONDS)).isBetween(2000.0, 3000.0);
		assertThat(this.registry.get(MicrometerClientEvents.GIVE_UPS)
			.tags("reason", "unsafe-method", "status", "429")
			.counter()
			.count()).isOne();
	}

	@Test
	void tagsNeverNameAHost() {
		for (int i = 0; i < 20; i++) {
			ClientCall call = this.client.start("GET", URI.create("https://h" + i + ".example.com/"), false);
			call.beforeSend();
			call.afterResponse(429, ServerResponses.headers("Retry-After", "600"), () -> null);
		}

		assertThat(this.registry.getMeters()).hasSize(1);
		for (Meter meter : this.registry.getMeters()) {
			assertThat(meter.getId().getTags()).extracting(Tag::getValue)
				.noneMatch((value) -> value.contains("example"));
		}
		assertThat(this.registry.get(MicrometerClientEvents.GIVE_UPS)
			.tags("reason", "wait-too-long", "status", "429")
			.counter()
			.count()).isEqualTo(20);
	}

	@Test
	void pacingHoldsAreTimedAsWaits() {
		URI uri = URI.create("https://api.example.com/a");
		ClientCall first = this.client.start("GET", uri, false);
		first.beforeSend();
		first.afterResponse(200, ServerResponses.headers("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "3"),
				() -> null);

		this.client.start("GET", uri, false).beforeSend();

		assertThat(
				this.registry.get(MicrometerClientEvents.WAITS).tag("reason", "pacing").timer().max(TimeUnit.SECONDS))
			.isBetween(3.0, 4.0);
	}

}
