package io.github.ratelimit.behaviour;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.greenbytes.http.sfv.ListElement;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The behaviour of the rate limiter over real HTTP, the same on every web stack and
 * storage: each subclass runs all of it on one {@link Stack} and one {@link Storage}. A
 * behaviour that one stack has and the other lacks fails here.
 * <p>
 * The app ({@code application-behaviour.yml}) trusts only {@code 127.0.0.1} as a proxy.
 * Tests speak through it with an {@code X-Forwarded-For} address of their own
 * ({@link #newClient}), and API keys of their own, so no two tests share a bucket, and
 * one app serves the whole class. On WebFlux every test also checks that BlockHound
 * caught no blocking call.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RateLimitBehaviourTests {

	/**
	 * Client addresses, from the benchmarking range 198.18.0.0/15: never a trusted proxy.
	 */
	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	private int blockingMark;

	RateLimitBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		this.app = BehaviourApp.start(this.stack, this.storage.properties(getClass().getSimpleName()))
			.awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@BeforeEach
	void markBlockingCalls() {
		this.blockingMark = BlockingCallDetector.mark();
	}

	/** For a test that blocks on purpose: the calls caught so far are expected. */
	protected List<String> acknowledgeBlockingCalls() {
		List<String> caught = BlockingCallDetector.caughtSince(this.blockingMark);
		BlockingCallDetector.acknowledge();
		this.blockingMark = BlockingCallDetector.mark();
		return caught;
	}

	protected final BehaviourApp app() {
		assertThat(this.app).as("app").isNotNull();
		return this.app;
	}

	@Test
	void countsDownTheRateLimitHeadersOnEveryResponse() {
		Client client = newClient();
		for (int i = 1; i <= 5; i++) {
			Reply reply = client.get("/api/hello");
			assertThat(reply.status()).as("request %d: %s", i, reply).isEqualTo(200);
			ListElement<?> rateLimit = reply.rateLimit();
			assertThat(rateLimit.get()).isEqualTo("anonymous-ip-default");
			assertThat(Reply.param(rateLimit, "r")).isEqualTo(5 - i);
			// t: when the bucket holds a request's worth again, 0 while it does; a token
			// comes back every 720 s
			if (i < 5) {
				assertThat(Reply.param(rateLimit, "t")).isZero();
			}
			else {
				assertThat(Reply.param(rateLimit, "t")).isBetween(1L, 720L);
			}
			List<ListElement<?>> policies = reply.policies();
			assertThat(reply.policyNames()).containsExactly("anonymous-ip-default", "backstop-ip-default");
			assertThat(Reply.param(policies.get(0), "q")).isEqualTo(5);
			assertThat(Reply.param(policies.get(0), "w")).isEqualTo(3600);
			assertThat(Reply.param(policies.get(1), "q")).isEqualTo(1000);
			assertThat(reply.header("X-RateLimit-Limit")).hasValue("5");
			assertThat(reply.header("X-RateLimit-Remaining")).hasValue(Integer.toString(5 - i));
			assertThat(reply.header("X-RateLimit-Reset")).hasValue(Long.toString(Reply.param(rateLimit, "t")));
			assertThat(reply.header("Retry-After")).isEmpty();
		}
	}

	@Test
	void resetOfTheLastAdmittedRequestAndOfTheRefusalAfterItAgree() {
		Client client = newClient();
		client.spend("/api/hello", 4);
		Reply last = client.get("/api/hello");
		Reply refused = client.get("/api/hello");
		assertThat(last.remaining()).isZero();
		long lastReset = Reply.param(last.rateLimit(), "t");
		long refusedReset = Reply.param(refused.rateLimit(), "t");
		assertThat(refused.status()).isEqualTo(429);
		// both say when the next request can pass: the same moment, not "until full" then
		// "until the next token"
		assertThat(lastReset).isBetween(1L, 720L);
		assertThat(refusedReset).isBetween(lastReset - 1, lastReset)
			.isEqualTo(Long.parseLong(refused.header("Retry-After").orElseThrow()));
		assertThat(last.header("X-RateLimit-Reset")).hasValue(Long.toString(lastReset));
	}

	@Test
	void rejectsWithRetryAfterAndProblemDetailsOnceTheLimitIsSpent() {
		Client client = newClient("X-Request-Id", "behaviour-429");
		client.spend("/api/hello", 5);
		Reply rejected = client.get("/api/hello");
		assertThat(rejected.status()).as("%s", rejected).isEqualTo(429);
		long retryAfter = Long.parseLong(rejected.header("Retry-After").orElseThrow());
		assertThat(retryAfter).isBetween(1L, 720L);
		assertThat(rejected.header("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(rejected.header("Cache-Control"))
			.hasValueSatisfying((value) -> assertThat(value).contains("no-store"));
		assertThat(rejected.rateLimit().get()).isEqualTo("anonymous-ip-default");
		assertThat(rejected.remaining()).isZero();
		assertThat(Reply.param(rejected.rateLimit(), "t")).isEqualTo(retryAfter);
		assertThat(rejected.header("X-RateLimit-Remaining")).hasValue("0");
		assertThat(rejected.header("X-Request-Id")).hasValue("behaviour-429");
		JsonNode body = rejected.json();
		assertThat(body.get("type").asString())
			.isEqualTo("https://iana.org/assignments/http-problem-types#quota-exceeded");
		assertThat(body.get("status").asInt()).isEqualTo(429);
		assertThat(body.get("code").asString()).isEqualTo("rate_limit_exceeded");
		assertThat(body.get("scope").asString()).isEqualTo("ip");
		assertThat(body.get("group").asString()).isEqualTo("default");
		assertThat(body.get("tier").asString()).isEqualTo("anonymous");
		assertThat(body.get("limit").asLong()).isEqualTo(5);
		assertThat(body.get("remaining").asLong()).isZero();
		assertThat(body.get("retry_after").asLong()).isEqualTo(retryAfter);
		assertThat(body.get("violated-policies").get(0).asString()).isEqualTo("anonymous-ip-default");
		assertThat(body.get("request_id").asString()).isEqualTo("behaviour-429");
		assertThat(body.get("detail").asString()).contains(client.address());
	}

	@Test
	void rejectsWhenOrgQuotaIsSpentWithoutDrainingTheUserBucket() {
		// olga and oscar are premium users of drain-org: 4 requests an hour each, 2
		// reports an hour for the org
		Client olga = newClient("X-API-Key", "drain-key-olga");
		Client oscar = newClient("X-API-Key", "drain-key-oscar");
		Reply before = oscar.get("/api/hello");
		assertThat(before.rateLimit().get()).isEqualTo("premium-user-default");
		assertThat(before.remaining()).isEqualTo(3);
		olga.spend("/api/reports/1", 2);
		Reply rejected = oscar.get("/api/reports/2");
		assertThat(rejected.status()).as("%s", rejected).isEqualTo(429);
		JsonNode body = rejected.json();
		assertThat(body.get("scope").asString()).isEqualTo("org");
		assertThat(body.get("group").asString()).isEqualTo("reports");
		assertThat(body.get("tier").asString()).isEqualTo("premium");
		assertThat(body.get("detail").asString()).contains("org 'drain-org'");
		assertThat(body.get("violated-policies").get(0).asString()).isEqualTo("premium-org-reports");
		Reply after = oscar.get("/api/hello");
		assertThat(after.status()).isEqualTo(200);
		assertThat(after.rateLimit().get()).isEqualTo("premium-user-default");
		assertThat(after.remaining()).as("oscar's own budget after the org refused him").isEqualTo(2);
	}

	@Test
	void apiKeysPutCallersInTheirTier() {
		Client tina = newClient("X-API-Key", "tiers-key-tina");
		Reply first = tina.get("/api/hello");
		assertThat(first.status()).isEqualTo(200);
		assertThat(first.policyNames()).containsExactly("premium-user-default", "backstop-ip-default");
		assertThat(first.rateLimit().get()).isEqualTo("premium-user-default");
		assertThat(first.remaining()).isEqualTo(3);
		assertThat(first.header("X-RateLimit-Limit")).hasValue("4");
		tina.spend("/api/hello", 3);
		Reply rejected = tina.get("/api/hello");
		assertThat(rejected.status()).isEqualTo(429);
		JsonNode body = rejected.json();
		assertThat(body.get("tier").asString()).isEqualTo("premium");
		assertThat(body.get("scope").asString()).isEqualTo("user");
		assertThat(body.get("detail").asString()).contains("user 'tina'");
		assertThat(rejected.body()).doesNotContain("tiers-key-tina");
	}

	@Test
	void unknownApiKeysAreLimitedAsAnonymous() {
		Client client = newClient();
		for (int i = 1; i <= 5; i++) {
			Reply reply = client.get("/api/hello", "X-API-Key", UUID.randomUUID().toString());
			assertThat(reply.status()).isEqualTo(200);
			assertThat(reply.rateLimit().get()).isEqualTo("anonymous-ip-default");
			assertThat(reply.remaining()).isEqualTo(5 - i);
		}
		Reply rejected = client.get("/api/hello", "X-API-Key", "tiers-key-tinaX");
		assertThat(rejected.status()).isEqualTo(429);
		assertThat(rejected.json().get("tier").asString()).isEqualTo("anonymous");
	}

	@Test
	void spoofedForwardedForFromAnUntrustedPeerIsIgnored() {
		// 127.0.0.2 is not a trusted proxy: whatever it claims, it is limited as itself
		for (int i = 1; i <= 5; i++) {
			Reply reply = rawFrom("127.0.0.2", "GET /api/hello HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: "
					+ nextAddress() + "\r\nForwarded: for=" + nextAddress() + "\r\nConnection: close\r\n\r\n");
			assertThat(reply.status()).as("%s", reply).isEqualTo(200);
			assertThat(reply.remaining()).isEqualTo(5 - i);
		}
		Reply rejected = rawFrom("127.0.0.2", "GET /api/hello HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: "
				+ nextAddress() + "\r\nConnection: close\r\n\r\n");
		assertThat(rejected.status()).isEqualTo(429);
		assertThat(rejected.json().get("detail").asString()).contains("127.0.0.2");
	}

	@Test
	void forwardedForFromATrustedPeerNamesTheClient() {
		String client = nextAddress();
		// the trusted hop at the right end is skipped: the first untrusted address is the
		// client
		Client viaTwoProxies = new Client(app().port(), client,
				new String[] { "X-Forwarded-For", client + ", 127.0.0.1" });
		viaTwoProxies.spend("/api/hello", 5);
		Reply rejected = newClientAt(client).get("/api/hello");
		assertThat(rejected.status()).isEqualTo(429);
		assertThat(rejected.json().get("detail").asString()).contains("IP address " + client);
		Reply other = newClient().get("/api/hello");
		assertThat(other.status()).isEqualTo(200);
		assertThat(other.remaining()).isEqualTo(4);
	}

	@Test
	void annotatedHandlerIsChargedItsGroupAndCost() {
		Reply reply = newClient().get("/api/annotated/export");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.rateLimit().get()).isEqualTo("anonymous-ip-export");
		assertThat(reply.remaining()).isEqualTo(15);
	}

	@Test
	void headIsChargedAsTheGetItIsServedAs() {
		// the handler is mapped to GET and annotated group export, cost 5: its HEAD runs
		// it too
		Client client = newClient();
		Reply head = client.head("/api/annotated/export");
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.rateLimit().get()).isEqualTo("anonymous-ip-export");
		assertThat(head.remaining()).isEqualTo(15);
		assertThat(client.get("/api/annotated/export").remaining()).as("HEAD and GET at cost 5 each").isEqualTo(10);
	}

	@Test
	void routeAttributesChargeFunctionalRoutesTheirGroupAndCost() {
		Reply reply = newClient().get("/fn/export");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.rateLimit().get()).isEqualTo("anonymous-ip-export");
		assertThat(reply.remaining()).isEqualTo(15);
	}

	@Test
	void exemptHandlersAndRoutesAreNeverLimited() {
		Client client = newClient();
		for (String path : List.of("/api/annotated/ping", "/fn/ping")) {
			for (int i = 0; i < 7; i++) {
				Reply reply = client.get(path);
				assertThat(reply.status()).as(path).isEqualTo(200);
				assertThat(reply.body()).isEqualTo("pong");
				assertThat(reply.hasRateLimitHeaders()).as("%s has rate-limit headers: %s", path, reply).isFalse();
				assertThat(reply.header("X-Request-Id")).isPresent();
			}
		}
	}

	@Test
	void excludedPathsGetNoRateLimitHeaders() {
		Client client = newClient();
		for (int i = 0; i < 7; i++) {
			Reply reply = client.get("/actuator/health");
			assertThat(reply.status()).as("%s", reply).isEqualTo(200);
			assertThat(reply.hasRateLimitHeaders()).as("%s", reply).isFalse();
		}
	}

	@Test
	void blockedTierIsForbiddenWithTierNotAllowed() {
		Reply reply = newClient().get("/api/admin/stats");
		assertThat(reply.status()).isEqualTo(403);
		assertThat(reply.header("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(reply.header("Cache-Control")).hasValueSatisfying((value) -> assertThat(value).contains("no-store"));
		assertThat(reply.header("Retry-After")).isEmpty();
		JsonNode body = reply.json();
		assertThat(body.get("status").asInt()).isEqualTo(403);
		assertThat(body.get("code").asString()).isEqualTo("tier_not_allowed");
		assertThat(body.get("group").asString()).isEqualTo("admin");
		assertThat(body.get("tier").asString()).isEqualTo("anonymous");
	}

	@Test
	void encodedPathsCannotEscapeTheirGroup() {
		assertThat(newClient().get("/api/%61dmin/stats").status()).isEqualTo(403);
	}

	@Test
	void malformedHeadersNeverCauseAServerError() {
		List<String> evil = List.of("X-Forwarded-For: not-an-ip, , ::::, 999.1.1.1, [::1]:x",
				"X-Forwarded-For: " + "1.2.3.4, ".repeat(500) + "5.6.7.8", "X-Forwarded-For: \u0000\u0000",
				"Forwarded: for=\"[::1\";;;proto=,for=",
				"Forwarded: for=unknown, for=_hidden, for=\"[2001:db8::1]:80\"", "X-API-Key: " + "x".repeat(6000),
				"X-API-Key: ", "X-API-Key: \u00ff\u00fe", "X-Request-Id: abc\u00e9\u0001def",
				"X-Request-Id: " + "r".repeat(4000), "Authorization: Bearer \u00ff\u00fe",
				"Authorization: Basic !!!not-base64!!!", "Authorization: Basic " + base64("no-colon"),
				"Authorization: ApiKey \u0000");
		for (String from : List.of("127.0.0.1", "127.0.0.2")) {
			for (String header : evil) {
				Reply reply = rawFrom(from,
						"GET /api/hello HTTP/1.1\r\nHost: localhost\r\n" + header + "\r\nConnection: close\r\n\r\n");
				assertThat(reply.status()).as("from %s: %s -> %s", from, header, reply).isBetween(200, 499);
			}
		}
	}

	@Test
	void saneRequestIdIsEchoedAndOthersAreReplaced() {
		Client client = newClient();
		String sane = "abc-123_x.y~z:1+2/3=4";
		assertThat(client.get("/api/hello", "X-Request-Id", sane).header("X-Request-Id")).hasValue(sane);
		for (String insane : List.of("has spaces", "quote\"d", "r".repeat(129))) {
			assertThat(client.get("/api/hello", "X-Request-Id", insane).header("X-Request-Id")).as(insane)
				.hasValueSatisfying((id) -> assertThat(id).matches("[0-9a-f]{16}"));
		}
		assertThat(client.get("/api/annotated/ping").header("X-Request-Id"))
			.hasValueSatisfying((id) -> assertThat(id).matches("[0-9a-f]{16}"));
	}

	@Test
	void springSecurityUserIsLimitedAsThatUserAndTier() {
		BehaviourUsers paula = BehaviourUsers.PAULA;
		Client client = newClient("Authorization", "Basic " + base64(paula.username() + ":" + paula.password()));
		Reply first = client.get("/api/whoami");
		assertThat(first.status()).as("%s", first).isEqualTo(200);
		assertThat(first.body()).isEqualTo("paula");
		assertThat(first.rateLimit().get()).isEqualTo("premium-user-default");
		assertThat(first.remaining()).isEqualTo(3);
		client.spend("/api/whoami", 3);
		Reply rejected = client.get("/api/whoami");
		assertThat(rejected.status()).isEqualTo(429);
		JsonNode body = rejected.json();
		assertThat(body.get("scope").asString()).isEqualTo("user");
		assertThat(body.get("tier").asString()).isEqualTo("premium");
		assertThat(body.get("detail").asString()).contains("user 'paula'");
	}

	@Test
	void anonymousCallersPassSpringSecurityAndAreLimitedByAddress() {
		Reply reply = newClient().get("/api/whoami");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.body()).isEqualTo("anonymous");
		assertThat(reply.rateLimit().get()).isEqualTo("anonymous-ip-default");
	}

	@Test
	void applicationNeverRunsOnTheStoresThreads() {
		Reply reply = newClient().get("/api/thread");
		assertThat(reply.status()).isEqualTo(200);
		assertThat(reply.hasRateLimitHeaders()).isTrue();
		// Lettuce's I/O threads, and the JDK's timer thread that completes a timed-out
		// decision
		assertThat(reply.body()).doesNotContainIgnoringCase("lettuce").doesNotContain("CompletableFuture");
	}

	@Test
	void clientsThatHangUpMidRequestLeaveTheLimiterWorking() {
		Client client = newClient();
		for (int i = 0; i < 20; i++) {
			Http.sendAndHangUp(app().port(),
					"GET /api/burst HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: " + client.address() + "\r\n\r\n");
		}
		Reply reply = client.get("/api/burst");
		assertThat(reply.status()).as("%s", reply).isEqualTo(200);
		// each abandoned request may or may not have been decided before the hang-up;
		// none took more than its token
		assertThat(reply.remaining()).isBetween(50L - 21, 50L - 1);
		assertThat(newClient().get("/api/hello").remaining()).isEqualTo(4);
	}

	@Test
	void failingRejectionBodyWriterStillRefusesWithoutAServerError() {
		Client client = newClient("X-Request-Id", FailOnDemandBodyWriter.FAIL_REQUEST_ID);
		client.spend("/api/hello", 5);
		Reply rejected = client.get("/api/hello");
		assertThat(rejected.status()).as("%s", rejected).isEqualTo(429);
		assertThat(rejected.header("Retry-After")).isPresent();
		assertThat(rejected.body()).isEmpty();
	}

	@Test
	void closedFailureModeAnswers503WhenTheStoreIsDown() {
		try (BehaviourApp down = startWithStoreDown("closed")) {
			Reply reply = Http.send(down.port(), "GET", "/api/hello", "X-Forwarded-For", nextAddress(), "X-Request-Id",
					"store-down");
			assertThat(reply.status()).as("%s", reply).isEqualTo(503);
			assertThat(reply.header("Retry-After")).hasValue("1");
			assertThat(reply.header("Content-Type"))
				.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
			JsonNode body = reply.json();
			assertThat(body.get("code").asString()).isEqualTo("rate_limiter_unavailable");
			assertThat(body.get("request_id").asString()).isEqualTo("store-down");
		}
	}

	@Test
	void openFailureModeAdmitsWhenTheStoreIsDown() {
		try (BehaviourApp down = startWithStoreDown("open")) {
			for (int i = 0; i < 7; i++) {
				Reply reply = Http.send(down.port(), "GET", "/api/hello", "X-Forwarded-For", nextAddress());
				assertThat(reply.status()).as("%s", reply).isEqualTo(200);
				assertThat(reply.hasRateLimitHeaders()).isFalse();
				assertThat(reply.header("X-Request-Id")).isPresent();
			}
		}
	}

	@Test
	void admitsExactlyTheLimitUnderConcurrentRequests() {
		// warm up (JIT, threads, connections) on other clients' budgets, so the report
		// compares stacks, not cold starts
		for (int i = 0; i < 3; i++) {
			ConcurrentLoad.run(app().port(), 200, "/api/burst", nextAddress());
		}
		ConcurrentLoad load = ConcurrentLoad.run(app().port(), 200, "/api/burst", nextAddress());
		System.out.println(load.report(this.stack + "/" + this.storage));
		assertThat(load.statuses()).containsOnly(entry(200, 50L), entry(429, 150L));
		// a very generous bound: latency is measured by the benchmarks, this only catches
		// a hang
		assertThat(load.p99Millis()).isLessThan(10_000);
	}

	private BehaviourApp startWithStoreDown(String failureMode) {
		if (this.storage != Storage.MEMORY) {
			// nothing listens there: every decision fails
			Map<String, String> properties = new LinkedHashMap<>(this.storage.unreachable(getClass().getSimpleName()));
			properties.put("ratelimit.storage.failure-mode", failureMode);
			return BehaviourApp.start(this.stack, properties);
		}
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.storage.failure-mode", failureMode);
		return BehaviourApp.start(this.stack, properties, DownStore.class);
	}

	/**
	 * A new caller with an address of its own, forwarded by the trusted loopback proxy.
	 */
	protected final Client newClient(String... headers) {
		return newClientAt(nextAddress(), headers);
	}

	private Client newClientAt(String address, String... headers) {
		String[] all = new String[headers.length + 2];
		all[0] = "X-Forwarded-For";
		all[1] = address;
		System.arraycopy(headers, 0, all, 2, headers.length);
		return new Client(app().port(), address, all);
	}

	private Reply rawFrom(String from, String request) {
		return Http.raw(from, app().port(), request);
	}

	protected static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198." + (18 + ((n >> 16) & 1)) + "." + ((n >> 8) & 255) + "." + (n & 255);
	}

	private static String base64(String value) {
		return Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * A caller: every request carries its headers.
	 *
	 * @param port the app's port
	 * @param address the caller's address, as forwarded
	 * @param headers header names and values, alternating
	 */
	protected record Client(int port, String address, String[] headers) {

		Reply get(String path, String... more) {
			String[] all = new String[this.headers.length + more.length];
			System.arraycopy(this.headers, 0, all, 0, this.headers.length);
			System.arraycopy(more, 0, all, this.headers.length, more.length);
			return Http.send(this.port, "GET", path, all);
		}

		Reply head(String path) {
			return Http.send(this.port, "HEAD", path, this.headers);
		}

		/** Sends {@code count} requests that must all be admitted. */
		void spend(String path, int count) {
			List<Integer> statuses = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				statuses.add(get(path).status());
			}
			assertThat(statuses).as("statuses of %d requests to %s", count, path).containsOnly(200);
		}

	}

}
