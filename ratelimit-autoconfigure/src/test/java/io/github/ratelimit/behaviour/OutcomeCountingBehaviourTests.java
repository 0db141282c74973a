package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Limits that count only failed responses, over real HTTP, the same on each web stack and
 * store: a login group whose limit counts failures (10 an hour per address), and a PIN
 * handler whose own limit counts 401 and 403 only (3 an hour). The handlers answer 401
 * for a wrong password and count how often they check one. A third group counting
 * failures has one token an hour, and a handler that goes on running after its response
 * is complete ({@link HeldResponses}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OutcomeCountingBehaviourTests {

	private static final int FAILURES = 10;

	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	OutcomeCountingBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.groups.login.paths", "/auth/**");
		properties.put("ratelimit.groups.login.count", "failures");
		properties.put("ratelimit.tiers.anonymous.ip.login", FAILURES + "/1h");
		properties.put("ratelimit.groups.pin.paths", "/pin/**");
		properties.put("ratelimit.tiers.anonymous.ip.pin", "100/1h");
		properties.put("ratelimit.groups.held.paths", "/held/**");
		properties.put("ratelimit.groups.held.count", "failures");
		properties.put("ratelimit.tiers.anonymous.ip.held", "1/1h");
		Class<?> endpoints = (this.stack == Stack.MVC) ? MvcLoginEndpoints.class : WebFluxLoginEndpoints.class;
		Class<?> held = (this.stack == Stack.MVC) ? MvcHeldEndpoints.class : WebFluxHeldEndpoints.class;
		this.app = BehaviourApp
			.start(this.stack, properties, PasswordChecks.class, endpoints, HeldResponses.class, held)
			.awaitStoreConnected();
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
	void aBurstOfWrongPasswordsReachesThePasswordCheckExactlyAsOftenAsTheFailuresAllow() {
		String address = nextAddress();
		String user = "burst-" + address;
		ConcurrentLoad load = ConcurrentLoad.run(100,
				(i) -> () -> login("/auth/login", address, user, "wrong-" + i).status());
		assertThat(load.statuses()).isEqualTo(Map.of(401, (long) FAILURES, 429, 100L - FAILURES));
		assertThat(checks(user)).isEqualTo(FAILURES);
	}

	@Test
	void successfulLoginsAreNotCountedAndFailuresAreRefusedPastTheBudget() {
		assertLimitCountsFailuresOnly("/auth/login");
	}

	@Test
	void asynchronousResponsesAreCountedByTheirFinalStatus() {
		assertLimitCountsFailuresOnly("/auth/login-async");
	}

	@Test
	void failuresAnsweredByAnExceptionAreCounted() {
		assertLimitCountsFailuresOnly("/auth/login-throws");
	}

	@Test
	void aRefusalOfTheFailuresLimitIsA429WithRetryAfterAndTheLimitsHeaders() {
		String address = nextAddress();
		Reply first = login("/auth/login", address, "headers-" + address, PasswordChecks.RIGHT);
		// advertised like any limit; remaining counts the reservation of the request in
		// flight
		assertThat(first.policies()).anySatisfy((policy) -> {
			assertThat(policy.get()).isEqualTo("anonymous-ip-login");
			assertThat(Reply.param(policy, "q")).isEqualTo(FAILURES);
		});
		assertThat(remaining(first)).isEqualTo(FAILURES - 1);
		for (int i = 0; i < FAILURES; i++) {
			login("/auth/login", address, "headers-" + address, "wrong");
		}
		Reply refused = login("/auth/login", address, "headers-" + address, PasswordChecks.RIGHT);
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.header("Retry-After")).isPresent();
		assertThat(refused.json().get("code").asString()).isEqualTo("rate_limit_exceeded");
		assertThat(refused.json().get("violated-policies").get(0).asString()).isEqualTo("anonymous-ip-login");
	}

	@Test
	void aHandlersOwnLimitCountsOnlyTheStatusesItNames() {
		String address = nextAddress();
		String user = "pin-" + address;
		for (int i = 0; i < 6; i++) {
			assertThat(login("/pin/check", address, user, PasswordChecks.RIGHT).status()).isEqualTo(200);
		}
		assertGivenBack("/pin/check", address, 3);
		int before = checks(user);
		for (int i = 0; i < 3; i++) {
			assertThat(login("/pin/check", address, user, "wrong").status()).isEqualTo(401);
		}
		Reply refused = login("/pin/check", address, user, "wrong");
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(checks(user) - before).isEqualTo(3);
	}

	@Test
	void theTokenOfAnUncountedResponseIsBackBeforeTheClientHasTheResponse() throws IOException {
		String address = nextAddress();
		HeldResponses held = app().context().getBean(HeldResponses.class);
		// a budget of 1, which the first request holds until its response commits
		try (Http.OpenConnection first = Http.sendKeepingConnection(app().port(),
				"POST /held/commit-then-wait HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: " + address
						+ "\r\nContent-Length: 0\r\n\r\n")) {
			assertThat(first.reply().status()).as("%s", first.reply()).isEqualTo(200);
			assertThat(first.reply().body()).isEqualTo("held");
			// its request is still running: nothing of its end has happened
			assertThat(held.holding()).isOne();
			Reply next = Http.send(app().port(), "POST", "/held/answer", "X-Forwarded-For", address);
			assertThat(next.status()).as("%s", next).isEqualTo(200);
			assertThat(held.holding()).isOne();
		}
		finally {
			held.release();
		}
	}

	private void assertLimitCountsFailuresOnly(String path) {
		String address = nextAddress();
		String user = "login-" + address;
		// twice the budget of successful logins in a row: none counts
		for (int i = 0; i < 2 * FAILURES; i++) {
			Reply reply = login(path, address, user, PasswordChecks.RIGHT);
			assertThat(reply.status()).as("successful login %d: %s", i + 1, reply).isEqualTo(200);
		}
		assertGivenBack(path, address, FAILURES);
		int before = checks(user);
		for (int i = 0; i < FAILURES; i++) {
			Reply reply = login(path, address, user, "wrong");
			assertThat(reply.status()).as("failure %d: %s", i + 1, reply).isEqualTo(401);
		}
		Reply refused = login(path, address, user, "wrong");
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		// the right password is refused too now: the budget is spent, whoever asks
		assertThat(login(path, address, user, PasswordChecks.RIGHT).status()).isEqualTo(429);
		assertThat(checks(user) - before).isEqualTo(FAILURES);
	}

	/**
	 * The tokens of earlier successful requests are back by the time their responses
	 * reached the client (they go back when the response commits): a successful request
	 * right after finds every token but its own.
	 */
	private void assertGivenBack(String path, String address, int capacity) {
		Reply reply = login(path, address, "settle-" + address, PasswordChecks.RIGHT);
		assertThat(remaining(reply)).as("%s", reply).isEqualTo(capacity - 1);
	}

	private static long remaining(Reply reply) {
		return Reply.param(reply.rateLimitMembers().get(0), "r");
	}

	private Reply login(String path, String address, String user, String password) {
		return Http.send(app().port(), "POST", path + "?user=" + user + "&password=" + password, "X-Forwarded-For",
				address);
	}

	private int checks(String user) {
		return app().context().getBean(PasswordChecks.class).checks(user);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.51." + (100 + n / 250) + "." + (1 + n % 250);
	}

}
