package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.greenbytes.http.sfv.ListElement;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up over real HTTP, on a clock the test moves (the application's {@code Clock}
 * bean): right after start limits are in force at the configured share, halfway through
 * the period at a share on the ramp, and after the period at their configured size; the
 * headers say so each time. The same on each web stack.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class WarmUpBehaviourTests {

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	WarmUpBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.warm-up.period", "30s");
		properties.put("ratelimit.warm-up.initial", "0.25");
		this.app = BehaviourApp.start(this.stack, properties, WarmUpClock.class).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void admitsTheInitialShareRightAfterStartAndTheWholeBudgetAfterThePeriod() {
		// anonymous burst: 50 an hour per address (application-behaviour.yml); a quarter
		// right after start
		String early = "203.0.113.1";
		for (int i = 1; i <= 12; i++) {
			Reply served = get(early);
			assertThat(served.status()).as("request %d: %s", i, served).isEqualTo(200);
			assertThat(quota(served)).isEqualTo(12);
		}
		Reply refused = get(early);
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.json().get("limit").asLong()).isEqualTo(12);
		// halfway: 0.25 + 0.75 / 2 = 0.625, in steps of 5%: 60%
		clock().advance(Duration.ofSeconds(15));
		assertThat(quota(get("203.0.113.2"))).isEqualTo(30);
		clock().advance(Duration.ofSeconds(15));
		String late = "203.0.113.3";
		for (int i = 1; i <= 50; i++) {
			Reply served = get(late);
			assertThat(served.status()).as("request %d: %s", i, served).isEqualTo(200);
			assertThat(quota(served)).isEqualTo(50);
		}
		assertThat(get(late).status()).isEqualTo(429);
	}

	private static long quota(Reply reply) {
		for (ListElement<?> element : reply.policies()) {
			if (element.get().equals("anonymous-ip-burst")) {
				return Reply.param(element, "q");
			}
		}
		throw new AssertionError("no policy anonymous-ip-burst in " + reply);
	}

	private ManualTimeMeter clock() {
		return app().context().getBean(ManualTimeMeter.class);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private Reply get(String address) {
		return Http.send(app().port(), "GET", "/api/burst", "X-Forwarded-For", address);
	}

	/** The application's clock, which the warm-up reads: moved by the test only. */
	@TestConfiguration(proxyBeanMethods = false)
	static class WarmUpClock {

		@Bean
		ManualTimeMeter warmUpClock() {
			return new ManualTimeMeter();
		}

	}

}
