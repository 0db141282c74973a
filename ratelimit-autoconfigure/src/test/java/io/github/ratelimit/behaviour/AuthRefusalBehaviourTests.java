package io.github.ratelimit.behaviour;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.ratelimit.test.redis.RedisMonitor;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Security's own refusals count towards a failures-only limit, over real HTTP, the
 * same on each web stack and store: {@code /secure/**} sits behind HTTP Basic with a
 * password encoder that counts its checks, and its group counts failures,
 * {@value #FAILURES} an hour per client address, and bans an address after 3 of its
 * refusals. The gate before authentication decides that limit and settles it with the 401
 * Security writes, so that past the budget an attempt is refused before its password is
 * checked.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AuthRefusalBehaviourTests {

	private static final int FAILURES = 5;

	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	AuthRefusalBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.groups.secure.paths[0]", "/secure/**");
		properties.put("ratelimit.groups.secure.count", "failures");
		properties.put("ratelimit.tiers.anonymous.ip.secure", FAILURES + "/1h");
		// the group's refusals ban the address: guessing past the budget ends in a ban
		properties.put("ratelimit.groups.secure.bans.refusals", "3");
		properties.put("ratelimit.groups.secure.bans.duration", "1h");
		// after authentication paula is premium: her own limit, roomy, also counts
		// failures only
		properties.put("ratelimit.tiers.premium.user.secure", "1000/1h");
		Class<?> guard = (this.stack == Stack.MVC) ? MvcPasswordGuard.class : WebFluxPasswordGuard.class;
		this.app = BehaviourApp.start(this.stack, properties, guard).awaitStoreConnected();
	}

	@AfterEach
	void noDecisionTookTheFailureMode() {
		// an exact count is the store's: a decision that fell back to the failure mode
		// would
		// be decided elsewhere
		assertThat(app().failureModeDecisions()).as("decisions that got the failure mode").isZero();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void wrongPasswordsRefusedBySecurityCountAndPastTheBudgetNoPasswordIsChecked() {
		String address = nextAddress();
		int checks = checks();
		for (int i = 0; i < FAILURES; i++) {
			Reply reply = secure(address, "wrong");
			assertThat(reply.status()).as("failure %d: %s", i + 1, reply).isEqualTo(401);
		}
		for (String password : List.of("wrong", BehaviourUsers.PAULA.password())) {
			Reply refused = secure(address, password);
			assertThat(refused.status()).as("%s", refused).isEqualTo(429);
			assertThat(refused.header("Retry-After")).isPresent();
			assertThat(refused.json().get("code").asString()).isEqualTo("rate_limit_exceeded");
			assertThat(refused.json().get("violated-policies").get(0).asString()).isEqualTo("anonymous-ip-secure");
		}
		assertThat(checks() - checks).as("passwords checked").isEqualTo(FAILURES);
		// the budget is the address's: the right password from another address still
		// works
		assertThat(secure(nextAddress(), BehaviourUsers.PAULA.password()).status()).isEqualTo(200);
	}

	@Test
	void aBurstOfWrongPasswordsReachesThePasswordEncoderExactlyAsOftenAsTheBudgetAllows() {
		String address = nextAddress();
		int checks = checks();
		ConcurrentLoad load = ConcurrentLoad.run(100, (i) -> () -> secure(address, "wrong-" + i).status());
		assertThat(load.statuses()).containsEntry(401, (long) FAILURES);
		// the rest refused past the budget: 429, or 403 once the third refusal banned the
		// address
		assertThat(load.statuses().getOrDefault(429, 0L) + load.statuses().getOrDefault(403, 0L))
			.isEqualTo(100L - FAILURES);
		assertThat(checks() - checks).as("passwords checked").isEqualTo(FAILURES);
	}

	@Test
	void refusalsPastTheBudgetBanTheAddressBeforeAnyPasswordIsChecked() {
		String address = nextAddress();
		for (int i = 0; i < FAILURES; i++) {
			assertThat(secure(address, "wrong").status()).isEqualTo(401);
		}
		int checks = checks();
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		Reply reply = secure(address, "wrong");
		// a refusal's ban is recorded after its response on Redis: the next attempts may
		// still be refused 429
		while (reply.status() == 429) {
			assertThat(System.nanoTime()).as("banned within 10 s").isLessThan(deadline);
			reply = secure(address, "wrong");
		}
		assertThat(reply.status()).as("%s", reply).isEqualTo(403);
		assertThat(reply.json().get("code").asString()).isEqualTo("banned");
		assertThat(secure(address, BehaviourUsers.PAULA.password()).status()).isEqualTo(403);
		assertThat(checks()).as("passwords checked").isEqualTo(checks);
	}

	@Test
	void successfulLoginsAreNotCounted() {
		String address = nextAddress();
		for (int i = 0; i < 3 * FAILURES; i++) {
			Reply reply = secure(address, BehaviourUsers.PAULA.password());
			assertThat(reply.status()).as("successful login %d: %s", i + 1, reply).isEqualTo(200);
			assertThat(reply.body()).isEqualTo("secret");
		}
	}

	@Test
	void anOrdinaryRequestOfAGroupThatCountsEverythingIsStillDecidedInOneStoreCall() {
		assumeThat(this.storage).as("counted on Redis").isNotEqualTo(Storage.MEMORY);
		String address = nextAddress();
		String marker = nextAddress();
		// loads the script, so that the request measured is not the one that finds it
		// missing
		get("/api/hello", nextAddress());
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			assertThat(get("/api/hello", address).status()).isEqualTo(200);
			// Redis reports commands in order: once the next request's is seen, the first
			// one's are all in
			assertThat(get("/api/hello", marker).status()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(5)).until(() -> !monitor.commands(marker + "\"").isEmpty());
			List<RedisMonitor.Command> sent = monitor.commands(address + "\"")
				.stream()
				.filter((command) -> !command.fromScript())
				.toList();
			assertThat(sent).as("commands sent for one request")
				.singleElement()
				.satisfies((command) -> assertThat(command.name()).startsWith("EVAL"));
		}
	}

	private int checks() {
		return app().context().getBean(CountingPasswordEncoder.class).checks();
	}

	private Reply secure(String address, String password) {
		String credentials = BehaviourUsers.PAULA.username() + ":" + password;
		return Http.send(app().port(), "GET", "/secure/hello", "X-Forwarded-For", address, "Authorization",
				"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
	}

	private Reply get(String path, String address) {
		return Http.send(app().port(), "GET", path, "X-Forwarded-For", address);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.51." + (40 + n / 250) + "." + (1 + n % 250);
	}

}
