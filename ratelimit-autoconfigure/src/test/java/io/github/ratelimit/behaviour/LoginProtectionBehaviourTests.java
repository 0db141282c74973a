package io.github.ratelimit.behaviour;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.ratelimit.metrics.RateLimitMetrics;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failed-login protection with the defaults a user gets from
 * {@code ratelimit.login-protection.enabled=true} alone (10 failures a minute per
 * address, 20 per 15 minutes per account, a ban after 3 refusals), over real HTTP, the
 * same on each web stack and store: HTTP Basic at {@code /secure/**} and Spring
 * Security's form login at {@code POST /login}, passwords checked by an encoder that
 * counts its checks. The guarded path is excluded from rate limits, as the Actuator's is
 * by default: login protection applies there all the same.
 * <p>
 * The budgets refill while a test runs (one failure every 6 s per address): where a test
 * cannot finish within that, it allows for the refill it measured rather than relying on
 * a fast machine.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class LoginProtectionBehaviourTests {

	private static final int PER_ADDRESS = 10;

	private static final long ADDRESS_REFILL_NANOS = Duration.ofSeconds(6).toNanos();

	private static final int PER_ACCOUNT = 20;

	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	LoginProtectionBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.login-protection.enabled", "true");
		properties.put("ratelimit.exclude-paths[0]", "/secure/**");
		properties.put("ratelimit.exclude-paths[1]", "/login");
		properties.put("management.endpoints.web.exposure.include", "health,metrics");
		Class<?>[] guards = (this.stack == Stack.MVC)
				? new Class<?>[] { MvcPasswordGuard.class, MvcFormLoginGuard.class }
				: new Class<?>[] { WebFluxPasswordGuard.class, WebFluxFormLoginGuard.class };
		this.app = BehaviourApp.start(this.stack, properties, guards).awaitStoreConnected();
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
	void wrongPasswordsFromOneAddressAreRefusedBeforeTheirPasswordIsCheckedThenBanned() {
		String address = nextAddress();
		int checks = checks();
		long start = System.nanoTime();
		for (int i = 0; i < PER_ADDRESS; i++) {
			Reply reply = basic(address, BehaviourUsers.ANA, "wrong-" + i);
			assertThat(reply.status()).as("failure %d: %s", i + 1, reply).isEqualTo(401);
		}
		int failures = PER_ADDRESS + refilledSince(start, () -> basic(address, BehaviourUsers.ANA, "wrong").status());
		Reply refused = basic(address, BehaviourUsers.ANA, BehaviourUsers.ANA.password());
		assertThat(refused.status()).as("the right password past the budget: %s", refused).isEqualTo(429);
		assertThat(refused.header("Retry-After")).isPresent();
		assertThat(refused.json().get("scope").asString()).isEqualTo("ip");
		assertThat(refused.json().get("violated-policies").get(0).asString()).isEqualTo("login-ip-failures");
		assertThat(checks() - checks).as("passwords checked").isEqualTo(failures);
		// refusals past the budget end in a ban (3 by default); on Redis it is recorded
		// after the response
		Reply banned = awaitBan(() -> basic(address, BehaviourUsers.ANA, "wrong"));
		assertThat(banned.json().get("code").asString()).isEqualTo("banned");
		assertThat(basic(address, BehaviourUsers.ANA, BehaviourUsers.ANA.password()).status()).isEqualTo(403);
		assertThat(checks() - checks).as("passwords checked").isEqualTo(failures);
		// the budget and the ban are the address's: the owner logs in from elsewhere
		assertThat(basic(nextAddress(), BehaviourUsers.ANA, BehaviourUsers.ANA.password()).status()).isEqualTo(200);
		assertThat(counter(RateLimitMetrics.LOGIN_FAILURES, null)).isGreaterThanOrEqualTo(failures);
		assertThat(counter(RateLimitMetrics.LOGIN_REFUSED, "address")).isGreaterThanOrEqualTo(1);
	}

	@Test
	void wrongFormLoginsAreCountedLikeWrongBasicOnes() {
		String address = nextAddress();
		int checks = checks();
		long start = System.nanoTime();
		for (int i = 0; i < PER_ADDRESS; i++) {
			Reply reply = form(address, BehaviourUsers.BOB, "wrong-" + i);
			assertThat(reply.status()).as("failure %d: %s", i + 1, reply).isEqualTo(302);
			assertThat(reply.header("Location"))
				.hasValueSatisfying((location) -> assertThat(location).endsWith("/login?error"));
		}
		int failures = PER_ADDRESS + refilledSince(start, () -> form(address, BehaviourUsers.BOB, "wrong").status());
		Reply refused = form(address, BehaviourUsers.BOB, BehaviourUsers.BOB.password());
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(checks() - checks).as("passwords checked").isEqualTo(failures);
	}

	@Test
	void oneAccountAttackedFromTwentyAddressesIsThrottled() {
		int checks = checks();
		long start = System.nanoTime();
		// one guess from each of 20 addresses: far below an address's own budget
		for (int i = 0; i < PER_ACCOUNT; i++) {
			assertThat(basic(nextAddress(), BehaviourUsers.VICTOR, "guess-" + i).status()).isEqualTo(401);
		}
		// one failure refills every 45 s: a slow machine may let one more through
		int extra = 0;
		Reply refused = basic(nextAddress(), BehaviourUsers.VICTOR, "guess");
		while (refused.status() == 401 && extra * 45L < 1 + Duration.ofNanos(System.nanoTime() - start).toSeconds()) {
			extra++;
			refused = basic(nextAddress(), BehaviourUsers.VICTOR, "guess");
		}
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.json().get("scope").asString()).isEqualTo("account");
		assertThat(refused.json().get("violated-policies").get(0).asString()).isEqualTo("login-account-failures");
		assertThat(refused.json().get("detail").asString()).doesNotContain("victor");
		// the owner is throttled too while the attack lasts (the documented trade-off),
		// whatever the case
		Reply owner = Http.send(app().port(), "GET", "/secure/hello", "X-Forwarded-For", nextAddress(), "Authorization",
				basicCredentials("Victor", BehaviourUsers.VICTOR.password()));
		assertThat(owner.status()).as("%s", owner).isEqualTo(429);
		assertThat(owner.header("Retry-After")).isPresent();
		assertThat(checks() - checks).as("passwords checked").isEqualTo(PER_ACCOUNT + extra);
		// another account is not touched
		assertThat(basic(nextAddress(), BehaviourUsers.PAULA, BehaviourUsers.PAULA.password()).status()).isEqualTo(200);
		assertThat(counter(RateLimitMetrics.LOGIN_REFUSED, "account")).isGreaterThanOrEqualTo(2);
	}

	@Test
	void successfulLoginsAreNotCounted() {
		String address = nextAddress();
		for (int i = 0; i < 3 * PER_ADDRESS; i++) {
			Reply reply = basic(address, BehaviourUsers.CARL, BehaviourUsers.CARL.password());
			assertThat(reply.status()).as("successful login %d: %s", i + 1, reply).isEqualTo(200);
		}
		// the whole budget is left for failures
		for (int i = 0; i < PER_ADDRESS; i++) {
			assertThat(basic(address, BehaviourUsers.CARL, "wrong").status()).as("failure %d", i + 1).isEqualTo(401);
		}
	}

	@Test
	void aBurstOfWrongPasswordsReachesThePasswordEncoderAsOftenAsTheBudgetAllows() {
		String address = nextAddress();
		int checks = checks();
		long start = System.nanoTime();
		ConcurrentLoad load = ConcurrentLoad.run(100,
				(i) -> () -> basic(address, BehaviourUsers.DORA, "wrong-" + i).status());
		long refilled = (System.nanoTime() - start) / ADDRESS_REFILL_NANOS;
		long failures = load.statuses().getOrDefault(401, 0L);
		assertThat(failures).isBetween((long) PER_ADDRESS, PER_ADDRESS + refilled);
		// the rest refused past the budget: 429, or 403 once the address was banned
		assertThat(load.statuses().getOrDefault(429, 0L) + load.statuses().getOrDefault(403, 0L))
			.isEqualTo(100L - failures);
		assertThat(checks() - checks).as("passwords checked").isEqualTo((int) failures);
	}

	@Test
	void requestsWithoutCredentialsAreNotLoginAttempts() {
		String address = nextAddress();
		for (int i = 0; i < 3 * PER_ADDRESS; i++) {
			Reply reply = Http.send(app().port(), "GET", "/secure/hello", "X-Forwarded-For", address);
			assertThat(reply.status()).as("%s", reply).isEqualTo(401);
		}
		assertThat(basic(address, BehaviourUsers.EVE, BehaviourUsers.EVE.password()).status()).isEqualTo(200);
	}

	/**
	 * Sends attempts until the first refusal, allowing one more for each refill since
	 * {@code start}; the attempts that passed are returned. Fails when more pass than
	 * refilled.
	 */
	private static int refilledSince(long start, java.util.function.IntSupplier attempt) {
		int extra = 0;
		while (true) {
			int status = attempt.getAsInt();
			if (status == 429) {
				return extra;
			}
			extra++;
			long refilled = (System.nanoTime() - start) / ADDRESS_REFILL_NANOS;
			assertThat((long) extra).as("attempts past the budget (status %d), %d refilled", status, refilled)
				.isLessThanOrEqualTo(refilled);
		}
	}

	private static Reply awaitBan(java.util.function.Supplier<Reply> attempt) {
		long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
		Reply reply = attempt.get();
		while (reply.status() == 429) {
			assertThat(System.nanoTime()).as("banned within 10 s").isLessThan(deadline);
			reply = attempt.get();
		}
		assertThat(reply.status()).as("%s", reply).isEqualTo(403);
		return reply;
	}

	private double counter(String name, @Nullable String scope) {
		MeterRegistry registry = app().context().getBean(MeterRegistry.class);
		return (scope != null) ? registry.get(name).tag("scope", scope).functionCounter().count()
				: registry.get(name).functionCounter().count();
	}

	private int checks() {
		return app().context().getBean(CountingPasswordEncoder.class).checks();
	}

	private Reply basic(String address, BehaviourUsers user, String password) {
		return Http.send(app().port(), "GET", "/secure/hello", "X-Forwarded-For", address, "Authorization",
				basicCredentials(user.username(), password));
	}

	private Reply form(String address, BehaviourUsers user, String password) {
		return Http.sendForm(
				app().port(), "/login", "username=" + URLEncoder.encode(user.username(), StandardCharsets.UTF_8)
						+ "&password=" + URLEncoder.encode(password, StandardCharsets.UTF_8),
				"X-Forwarded-For", address);
	}

	private static String basicCredentials(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.51." + (60 + n / 250) + "." + (1 + n % 250);
	}

}
