package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;

import org.greenbytes.http.sfv.ListElement;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * Budgets of the service ({@code ratelimit.service}) over real HTTP: shared by every
 * caller of a group whatever their address, decided with each caller's own limits (all or
 * nothing), refused as a busy service, and shown in the headers and the caller's status.
 * The same on each web stack and store. Each test has a group of its own, and clients
 * from addresses of its own (forwarded by the trusted loopback proxy).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ServiceLimitBehaviourTests {

	/** What the burst group takes from all callers together in an hour. */
	private static final int BURST_BUDGET = 30;

	private static final int BURST_REQUESTS = 120;

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	ServiceLimitBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.status.enabled", "true");
		// per address (application-behaviour.yml): 50 an hour of burst, 5 an hour of
		// the other groups together
		properties.put("ratelimit.service.burst", BURST_BUDGET + "/1h");
		properties.put("ratelimit.service.reports", "10/1h");
		properties.put("ratelimit.groups.stats.paths[0]", "/api/whoami");
		properties.put("ratelimit.service.stats", "7/1h");
		properties.put("ratelimit.service.all", "100000/1h");
		this.app = BehaviourApp.start(this.stack, properties).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void aConcurrentBurstFromManyCallersGetsExactlyTheServicesBudget() {
		int port = app().port();
		ConcurrentLoad load = ConcurrentLoad.run(BURST_REQUESTS,
				(i) -> () -> Http
					.send(port, "GET", "/api/burst", "X-Forwarded-For", "198.18." + (i / 200) + "." + (1 + i % 200))
					.status());
		System.out.println(load.report(this.stack + " " + this.storage + " service budget, many addresses"));
		assertThat(load.statuses()).containsOnly(entry(200, (long) BURST_BUDGET),
				entry(429, (long) BURST_REQUESTS - BURST_BUDGET));
		Reply refused = get("/api/burst", "198.18.9.1");
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		JsonNode body = refused.json();
		assertThat(body.get("scope").asString()).isEqualTo("service");
		assertThat(body.get("code").asString()).isEqualTo("service_limit_exceeded");
		assertThat(body.get("violated-policies").get(0).asString()).isEqualTo("service-burst");
		assertThat(body.get("limit").asLong()).isEqualTo(BURST_BUDGET);
		long retryAfter = Long.parseLong(refused.header("Retry-After").orElseThrow());
		// a token every 120 s
		assertThat(retryAfter).isBetween(1L, 120L);
		assertThat(body.get("retry_after").asLong()).isEqualTo(retryAfter);
		assertThat(body.get("detail").asString())
			.isEqualTo("The 'burst' endpoints are busy: they take at most 30 requests per hour from all callers "
					+ "together. Retry after " + retryAfter + ((retryAfter == 1) ? " second." : " seconds."));
		ListElement<?> rateLimit = refused.rateLimitMembers().get(0);
		assertThat(rateLimit.get()).isEqualTo("service-burst");
		assertThat(Reply.param(rateLimit, "r")).isZero();
		assertThat(Reply.param(rateLimit, "t")).isEqualTo(retryAfter);
		assertThat(refused.policyNames()).contains("service-burst", "service-all");
		assertThat(app().failureModeDecisions()).as("decisions that got the failure mode").isZero();
	}

	@Test
	void aCallersOwnRefusalTakesNothingFromTheServiceNorTheServicesFromTheCaller() {
		String greedy = "198.19.1.1";
		for (int i = 1; i <= 5; i++) {
			assertThat(get("/api/reports/1", greedy).status()).as("request %d", i).isEqualTo(200);
		}
		for (int i = 0; i < 3; i++) {
			Reply own = get("/api/reports/1", greedy);
			assertThat(own.status()).as("%s", own).isEqualTo(429);
			assertThat(own.json().get("scope").asString()).isEqualTo("ip");
			assertThat(own.json().get("code").asString()).isEqualTo("rate_limit_exceeded");
		}
		// the caller's refusals took nothing: 5 of the 10 are left for the others
		for (int i = 1; i <= 5; i++) {
			assertThat(get("/api/reports/1", "198.19.2." + i).status()).as("caller %d", i).isEqualTo(200);
		}
		String late = "198.19.3.1";
		for (int i = 0; i < 3; i++) {
			Reply busy = get("/api/reports/1", late);
			assertThat(busy.status()).as("%s", busy).isEqualTo(429);
			assertThat(busy.json().get("scope").asString()).isEqualTo("service");
			assertThat(busy.json().get("detail").asString())
				.startsWith("The 'reports' endpoints are busy: they take at most 10 requests per hour");
		}
		// the service's refusals took nothing from the caller: its 5 of the hour are
		// whole (reports counts in the default limit it shares with /api/hello)
		for (int i = 1; i <= 5; i++) {
			assertThat(get("/api/hello", late).status()).as("request %d", i).isEqualTo(200);
		}
		assertThat(get("/api/hello", late).json().get("scope").asString()).isEqualTo("ip");
	}

	@Test
	void theServicesBudgetsShowInTheHeadersAndInEveryCallersStatus() {
		Reply first = get("/api/whoami", "198.19.5.1");
		assertThat(first.status()).isEqualTo(200);
		assertThat(first.policyNames()).containsExactly("anonymous-ip-default", "backstop-ip-default", "service-stats",
				"service-all");
		ListElement<?> stats = first.policies()
			.stream()
			.filter((policy) -> policy.get().equals("service-stats"))
			.findFirst()
			.orElseThrow();
		assertThat(Reply.param(stats, "q")).isEqualTo(7);
		assertThat(Reply.param(stats, "w")).isEqualTo(3600);
		assertThat(get("/api/whoami", "198.19.5.2").status()).isEqualTo(200);
		// another caller sees what the service has left for everyone, beside its own
		Reply status = get("/ratelimit", "198.19.5.3");
		assertThat(status.status()).as("%s", status).isEqualTo(200);
		JsonNode policies = status.json().get("groups").get("stats").get("policies");
		JsonNode service = find(policies, "service-stats");
		assertThat(service.get("scope").asString()).isEqualTo("service");
		assertThat(service.get("quota").asLong()).isEqualTo(7);
		assertThat(service.get("remaining").asLong()).isEqualTo(5);
		assertThat(find(policies, "anonymous-ip-default").get("remaining").asLong()).isEqualTo(5);
		assertThat(find(policies, "service-all").get("scope").asString()).isEqualTo("service");
	}

	private static JsonNode find(JsonNode policies, String name) {
		for (JsonNode policy : policies) {
			if (policy.get("name").asString().equals(name)) {
				return policy;
			}
		}
		throw new AssertionError("no policy " + name + " in " + policies);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private Reply get(String path, String address) {
		return Http.send(app().port(), "GET", path, "X-Forwarded-For", address);
	}

}
