package io.github.ratelimit.behaviour;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request the gate before authentication let through and the limiter after it refuses
 * is not an outcome of the application: the failures-only limit the gate reserved for it
 * gets its token back, even though the refusal's status (403 here, a deny rule on the
 * authenticated user) is a failure.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LimiterRefusalBehaviourTests {

	private static final int FAILURES = 3;

	private final Stack stack;

	private @Nullable BehaviourApp app;

	LimiterRefusalBehaviourTests(Stack stack) {
		this.stack = stack;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties(getClass().getSimpleName()));
		properties.put("ratelimit.groups.secure.paths[0]", "/secure/**");
		properties.put("ratelimit.groups.secure.count", "failures");
		properties.put("ratelimit.tiers.anonymous.ip.secure", FAILURES + "/1h");
		properties.put("ratelimit.tiers.premium.user.secure", "1000/1h");
		properties.put("ratelimit.access.deny[0]", "user:" + BehaviourUsers.PAULA.username());
		Class<?> guard = (this.stack == Stack.MVC) ? MvcPasswordGuard.class : WebFluxPasswordGuard.class;
		this.app = BehaviourApp.start(this.stack, properties, guard).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void theLimitersOwnRefusalsDoNotSpendTheFailuresOfTheAddress() {
		String address = "198.51.60.1";
		for (int i = 0; i < 2 * FAILURES; i++) {
			Reply denied = secure(address, BehaviourUsers.PAULA.password());
			assertThat(denied.status()).as("attempt %d: %s", i + 1, denied).isEqualTo(403);
			assertThat(denied.json().get("code").asString()).isEqualTo("access_denied");
		}
		for (int i = 0; i < FAILURES; i++) {
			assertThat(secure(address, "wrong").status()).isEqualTo(401);
		}
		assertThat(secure(address, "wrong").status()).isEqualTo(429);
	}

	private Reply secure(String address, String password) {
		String credentials = BehaviourUsers.PAULA.username() + ":" + password;
		assertThat(this.app).isNotNull();
		return Http.send(this.app.port(), "GET", "/secure/hello", "X-Forwarded-For", address, "Authorization",
				"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
	}

}
