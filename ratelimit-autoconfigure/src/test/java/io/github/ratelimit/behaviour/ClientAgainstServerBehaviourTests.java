package io.github.ratelimit.behaviour;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.webclient.autoconfigure.WebClientAutoConfiguration;

import io.github.ratelimit.autoconfigure.RateLimitClientAutoConfiguration;
import io.github.ratelimit.behaviour.SpringClient.Answer;
import io.github.ratelimit.behaviour.SpringClient.Caller;
import io.github.ratelimit.client.ClientEvents;
import io.github.ratelimit.client.ClientRetrySettings;
import io.github.ratelimit.client.GiveUpReason;
import io.github.ratelimit.client.RateLimitClient;
import io.github.ratelimit.client.RateLimitedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The starter's client side against the starter's own server, over real HTTP, the same on
 * each web stack and store: Spring's {@code RestClient} and {@code WebClient}, built by
 * hand with the interceptor and the filter, and HTTP interface clients on the builders
 * Boot auto-configures, call a behavioural app whose limits are short (five calls per
 * two-second fixed window; a write once per two seconds; a read once an hour). A
 * {@link WireLog} ahead of every filter of the app counts what really reached it, so the
 * tests see what a client sent, not only what its caller got.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ClientAgainstServerBehaviourTests {

	/** The paced group's limit: {@value} calls per window. */
	private static final int LIMIT = 5;

	private static final Duration WINDOW = Duration.ofSeconds(2);

	private static final int CALLS = 15;

	/**
	 * Short, so that the pace is the server's: the default (1 s) spreads many clients
	 * apart, which one client in a test does not need.
	 */
	private static final Duration JITTER = Duration.ofMillis(250);

	private static final AtomicInteger addresses = new AtomicInteger();

	/**
	 * An application that calls the app: Boot's client builders and the starter's client
	 * side, auto-configured.
	 */
	private final ApplicationContextRunner clientContext = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitClientAutoConfiguration.class,
				RestClientAutoConfiguration.class, WebClientAutoConfiguration.class));

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	ClientAgainstServerBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		// roomy everywhere else, so that only the groups below ever refuse
		properties.put("ratelimit.tiers.anonymous.ip.default", "1000/1h");
		properties.put("ratelimit.groups.paced.paths[0]", "/client/paced/**");
		properties.put("ratelimit.tiers.anonymous.ip.paced", LIMIT + "/" + WINDOW.toSeconds() + "s fixed");
		properties.put("ratelimit.groups.orders.paths[0]", "/client/orders");
		properties.put("ratelimit.tiers.anonymous.ip.orders", "1/2s");
		properties.put("ratelimit.groups.slow.paths[0]", "/client/slow");
		properties.put("ratelimit.tiers.anonymous.ip.slow", "1/1h");
		Class<?> wireTap = (this.stack == Stack.MVC) ? MvcWireTap.class : WebFluxWireTap.class;
		this.app = BehaviourApp.start(this.stack, properties, CalledApi.class, wireTap).awaitStoreConnected();
	}

	/**
	 * Every refusal and admission the client saw was the store's: a decision that fell
	 * back to the failure mode would make the pacing look right for the wrong reason.
	 */
	@AfterEach
	void noDecisionTookTheFailureMode() {
		assertThat(app().failureModeDecisions()).as("decisions that got the failure mode").isZero();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@ParameterizedTest
	@EnumSource(SpringClient.class)
	void aLoopOfCallsAllSucceedsAtThePaceTheLimitAllowsWithoutSendingCallsCertainToBeRefused(SpringClient kind) {
		String address = nextAddress();
		Caller caller = caller(kind, address, settings(true));
		int blockingCalls = BlockingCallDetector.mark();
		long started = System.nanoTime();
		for (int i = 1; i <= CALLS; i++) {
			Answer answer = caller.send("GET", "/client/paced/" + i);
			assertThat(answer.status()).as("call %d: %s", i, answer).isEqualTo(200);
		}
		Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
		// 15 calls at 5 per aligned window span three windows at least: more than one
		// whole window lies between the first and the last
		assertThat(elapsed).as("not faster than the limit allows").isGreaterThanOrEqualTo(WINDOW);
		// the limit allows them within three windows (the first one partly spent);
		// each hold ends a little past its window (whole seconds, and the jitter)
		assertThat(elapsed).as("close to the pace the limit allows").isLessThan(WINDOW.multipliedBy(CALLS / LIMIT + 2));
		List<WireLog.Entry> wire = wire().from(address);
		assertThat(wire).as("one request per call: the client held the calls an exhausted window would refuse")
			.hasSize(CALLS);
		int exhaustedWindows = CALLS / LIMIT;
		assertThat(wire().refused(address)).as("refused on the wire: %s", wire).isLessThanOrEqualTo(exhaustedWindows);
		assertThat(BlockingCallDetector.caughtSince(blockingCalls)).as("blocking calls on non-blocking threads")
			.isEmpty();
	}

	@ParameterizedTest
	@EnumSource(SpringClient.class)
	void anHttpInterfaceClientOnTheBuilderBootHandsOutIsPacedOnceTheClientSideIsEnabled(SpringClient kind) {
		String address = nextAddress();
		this.clientContext.withPropertyValues("ratelimit.client.enabled=true", "ratelimit.client.jitter=250ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				PacedApi api = kind.httpInterface(context, "http://127.0.0.1:" + port(), address, PacedApi.class);
				for (int i = 1; i <= CALLS; i++) {
					assertThat(api.paced(i)).containsEntry("call", String.valueOf(i));
				}
			});
		assertThat(wire().from(address)).as("held, not refused").hasSize(CALLS);
	}

	@Test
	void withoutPacingTheSameLoopStillSucceedsButEachExhaustedWindowCostsARefusal() {
		String address = nextAddress();
		Caller caller = caller(SpringClient.REST_CLIENT, address, settings(false));
		for (int i = 1; i <= CALLS; i++) {
			Answer answer = caller.send("GET", "/client/paced/" + i);
			assertThat(answer.status()).as("call %d: %s", i, answer).isEqualTo(200);
		}
		// the contrast to the paced loop: the wire tap sees the refusals a client without
		// pacing sends into an exhausted window (one each: it then waits Retry-After)
		int exhaustedWindows = CALLS / LIMIT;
		assertThat(wire().refused(address)).as("%s", wire().from(address)).isBetween(1L, (long) exhaustedWindows + 1);
		assertThat(wire().from(address)).hasSize(CALLS + (int) wire().refused(address));
	}

	@ParameterizedTest
	@EnumSource(SpringClient.class)
	void aRefusedPostWithoutAnIdempotencyKeyIsNotRetriedAndSaysWhy(SpringClient kind) {
		String address = nextAddress();
		spendTheOnlyOrder(address);
		Caller caller = caller(kind, address, settings(true));
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> caller.send("POST", "/client/orders", "X-Request-Id", "client-post-" + address));
		assertThat(refused).as("a refused POST without an Idempotency-Key").isNotNull();
		assertThat(refused.status()).isEqualTo(429);
		assertThat(refused.safeToRetry()).isFalse();
		assertThat(refused.reason()).isEqualTo(GiveUpReason.UNSAFE_METHOD);
		assertThat(refused.attempts()).isEqualTo(1);
		assertThat(refused.retryAfter()).isNotNull().isBetween(Duration.ofSeconds(1), Duration.ofSeconds(2));
		assertThat(refused.getMessage()).startsWith("Rate limit exceeded for ip.")
			.contains("POST is not retried without an Idempotency-Key");
		assertThat(refused.problem()).isNotNull().satisfies((problem) -> {
			assertThat(problem.scope()).isEqualTo("ip");
			assertThat(problem.code()).isEqualTo("rate_limit_exceeded");
			assertThat(problem.policy()).as("the limit that refused, as the body names it").isEqualTo("1;w=2");
			assertThat(problem.requestId()).isEqualTo("client-post-" + address);
		});
		// the test's own POST, then exactly one of the client's: nothing retried
		assertThat(wire().from(address)).extracting(WireLog.Entry::status).containsExactly(200, 429);
	}

	@ParameterizedTest
	@EnumSource(SpringClient.class)
	void aRefusedPostWithAnIdempotencyKeyIsRetriedAfterTheWaitAndSucceeds(SpringClient kind) {
		String address = nextAddress();
		spendTheOnlyOrder(address);
		Caller caller = caller(kind, address, settings(true));
		long started = System.nanoTime();
		Answer answer = caller.sendJson("POST", "/client/orders", "{\"item\":\"book\"}", "Idempotency-Key",
				"order-" + address);
		Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
		assertThat(answer.status()).as("%s", answer).isEqualTo(200);
		assertThat(answer.body()).as("the retry carried the body again").contains("accepted").contains("book");
		assertThat(wire().from(address)).extracting(WireLog.Entry::status).containsExactly(200, 429, 200);
		// the retry waited for the token (up to two seconds) rather than failing fast
		assertThat(elapsed).isGreaterThanOrEqualTo(Duration.ofMillis(500)).isLessThan(Duration.ofSeconds(10));
	}

	@ParameterizedTest
	@EnumSource(SpringClient.class)
	void unauthorizedAndNotFoundAreNeverRetried(SpringClient kind) {
		String address = nextAddress();
		Caller caller = caller(kind, address, settings(true));
		// a wrong password: Spring Security's HTTP Basic answers 401
		Answer unauthorized = caller.send("GET", "/api/whoami", "Authorization", "Basic cGF1bGE6d3Jvbmc=");
		assertThat(unauthorized.status()).as("%s", unauthorized).isEqualTo(401);
		Answer notFound = caller.send("GET", "/client/nothing-here");
		assertThat(notFound.status()).as("%s", notFound).isEqualTo(404);
		assertThat(wire().from(address)).extracting(WireLog.Entry::status).containsExactly(401, 404);
	}

	@ParameterizedTest
	@EnumSource(SpringClient.class)
	void givesUpWhenTheServersWaitExceedsTheBudgetAndThenHoldsCallsWithoutSending(SpringClient kind) {
		String address = nextAddress();
		assertThat(Http.send(port(), "GET", "/client/slow", "X-Forwarded-For", address).status()).isEqualTo(200);
		// a budget of two seconds against a window of an hour; any single wait allowed
		ClientRetrySettings settings = settings(true).withMaxDelay(Duration.ofHours(2))
			.withMaxTotalWait(Duration.ofSeconds(2));
		Caller caller = caller(kind, address, settings);
		long started = System.nanoTime();
		RateLimitedException gaveUp = catchThrowableOfType(RateLimitedException.class,
				() -> caller.send("GET", "/client/slow"));
		Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
		assertThat(gaveUp).as("a GET whose wait exceeds the budget").isNotNull();
		assertThat(gaveUp.status()).isEqualTo(429);
		assertThat(gaveUp.safeToRetry()).as("a GET is safe to retry later").isTrue();
		assertThat(gaveUp.reason()).isEqualTo(GiveUpReason.BUDGET);
		assertThat(gaveUp.attempts()).isEqualTo(1);
		assertThat(gaveUp.retryAfter()).isNotNull()
			.isBetween(Duration.ofMinutes(59), Duration.ofHours(1).plusSeconds(1));
		assertThat(gaveUp.getMessage()).startsWith("Rate limit exceeded for ip. Retry after");
		assertThat(gaveUp.problem()).isNotNull().satisfies((problem) -> assertThat(problem.scope()).isEqualTo("ip"));
		assertThat(elapsed).as("gave up at once rather than waiting").isLessThan(Duration.ofSeconds(5));
		assertThat(wire().from(address)).extracting(WireLog.Entry::status).containsExactly(200, 429);
		// the client now knows the policy is spent for an hour: the next call fails
		// without a request certain to be refused
		RateLimitedException held = catchThrowableOfType(RateLimitedException.class,
				() -> caller.send("GET", "/client/slow"));
		assertThat(held).as("a call while the policy is known to be spent").isNotNull();
		assertThat(held.retryAfter()).isNotNull().isGreaterThan(Duration.ofMinutes(58));
		assertThat(held.reason()).isEqualTo(GiveUpReason.BUDGET);
		assertThat(held.getMessage()).contains("Not sent");
		assertThat(wire().from(address)).hasSize(2);
	}

	/** The test itself (not the client) POSTs the one order the window allows. */
	private void spendTheOnlyOrder(String address) {
		assertThat(Http.send(port(), "POST", "/client/orders", "X-Forwarded-For", address).status()).isEqualTo(200);
	}

	private Caller caller(SpringClient kind, String address, ClientRetrySettings settings) {
		// a client side per test: pacing holds are per host, and every test calls the
		// same one
		RateLimitClient client = new RateLimitClient(settings, Clock.systemUTC(), new Random(), ClientEvents.NONE);
		return kind.caller("http://127.0.0.1:" + port(), client, address);
	}

	private static ClientRetrySettings settings(boolean pacing) {
		return ClientRetrySettings.DEFAULTS.withJitter(JITTER).withPacing(pacing);
	}

	private WireLog wire() {
		return app().context().getBean(WireLog.class);
	}

	private int port() {
		return app().port();
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	/** Client addresses from 203.0.113.0/24 (TEST-NET-3). */
	private static String nextAddress() {
		return "203.0.113." + addresses.incrementAndGet();
	}

}
