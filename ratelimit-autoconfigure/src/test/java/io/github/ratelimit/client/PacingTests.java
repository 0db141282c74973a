package io.github.ratelimit.client;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A response that shows a policy exhausted holds the next requests to its host until it
 * frees, instead of sending requests certain to be refused.
 */
class PacingTests {

	private static final URI ORDERS = URI.create("https://api.example.com/orders");

	private static final URI OTHER_HOST = URI.create("https://other.example.com/orders");

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-01-17T12:34:33Z"));

	private final RecordedEvents events = new RecordedEvents();

	private final RateLimitClient client = new RateLimitClient(ClientRetrySettings.DEFAULTS, this.clock, new Random(3),
			this.events);

	@Test
	void theLastAllowedRequestHoldsTheNextOnesUntilThePolicyFrees() {
		send("GET", ORDERS, 200, ServerResponses.lookup(ServerResponses.userAdmitted(0, 5), HeaderStyle.IETF));

		Duration hold = this.client.start("GET", ORDERS, false).beforeSend();

		assertThat(hold).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(6));
		assertThat(this.events.lines).contains("waited api.example.com pacing");
		this.clock.advance(Duration.ofSeconds(5));
		assertThat(this.client.start("GET", ORDERS, false).beforeSend()).as("freed").isZero();
	}

	@Test
	void holdsInEveryHeaderStyleOurServerWrites() {
		for (HeaderStyle style : new HeaderStyle[] { HeaderStyle.IETF, HeaderStyle.DRAFT7, HeaderStyle.SPLIT,
				HeaderStyle.X_RATELIMIT }) {
			URI uri = URI.create("https://" + style.value() + ".example.com/");
			send("GET", uri, 200, ServerResponses.lookup(ServerResponses.userAdmitted(0, 4), style));

			assertThat(this.client.start("GET", uri, false).beforeSend()).as("%s", style)
				.isBetween(Duration.ofSeconds(4), Duration.ofSeconds(5));
		}
	}

	@Test
	void aRefusalHoldsEveryCallToTheHostNotOnlyTheRefusedOne() {
		send("GET", ORDERS, 429, ServerResponses.headers("Retry-After", "3"));

		assertThat(this.client.start("POST", ORDERS, false).beforeSend()).isBetween(Duration.ofSeconds(3),
				Duration.ofSeconds(4));
	}

	@Test
	void otherHostsAreNotHeld() {
		send("GET", ORDERS, 200, ServerResponses.lookup(ServerResponses.userAdmitted(0, 5), HeaderStyle.X_RATELIMIT));

		assertThat(this.client.start("GET", OTHER_HOST, false).beforeSend()).isZero();
		assertThat(this.client.start("GET", URI.create("https://api.example.com:8443/orders"), false).beforeSend())
			.as("another port is another server")
			.isZero();
	}

	@Test
	void quotaLeftDoesNotHold() {
		send("GET", ORDERS, 200, ServerResponses.lookup(ServerResponses.userAdmitted(1, 5), HeaderStyle.IETF));

		assertThat(this.client.start("GET", ORDERS, false).beforeSend()).isZero();
	}

	@Test
	void aResponseWithQuotaAgainReleasesTheHoldOfItsPolicy() {
		send("GET", ORDERS, 200, ServerResponses.headers("RateLimit", "\"orders\";r=0;t=20"));
		send("GET", ORDERS, 200, ServerResponses.headers("RateLimit", "\"search\";r=0;t=10"));
		assertThat(held()).as("the latest hold of the host").isBetween(Duration.ofSeconds(20), Duration.ofSeconds(21));

		send("GET", ORDERS, 200, ServerResponses.headers("RateLimit", "\"orders\";r=50;t=1"));
		assertThat(held()).as("search is still exhausted").isBetween(Duration.ofSeconds(10), Duration.ofSeconds(11));

		send("GET", ORDERS, 200, ServerResponses.headers("RateLimit", "\"search\";r=9;t=1"));
		assertThat(held()).isZero();
	}

	@Test
	void aHoldLongerThanMaxDelayIsNotWaitedButReportedWithoutSending() {
		long reset = this.clock.instant().getEpochSecond() + 3600;
		send("GET", ORDERS, 200, ServerResponses.headers("X-RateLimit-Limit", "5000", "X-RateLimit-Remaining", "0",
				"X-RateLimit-Reset", Long.toString(reset)));
		ClientCall call = this.client.start("POST", ORDERS, false);

		assertThatExceptionOfType(RateLimitedException.class).isThrownBy(call::beforeSend).satisfies((exception) -> {
			assertThat(exception.reason()).isEqualTo(GiveUpReason.WAIT_TOO_LONG);
			assertThat(exception.retryAfter()).isEqualTo(Duration.ofHours(1));
			assertThat(exception.safeToRetry()).as("nothing was sent").isTrue();
			assertThat(exception.attempts()).isZero();
			assertThat(exception.getMessage()).isEqualTo("Rate limit exceeded at api.example.com. Retry after 1h or "
					+ "reduce concurrency. Not sent: an earlier response showed the limit exhausted. The wait is "
					+ "longer than the client's max delay of 30s.");
		});
	}

	@Test
	void holdsCountAgainstTheBudget() {
		RateLimitClient client = new RateLimitClient(
				ClientRetrySettings.DEFAULTS.withMaxTotalWait(Duration.ofSeconds(25)), this.clock, new Random(3),
				this.events);
		ClientCall call = client.start("GET", ORDERS, false);
		call.beforeSend();
		Duration first = ((ClientDecision.Retry) call.afterResponse(429, ServerResponses.headers("Retry-After", "20"),
				() -> null))
			.delay();
		this.clock.advance(first);
		send(client, "GET", ORDERS, 200, ServerResponses.headers("RateLimit", "\"orders\";r=0;t=10"));

		assertThatExceptionOfType(RateLimitedException.class).isThrownBy(call::beforeSend)
			.satisfies((exception) -> assertThat(exception.reason()).isEqualTo(GiveUpReason.BUDGET));
	}

	@Test
	void pacingCanBeTurnedOff() {
		RateLimitClient client = new RateLimitClient(ClientRetrySettings.DEFAULTS.withPacing(false), this.clock,
				new Random(3), this.events);
		send(client, "GET", ORDERS, 200,
				ServerResponses.lookup(ServerResponses.userAdmitted(0, 5), HeaderStyle.X_RATELIMIT));

		assertThat(client.start("GET", ORDERS, false).beforeSend()).isZero();
	}

	@Test
	void heldRequestsLeaveSpreadOverTheJitterNotAllAtOnce() {
		send("GET", ORDERS, 200, ServerResponses.headers("RateLimit", "\"orders\";r=0;t=5"));

		Duration earliest = Duration.ofDays(1);
		Duration latest = Duration.ZERO;
		for (int i = 0; i < 50; i++) {
			Duration hold = this.client.start("GET", ORDERS, false).beforeSend();
			earliest = (hold.compareTo(earliest) < 0) ? hold : earliest;
			latest = (hold.compareTo(latest) > 0) ? hold : latest;
		}

		assertThat(earliest).isLessThan(Duration.ofMillis(5200));
		assertThat(latest).isGreaterThan(Duration.ofMillis(5800));
	}

	@Test
	void remembersABoundedNumberOfHosts() {
		for (int i = 0; i <= RateLimitClient.MAX_HOSTS; i++) {
			send("GET", URI.create("https://h" + i + ".example.com/"), 200,
					ServerResponses.headers("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "5"));
		}

		assertThat(this.client.hosts().size()).isEqualTo(RateLimitClient.MAX_HOSTS);
		assertThat(this.client.start("GET", URI.create("https://h0.example.com/"), false).beforeSend())
			.as("the oldest host was dropped")
			.isZero();
		assertThat(this.client.start("GET", URI.create("https://h1.example.com/"), false).beforeSend())
			.isGreaterThanOrEqualTo(Duration.ofSeconds(5));
	}

	@Test
	void remembersABoundedNumberOfHoldsPerHost() {
		HostState state = new HostState();
		Instant now = this.clock.instant();
		state.answeredUnder("/orders", "first");
		state.hold("first", now.plusSeconds(100));
		for (int i = 1; i <= HostState.MAX_HOLDS; i++) {
			state.hold("p" + i, now.plusSeconds(10));
		}

		assertThat(state.heldFor(now, "/orders")).as("the oldest hold was dropped").isNull();
	}

	@Test
	void anExhaustedPolicyHoldsOnlyTheRoutesAnsweredUnderIt() {
		URI export = URI.create("https://api.example.com/export/17");
		send("GET", export, 200, ServerResponses.headers("RateLimit", "\"premium-user-export\";r=0;t=20"));
		send("GET", ORDERS, 200, ServerResponses.headers("RateLimit", "\"premium-user-default\";r=40;t=1"));

		assertThat(this.client.start("GET", URI.create("https://api.example.com/export/18"), false).beforeSend())
			.as("another id of the spent route")
			.isBetween(Duration.ofSeconds(20), Duration.ofSeconds(21));
		assertThat(held()).as("a route answered under another policy").isZero();
		assertThat(this.client.start("GET", URI.create("https://api.example.com/reports"), false).beforeSend())
			.as("a route not answered yet")
			.isZero();
	}

	@Test
	void routesAreThePathWithIdsAsWildcards() {
		assertThat(ClientCall.route(URI.create("https://h/orders/17/items/a1b2?page=2")))
			.isEqualTo("/orders/*/items/*");
		assertThat(ClientCall.route(URI.create("https://h/v1/orders"))).isEqualTo("/*/orders");
		assertThat(ClientCall.route(URI.create("https://h"))).isEqualTo("/");
		assertThat(ClientCall.route(URI.create("https://h/" + "a".repeat(300)))).hasSize(256);
	}

	private Duration held() {
		return this.client.start("GET", ORDERS, false).beforeSend();
	}

	private void send(String method, URI uri, int status, HeaderLookup headers) {
		send(this.client, method, uri, status, headers);
	}

	private static void send(RateLimitClient client, String method, URI uri, int status, HeaderLookup headers) {
		ClientCall call = client.start(method, uri, false);
		call.beforeSend();
		call.afterResponse(status, headers, () -> null);
	}

}
