package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.greenbytes.http.sfv.ListElement;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Load shedding and adaptive limits over real HTTP, with the load held by the test (the
 * application's {@code LoadSignal}): past the shedding threshold anonymous traffic (low
 * priority) gets 503 {@code load_shed} while premium traffic (high) is served, and every
 * request is served again once the load falls below the threshold's hysteresis; past the
 * overload threshold the limits of an adaptive group shrink, and the headers say so, and
 * they come back when the load falls. The same on each web stack. Each test uses
 * addresses of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LoadSheddingBehaviourTests {

	private static final String PREMIUM_KEY = "tiers-key-tina";

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	LoadSheddingBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.tiers.anonymous.priority", "low");
		properties.put("ratelimit.tiers.premium.priority", "high");
		properties.put("ratelimit.tiers.premium.user.default", "100/1h");
		// overloaded (adaptive limits) from 0.6 until below 0.4; low priority shed from
		// 0.9 until below 0.7
		properties.put("ratelimit.load.high", "0.6");
		properties.put("ratelimit.load.low", "0.4");
		properties.put("ratelimit.load.shed-at.low", "0.9");
		properties.put("ratelimit.load.retry-after", "7s");
		// anonymous burst: 50 an hour per address (application-behaviour.yml), 5 when
		// loaded
		properties.put("ratelimit.load.adaptive.burst.factor", "0.1");
		this.app = BehaviourApp.start(this.stack, properties, HeldLoad.class).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@BeforeEach
	void idle() {
		load(0);
	}

	@Test
	void anonymousTrafficIsShedWhilePremiumIsServedAndAllIsServedOnceTheLoadFalls() {
		String address = "198.51.100.1";
		load(0.95);
		Reply shed = get("/api/hello", address);
		assertThat(shed.status()).as("%s", shed).isEqualTo(503);
		assertThat(shed.header("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(shed.header("Retry-After")).hasValue("7");
		JsonNode body = shed.json();
		assertThat(body.get("code").asString()).isEqualTo("load_shed");
		assertThat(body.get("status").asInt()).isEqualTo(503);
		assertThat(body.get("tier").asString()).isEqualTo("anonymous");
		assertThat(body.get("priority").asString()).isEqualTo("low");
		assertThat(body.get("retry_after").asLong()).isEqualTo(7);
		// no limit was checked: none is shown
		assertThat(shed.header("RateLimit")).isEmpty();
		assertThat(shed.header("RateLimit-Policy")).isEmpty();
		for (int i = 1; i <= 3; i++) {
			Reply premium = getPremium("/api/hello", address);
			assertThat(premium.status()).as("premium request %d: %s", i, premium).isEqualTo(200);
		}
		// within the hysteresis: still shed
		load(0.8);
		assertThat(get("/api/hello", address).status()).isEqualTo(503);
		load(0.5);
		// the shed requests took nothing from the caller's own 5 an hour
		for (int i = 1; i <= 5; i++) {
			Reply served = get("/api/hello", address);
			assertThat(served.status()).as("request %d: %s", i, served).isEqualTo(200);
		}
		Reply own = get("/api/hello", address);
		assertThat(own.status()).isEqualTo(429);
		assertThat(own.json().get("code").asString()).isEqualTo("rate_limit_exceeded");
		MeterRegistry registry = app().context().getBean(MeterRegistry.class);
		Counter counter = registry.find("ratelimit.shed")
			.tags("tier", "anonymous", "group", "default", "priority", "low")
			.counter();
		assertThat(counter).isNotNull();
		assertThat(counter.count()).isEqualTo(2);
	}

	@Test
	void anAdaptiveLimitShrinksUnderLoadAndComesBackWithTheHeadersSayingSo() {
		Reply idle = get("/api/burst", "198.51.100.21");
		assertThat(idle.status()).isEqualTo(200);
		assertThat(quota(idle, "anonymous-ip-burst")).isEqualTo(50);
		// overloaded, short of shedding: the burst group's limits at a tenth
		load(0.7);
		String loaded = "198.51.100.22";
		for (int i = 1; i <= 5; i++) {
			Reply served = get("/api/burst", loaded);
			assertThat(served.status()).as("request %d: %s", i, served).isEqualTo(200);
			assertThat(quota(served, "anonymous-ip-burst")).isEqualTo(5);
			assertThat(served.remaining()).isEqualTo(5 - i);
		}
		Reply refused = get("/api/burst", loaded);
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.json().get("limit").asLong()).isEqualTo(5);
		// other groups keep their limits
		assertThat(quota(get("/api/hello", loaded), "anonymous-ip-default")).isEqualTo(5);
		// within the hysteresis: still shrunk
		load(0.5);
		assertThat(quota(get("/api/burst", "198.51.100.23"), "anonymous-ip-burst")).isEqualTo(5);
		load(0.3);
		Reply recovered = get("/api/burst", "198.51.100.24");
		assertThat(recovered.status()).isEqualTo(200);
		assertThat(quota(recovered, "anonymous-ip-burst")).isEqualTo(50);
		assertThat(recovered.remaining()).isEqualTo(49);
		// the caller that spent the shrunk limit sees the whole limit in force again
		assertThat(quota(get("/api/burst", loaded), "anonymous-ip-burst")).isEqualTo(50);
	}

	private static long quota(Reply reply, String policy) {
		for (ListElement<?> element : reply.policies()) {
			if (element.get().equals(policy)) {
				return Reply.param(element, "q");
			}
		}
		throw new AssertionError("no policy " + policy + " in " + reply);
	}

	private void load(double level) {
		app().context().getBean(HeldLoad.Level.class).set(level);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private Reply get(String path, String address) {
		return Http.send(app().port(), "GET", path, "X-Forwarded-For", address);
	}

	private Reply getPremium(String path, String address) {
		return Http.send(app().port(), "GET", path, "X-Forwarded-For", address, "X-API-Key", PREMIUM_KEY);
	}

}
