package io.github.ratelimit.behaviour;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.ratelimit.test.redis.RedisMonitor;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * The gate before authentication over real HTTP, the same on each web stack and store:
 * {@code /secure/**} sits behind Spring Security's HTTP Basic with a password encoder
 * that counts its checks. A denied or banned client address is refused before any
 * password is checked, on every path but the health probes (excluded and exempt paths
 * included); anyone else is authenticated and limited as before, in one store decision.
 * Clients speak through the trusted proxy 127.0.0.1 with addresses of their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GateBehaviourTests {

	private static final String DENIED_RANGE = "198.51.231.0/24";

	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	GateBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("management.endpoints.web.exposure.include", "health,ratelimits");
		properties.put("ratelimit.access.deny[0]", DENIED_RANGE);
		properties.put("ratelimit.bans.refusals", "3");
		properties.put("ratelimit.bans.duration", "1h");
		properties.put("ratelimit.groups.secure.paths[0]", "/secure/**");
		properties.put("ratelimit.tiers.premium.user.secure", "1000/1h");
		properties.put("ratelimit.tiers.anonymous.ip.secure", "1000/1h");
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
	void aDenyListedAddressIsRefusedBeforeItsPasswordIsChecked() {
		int checks = checks();
		double denied = decisions("denied");
		for (String password : List.of("wrong", BehaviourUsers.PAULA.password())) {
			Reply reply = secure("198.51.231.7", password);
			assertThat(reply.status()).as("%s", reply).isEqualTo(403);
			assertThat(reply.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
			assertThat(reply.json().get("code").asString()).isEqualTo("access_denied");
			assertThat(reply.header("Cache-Control")).contains("no-store");
			assertThat(reply.header("X-Request-Id")).isPresent();
			assertThat(reply.header("Retry-After")).isEmpty();
		}
		assertThat(checks()).as("passwords checked").isEqualTo(checks);
		// one refusal is one decision: counted once, by the gate, not again by the
		// limiter
		assertThat(decisions("denied") - denied).isEqualTo(2);
	}

	@Test
	void aDenyRuleSetThroughTheEndpointAppliesBeforeAuthentication() {
		String address = nextAddress();
		assertThat(secure(address, "wrong").status()).isEqualTo(401);
		Reply set = ops("POST", "/actuator/ratelimits/deny", "{\"subject\":\"" + address + "\",\"expires\":\"1h\"}");
		assertThat(set.status()).as("%s", set).isEqualTo(200);
		int checks = checks();
		Reply reply = secure(address, "wrong");
		assertThat(reply.status()).as("%s", reply).isEqualTo(403);
		assertThat(reply.json().get("code").asString()).isEqualTo("access_denied");
		assertThat(checks()).isEqualTo(checks);
		assertThat(ops("DELETE", "/actuator/ratelimits/rules?subject=" + address, null).status()).isEqualTo(200);
		assertThat(secure(address, BehaviourUsers.PAULA.password()).status()).isEqualTo(200);
	}

	@Test
	void aBannedAddressIsRefusedBeforeItsPasswordIsCheckedWhatEverItAuthenticatesAs() {
		String address = nextAddress();
		banByRefusals(address);
		int checks = checks();
		double banned = decisions("banned");
		for (String password : List.of("wrong", BehaviourUsers.PAULA.password())) {
			Reply reply = secure(address, password);
			assertThat(reply.status()).as("%s", reply).isEqualTo(403);
			assertThat(reply.json().get("code").asString()).isEqualTo("banned");
			assertThat(Long.parseLong(reply.header("Retry-After").orElseThrow())).isBetween(3590L, 3600L);
		}
		assertThat(checks()).as("passwords checked").isEqualTo(checks);
		assertThat(decisions("banned") - banned).isEqualTo(2);
		// lifted: the password is checked again
		assertThat(ops("DELETE", "/actuator/ratelimits/bans?subject=ip:" + address, null).status()).isEqualTo(200);
		assertThat(secure(address, "wrong").status()).isEqualTo(401);
		assertThat(checks()).isEqualTo(checks + 1);
	}

	@Test
	void anIpv6BanCoversItsWhole64AtTheGate() {
		String net = "2001:db8:77:" + Integer.toHexString(addresses.incrementAndGet()) + ":";
		banByRefusals(net + ":1");
		int checks = checks();
		Reply reply = secure(net + ":2", "wrong");
		assertThat(reply.status()).as("%s", reply).isEqualTo(403);
		assertThat(reply.json().get("code").asString()).isEqualTo("banned");
		assertThat(checks()).isEqualTo(checks);
	}

	@Test
	void excludedAndExemptPathsAreGatedButHealthProbesAreNot() {
		String denied = "198.51.231.9";
		Reply actuator = get("/actuator/ratelimits", denied);
		assertThat(actuator.status()).as("%s", actuator).isEqualTo(403);
		assertThat(actuator.json().get("code").asString()).isEqualTo("access_denied");
		Reply exempt = get("/api/annotated/ping", denied);
		assertThat(exempt.status()).as("%s", exempt).isEqualTo(403);
		assertThat(get("/actuator/health", denied).status()).isEqualTo(200);
		String banned = nextAddress();
		banByRefusals(banned);
		assertThat(get("/actuator/ratelimits", banned).status()).isEqualTo(403);
		assertThat(get("/api/annotated/ping", banned).status()).isEqualTo(403);
		assertThat(get("/actuator/health", banned).status()).isEqualTo(200);
		// excluded and exempt paths stay free of limits for everyone else
		String other = nextAddress();
		for (int i = 0; i < 8; i++) {
			assertThat(get("/api/annotated/ping", other).status()).isEqualTo(200);
		}
	}

	@Test
	void anyoneElseIsAuthenticatedAndLimitedAsBefore() {
		String address = nextAddress();
		int checks = checks();
		Reply wrong = secure(address, "wrong");
		assertThat(wrong.status()).as("%s", wrong).isEqualTo(401);
		Reply right = secure(address, BehaviourUsers.PAULA.password());
		assertThat(right.status()).as("%s", right).isEqualTo(200);
		assertThat(right.body()).isEqualTo("secret");
		assertThat(right.rateLimit().get()).isEqualTo("premium-user-secure");
		assertThat(checks()).as("passwords checked").isEqualTo(checks + 2);
	}

	@Test
	void anOrdinaryRequestIsDecidedInOneStoreCallWhileTheGateIsOn() {
		assumeThat(this.storage).as("counted on Redis").isNotEqualTo(Storage.MEMORY);
		String marker = nextAddress();
		// loads the script, so that the request measured is not the one that finds it
		// missing
		get("/api/hello", nextAddress());
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			assertThat(secure(nextAddress(), BehaviourUsers.PAULA.password()).status()).isEqualTo(200);
			// Redis reports commands in order: once the next request's is seen, the first
			// one's are all in
			assertThat(get("/api/hello", marker).status()).isEqualTo(200);
			await().atMost(Duration.ofSeconds(5)).until(() -> !monitor.commands(marker + "\"").isEmpty());
			List<RedisMonitor.Command> sent = monitor.commands(":paula\"")
				.stream()
				.filter((command) -> !command.fromScript())
				.toList();
			assertThat(sent).as("commands sent for one request")
				.singleElement()
				.satisfies((command) -> assertThat(command.name()).startsWith("EVAL"));
		}
	}

	// 5 admitted, 3 refused: the third refusal starts a ban of an hour
	private void banByRefusals(String address) {
		for (int i = 0; i < 8; i++) {
			get("/api/hello", address);
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		// a refusal's ban is recorded after its response on Redis: the next requests may
		// still be refused
		while (get("/api/hello", address).status() != 403) {
			assertThat(System.nanoTime()).as("banned within 10 s").isLessThan(deadline);
			LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
		}
	}

	private int checks() {
		return app().context().getBean(CountingPasswordEncoder.class).checks();
	}

	private double decisions(String outcome) {
		MeterRegistry registry = app().context().getBean(MeterRegistry.class);
		return registry.find("ratelimit.decisions")
			.tag("outcome", outcome)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private Reply secure(String address, String password) {
		String credentials = BehaviourUsers.PAULA.username() + ":" + password;
		return Http.send(app().port(), "GET", "/secure/hello", "X-Forwarded-For", address, "Authorization",
				"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
	}

	private Reply get(String path, String address) {
		return Http.send(app().port(), "GET", path, "X-Forwarded-For", address);
	}

	private Reply ops(String method, String path, @Nullable String json) {
		return Http.sendJson(app().port(), method, path, json);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	/** Client addresses from 198.51.232.0/24 on: apart from the denied range. */
	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.51." + (232 + (n >> 8)) + "." + (n & 255);
	}

}
