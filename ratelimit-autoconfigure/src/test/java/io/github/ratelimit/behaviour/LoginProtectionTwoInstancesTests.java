package io.github.ratelimit.behaviour;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failed-login protection with its defaults on two instances sharing one Redis, over
 * HTTP: the budgets of an address and of an account are one budget whichever instance an
 * attempt reaches, a burst of wrong passwords spread over both reaches the password
 * encoders only as often as that budget allows, and a ban one instance starts refuses the
 * address on the other too, before any password is checked.
 */
class LoginProtectionTwoInstancesTests {

	private static final int PER_ADDRESS = 10;

	private static final long ADDRESS_REFILL_NANOS = Duration.ofSeconds(6).toNanos();

	private static final int PER_ACCOUNT = 20;

	@ParameterizedTest
	@EnumSource(Stack.class)
	void budgetsAndBansAreSharedThroughRedis(Stack stack) {
		Map<String, String> properties = new LinkedHashMap<>(Storage.REDIS.properties(getClass().getSimpleName()));
		properties.put("ratelimit.login-protection.enabled", "true");
		Class<?> guard = (stack == Stack.MVC) ? MvcPasswordGuard.class : WebFluxPasswordGuard.class;
		try (BehaviourApp first = BehaviourApp.start(stack, properties, guard).awaitStoreConnected();
				BehaviourApp second = BehaviourApp.start(stack, properties, guard).awaitStoreConnected()) {
			BehaviourApp[] apps = { first, second };
			String address = "203.0.113." + (10 + stack.ordinal());
			int checks = checks(apps);
			long start = System.nanoTime();
			ConcurrentLoad load = ConcurrentLoad.run(60,
					(i) -> () -> basic(apps[i % 2], address, BehaviourUsers.FRED.username(), "wrong-" + i).status());
			long refilled = (System.nanoTime() - start) / ADDRESS_REFILL_NANOS;
			long failures = load.statuses().getOrDefault(401, 0L);
			assertThat(failures).as("%s", load.statuses()).isBetween((long) PER_ADDRESS, PER_ADDRESS + refilled);
			assertThat(checks(apps) - checks).as("passwords checked on both").isEqualTo((int) failures);
			// the refusals (more than 3) ban the address; the ban reaches the other
			// instance within a refresh
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			for (BehaviourApp app : apps) {
				Reply reply = basic(app, address, BehaviourUsers.FRED.username(), BehaviourUsers.FRED.password());
				while (reply.status() != 403 && System.nanoTime() < deadline) {
					assertThat(reply.status()).as("%s", reply).isEqualTo(429);
					reply = basic(app, address, BehaviourUsers.FRED.username(), BehaviourUsers.FRED.password());
				}
				assertThat(reply.status()).as("banned on both within 10 s: %s", reply).isEqualTo(403);
			}
			assertThat(checks(apps) - checks).as("passwords checked on both").isEqualTo((int) failures);
			// one account guessed from many addresses, alternately on each instance
			String account = "victim-" + stack.name().toLowerCase(java.util.Locale.ROOT);
			for (int i = 0; i < PER_ACCOUNT; i++) {
				Reply reply = basic(apps[i % 2], "198.51.100." + (i + 1 + 50 * stack.ordinal()), account, "guess-" + i);
				assertThat(reply.status()).as("guess %d: %s", i + 1, reply).isEqualTo(401);
			}
			for (BehaviourApp app : apps) {
				assertThat(app.failureModeDecisions()).as("decisions that got the failure mode").isZero();
			}
			for (BehaviourApp app : apps) {
				Reply throttled = basic(app, "192.0.2." + (1 + stack.ordinal()), account, "guess");
				assertThat(throttled.status()).as("%s", throttled).isEqualTo(429);
				assertThat(throttled.json().get("scope").asString()).isEqualTo("account");
			}
		}
	}

	private static int checks(BehaviourApp[] apps) {
		int checks = 0;
		for (BehaviourApp app : apps) {
			checks += app.context().getBean(CountingPasswordEncoder.class).checks();
		}
		return checks;
	}

	private static Reply basic(BehaviourApp app, String address, String user, String password) {
		String credentials = Base64.getEncoder()
			.encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		return Http.send(app.port(), "GET", "/secure/hello", "X-Forwarded-For", address, "Authorization",
				"Basic " + credentials);
	}

}
