package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.JsonNode;

import io.github.ratelimit.identity.RequestKeyResolver;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Limits keyed by something the application picks, over real HTTP, the same on each web
 * stack and store: a repository in the path, a tenant header, an expression over the
 * request, a resolver bean, and {@code @RateLimited(per = "repo")}. Each value has a
 * budget of its own: spending one leaves another whole, and the refusal names the key and
 * the value. Every request comes from a new client address, so only the key's limit can
 * bind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CustomKeyBehaviourTests {

	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	CustomKeyBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		// per repository of the path, for every tier (the key repo is the profile's)
		properties.put("ratelimit.groups.repos.paths", "/api/repos/{repo}/**");
		properties.put("ratelimit.keys.repo.limits.repos", "3/1h");
		// per tenant header, for anonymous callers
		properties.put("ratelimit.keys.tenant.header", "X-Tenant-Id");
		properties.put("ratelimit.tiers.anonymous.keys.tenant.default", "3/1h");
		// per product, by an expression: the header, whatever its case
		properties.put("ratelimit.keys.product.expression", "request.header('X-Product')?.toLowerCase()");
		properties.put("ratelimit.keys.product.limits.default", "2/1h");
		// per region, by a bean of the application's
		properties.put("ratelimit.keys.region.bean", "regionKeyResolver");
		properties.put("ratelimit.keys.region.limits.default", "2/1h");
		this.app = BehaviourApp.start(this.stack, properties, RegionKey.class).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void aPathVariableKeyLimitsEachRepositoryApart() {
		for (int i = 1; i <= 3; i++) {
			Reply reply = get("/api/repos/alpha/issues");
			assertThat(reply.status()).as("request %d: %s", i, reply).isEqualTo(200);
			assertThat(reply.rateLimitMembers().get(0).get()).isEqualTo("backstop-repo-repos");
		}
		Reply refused = get("/api/repos/alpha/issues");
		assertRefusedBy(refused, "backstop-repo-repos", "repo", "alpha");
		assertThat(get("/api/repos/beta/issues").status()).as("another repository").isEqualTo(200);
		// the same repository, decoded as the handler sees it
		assertThat(get("/api/repos/%61lpha/issues").status()).isEqualTo(429);
	}

	@Test
	void aHeaderKeyLimitsEachTenantApart() {
		for (int i = 1; i <= 3; i++) {
			Reply reply = get("/api/hello", "X-Tenant-Id", "tenant-a");
			assertThat(reply.status()).as("request %d: %s", i, reply).isEqualTo(200);
		}
		Reply refused = get("/api/hello", "X-Tenant-Id", "tenant-a");
		assertRefusedBy(refused, "anonymous-tenant-default", "tenant", "tenant-a");
		assertThat(get("/api/hello", "X-Tenant-Id", "tenant-b").status()).as("another tenant").isEqualTo(200);
		assertThat(get("/api/hello").status()).as("no tenant: the tenant's limit does not apply").isEqualTo(200);
	}

	@Test
	void anExpressionKeyCountsWhatItComputes() {
		assertThat(get("/api/hello", "X-Product", "Search").status()).isEqualTo(200);
		assertThat(get("/api/hello", "X-Product", "SEARCH").status()).isEqualTo(200);
		Reply refused = get("/api/hello", "X-Product", "search");
		assertRefusedBy(refused, "backstop-product-default", "product", "search");
		assertThat(get("/api/hello", "X-Product", "maps").status()).isEqualTo(200);
	}

	@Test
	void aBeanKeyCountsWhatTheBeanReads() {
		assertThat(get("/api/hello", "X-Region", "eu-west-1").status()).isEqualTo(200);
		assertThat(get("/api/hello", "X-Region", "eu-central-1").status()).isEqualTo(200);
		Reply refused = get("/api/hello", "X-Region", "eu-north-1");
		assertRefusedBy(refused, "backstop-region-default", "region", "eu");
		assertThat(get("/api/hello", "X-Region", "us-east-1").status()).isEqualTo(200);
	}

	@Test
	void aHandlerLimitPerRepositoryCountsEachRepositoryApart() {
		assertTwoPerRepository("/api/repos/%s/stars", "inline-repo-Api.stars");
	}

	@Test
	void aRouteLimitPerRepositoryCountsEachRepositoryApart() {
		assertTwoPerRepository("/fn/repos/%s/forks", "inline-repo-GET.fn.repos.repo.forks");
	}

	// a limit of 2/1h per repository: gamma's third request is refused, delta's first is
	// not
	private void assertTwoPerRepository(String path, String policy) {
		for (int i = 1; i <= 2; i++) {
			assertThat(get(path.formatted("gamma")).status()).as("request %d", i).isEqualTo(200);
		}
		assertRefusedBy(get(path.formatted("gamma")), policy, "repo", "gamma");
		assertThat(get(path.formatted("delta")).status()).isEqualTo(200);
	}

	@Test
	void aValueMadeToBreakKeysOrBodiesIsCountedAsItselfAndReportedSafely() {
		String forged = "{slot}\"},\"status\":200,\"x\":\"";
		assertThat(get("/api/hello", "X-Tenant-Id", forged).status()).isEqualTo(200);
		assertThat(get("/api/hello", "X-Tenant-Id", forged).status()).isEqualTo(200);
		assertThat(get("/api/hello", "X-Tenant-Id", forged).status()).isEqualTo(200);
		Reply refused = get("/api/hello", "X-Tenant-Id", forged);
		assertRefusedBy(refused, "anonymous-tenant-default", "tenant", forged);
		assertThat(get("/api/hello", "X-Tenant-Id", "{slot}").status()).isEqualTo(200);
	}

	private void assertRefusedBy(Reply refused, String policy, String key, String value) {
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		JsonNode body = refused.json();
		assertThat(body.get("status").asLong()).isEqualTo(429);
		assertThat(body.get("scope").asString()).isEqualTo(key);
		assertThat(body.get("violated-policies").get(0).asString()).isEqualTo(policy);
		assertThat(body.get("detail").asString()).startsWith("Request rate exceeded for " + key + " '" + value + "'");
		assertThat(refused.rateLimitMembers().get(0).get()).isEqualTo(policy);
		assertThat(refused.header("Retry-After")).isPresent();
		assertThat(app().failureModeDecisions()).isZero();
	}

	private Reply get(String path, String... headers) {
		String[] all = new String[headers.length + 2];
		all[0] = "X-Forwarded-For";
		all[1] = nextAddress();
		System.arraycopy(headers, 0, all, 2, headers.length);
		return Http.send(app().port(), "GET", path, all);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	/**
	 * Client addresses from 10.77.0.0/16, one per request: apart from the other suites'.
	 */
	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "10.77." + (n >> 8) + "." + (n & 255);
	}

	/** The application's resolver of the key {@code region}: the region of X-Region. */
	@Configuration(proxyBeanMethods = false)
	static class RegionKey {

		@Bean
		RequestKeyResolver regionKeyResolver() {
			return (request, identity) -> {
				String zone = request.header("X-Region");
				return (zone != null && zone.indexOf('-') > 0) ? zone.substring(0, zone.indexOf('-')) : null;
			};
		}

	}

}
