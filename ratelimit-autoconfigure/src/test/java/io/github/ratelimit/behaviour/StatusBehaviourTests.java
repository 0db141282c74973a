package io.github.ratelimit.behaviour;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
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
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status endpoint callers ask for their own limits ({@code GET /ratelimit}), over
 * real HTTP, the same on each web stack and store. The app is the behavioural app with
 * {@code ratelimit.status.enabled=true} and nothing else of the status configured; a few
 * limits are added to show every kind (a monthly quota for premium orgs, a concurrency
 * cap on {@code export}), and API keys of this suite. Clients speak through the trusted
 * proxy 127.0.0.1 with addresses of their own, so no two tests share a bucket.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class StatusBehaviourTests {

	private static final AtomicInteger addresses = new AtomicInteger();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	StatusBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.status.enabled", "true");
		apiKey(properties, 0, "status-key-sam", "sam", "status-org");
		apiKey(properties, 1, "status-key-sue", "sue", null);
		apiKey(properties, 2, "status-key-dan", "dan", null);
		apiKey(properties, 3, "status-key-max", "max", "max-org");
		apiKey(properties, 4, "status-key-ivy", "ivy", null);
		properties.put("ratelimit.access.deny[0]", "user:dan");
		properties.put("ratelimit.access.deny[1]", "198.51.232.0/24");
		properties.put("ratelimit.groups.export.concurrency", "2");
		properties.put("ratelimit.tiers.premium.quota.org", "1000/month");
		// per tenant header, for anonymous callers that send one
		properties.put("ratelimit.keys.tenant.header", "X-Tenant-Id");
		properties.put("ratelimit.tiers.anonymous.keys.tenant.default", "4/1h");
		this.app = BehaviourApp.start(this.stack, properties).awaitStoreConnected();
	}

	private static void apiKey(Map<String, String> properties, int index, String key, String user,
			@Nullable String org) {
		String prefix = "ratelimit.identity.api-keys[" + index + "].";
		properties.put(prefix + "key", key);
		properties.put(prefix + "user", user);
		properties.put(prefix + "tier", "premium");
		if (org != null) {
			properties.put(prefix + "org", org);
		}
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@AfterEach
	void noDecisionTookTheFailureMode() {
		// the budgets the status reports are the store's: none may have been decided
		// elsewhere
		assertThat(app().failureModeDecisions()).as("decisions that got the failure mode").isZero();
	}

	@Test
	void tellsAnAnonymousCallerWhatItsAddressHasLeftAfterSomeCalls() {
		String address = nextAddress();
		for (int i = 0; i < 3; i++) {
			assertThat(get(address, "/api/hello").status()).isEqualTo(200);
		}
		Reply status = get(address, "/ratelimit");
		assertThat(status.status()).as("%s", status).isEqualTo(200);
		JsonNode body = status.json();
		JsonNode identity = body.get("identity");
		assertThat(identity.get("authenticated").asBoolean()).isFalse();
		assertThat(identity.get("tier").asString()).isEqualTo("anonymous");
		assertThat(identity.get("ip").asString()).isEqualTo(address);
		assertThat(identity.get("user").isNull()).isTrue();
		JsonNode rate = policy(body, "default", "anonymous-ip-default");
		assertThat(rate.get("scope").asString()).isEqualTo("ip");
		assertThat(rate.get("kind").asString()).isEqualTo("rate");
		assertThat(rate.get("limit").asString()).isEqualTo("5/1h");
		assertThat(rate.get("quota").asLong()).isEqualTo(5);
		assertThat(rate.get("window").asLong()).isEqualTo(3600);
		assertThat(rate.get("remaining").asLong()).isEqualTo(2);
		// three tokens to come back, one every 720 s
		assertThat(rate.get("reset").asLong()).isBetween(3 * 720L - 60, 3 * 720L);
		assertThat(rate.get("reset_at").asString()).endsWith("Z");
		assertThat(policy(body, "default", "backstop-ip-default").get("remaining").asLong()).isEqualTo(997);
		assertThat(names(body, "default")).containsExactly("anonymous-ip-default", "backstop-ip-default");
	}

	@Test
	void tellsACallerItsBudgetsPerKeyReadFromTheStatusRequest() {
		String tenant = "tenant-" + nextAddress();
		for (int i = 0; i < 3; i++) {
			assertThat(get(nextAddress(), "/api/hello", "X-Tenant-Id", tenant).status()).isEqualTo(200);
		}
		JsonNode body = get(nextAddress(), "/ratelimit", "X-Tenant-Id", tenant).json();
		assertThat(body.get("identity").get("keys").get("tenant").asString()).isEqualTo(tenant);
		JsonNode perTenant = policy(body, "default", "anonymous-tenant-default");
		assertThat(perTenant.get("scope").asString()).isEqualTo("tenant");
		assertThat(perTenant.get("remaining").asLong()).as("three requests of the tenant, from other addresses")
			.isEqualTo(1);
		assertThat(names(get(nextAddress(), "/ratelimit").json(), "default")).as("no tenant, no tenant budget")
			.containsExactly("anonymous-ip-default", "backstop-ip-default");
	}

	@Test
	void tellsAnApiKeyCallerItsOwnUserOrgAndQuotaBudgets() {
		String address = nextAddress();
		for (int i = 0; i < 2; i++) {
			assertThat(get(address, "/api/hello", "X-API-Key", "status-key-sam").status()).isEqualTo(200);
		}
		JsonNode body = get(address, "/ratelimit", "X-API-Key", "status-key-sam").json();
		JsonNode identity = body.get("identity");
		assertThat(identity.get("authenticated").asBoolean()).isTrue();
		assertThat(identity.get("tier").asString()).isEqualTo("premium");
		assertThat(identity.get("user").asString()).isEqualTo("sam");
		assertThat(identity.get("org").asString()).isEqualTo("status-org");
		assertThat(names(body, "default")).containsExactly("premium-org-all", "premium-user-default",
				"backstop-ip-default");
		assertThat(policy(body, "default", "premium-user-default").get("remaining").asLong()).isEqualTo(2);
		JsonNode quota = policy(body, "default", "premium-org-all");
		assertThat(quota.get("kind").asString()).isEqualTo("quota");
		assertThat(quota.get("scope").asString()).isEqualTo("org");
		assertThat(quota.get("limit").asString()).isEqualTo("1000/month");
		assertThat(quota.get("remaining").asLong()).isEqualTo(998);
		LocalDate today = LocalDate.now(ZoneOffset.UTC);
		assertThat(quota.get("period").get("start").asString())
			.isEqualTo(today.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant().toString());
		assertThat(quota.get("period").get("end").asString())
			.isEqualTo(today.withDayOfMonth(1).plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant().toString());
		assertThat(quota.get("reset_at").asString()).isEqualTo(quota.get("period").get("end").asString());
		// the org's reports limit applies to the reports group only
		assertThat(names(body, "reports")).contains("premium-org-reports");
		assertThat(policy(body, "reports", "premium-org-reports").get("remaining").asLong()).isEqualTo(2);
	}

	@Test
	void showsConcurrencyCapsAndGroupsTheCallerMayNotCall() {
		JsonNode body = get(nextAddress(), "/ratelimit").json();
		JsonNode concurrency = policy(body, "export", "group-ip-export");
		assertThat(concurrency.get("kind").asString()).isEqualTo("concurrency");
		assertThat(concurrency.get("limit").asString()).isEqualTo("2 concurrent");
		assertThat(concurrency.get("remaining").asLong()).isEqualTo(2);
		assertThat(concurrency.get("in_use").asLong()).isZero();
		assertThat(concurrency.has("reset")).isFalse();
		JsonNode admin = body.get("groups").get("admin");
		assertThat(admin.get("blocked").asBoolean()).isTrue();
		assertThat(admin.get("policies")).isEmpty();
		assertThat(body.get("groups").get("default").get("blocked").asBoolean()).isFalse();
		assertThat(body.get("groups").get("default").get("cost").asLong()).isEqualTo(1);
	}

	@Test
	void askingCountsAgainstNoLimit() {
		String address = nextAddress();
		assertThat(get(address, "/api/hello", "X-API-Key", "status-key-ivy").status()).isEqualTo(200);
		Reply before = get(address, "/ratelimit", "X-API-Key", "status-key-ivy");
		for (int i = 0; i < 100; i++) {
			Reply status = get(address, "/ratelimit", "X-API-Key", "status-key-ivy");
			assertThat(status.status()).as("status call %d: %s", i, status).isEqualTo(200);
			assertThat(status.hasRateLimitHeaders()).as("rate-limit headers on %s", status).isFalse();
		}
		Reply after = get(address, "/ratelimit", "X-API-Key", "status-key-ivy");
		assertThat(remainingByName(after.json())).isEqualTo(remainingByName(before.json()));
		assertThat(policy(after.json(), "default", "premium-user-default").get("remaining").asLong()).isEqualTo(3);
		// the next real call is the second of the hour
		Reply next = get(address, "/api/hello", "X-API-Key", "status-key-ivy");
		assertThat(next.status()).isEqualTo(200);
		assertThat(next.remaining()).isEqualTo(2);
	}

	@Test
	void neverShowsAnotherCallersBudgets() {
		String address = nextAddress();
		for (int i = 0; i < 3; i++) {
			get(address, "/api/hello", "X-API-Key", "status-key-max");
		}
		// sue asks from the same address, naming max every way a request could
		JsonNode sue = get(address, "/ratelimit?user=max&identity=max&key=status-key-max", "X-API-Key",
				"status-key-sue", "X-User", "max")
			.json();
		assertThat(sue.get("identity").get("user").asString()).isEqualTo("sue");
		assertThat(sue.get("identity").get("org").isNull()).isTrue();
		assertThat(policy(sue, "default", "premium-user-default").get("remaining").asLong()).isEqualTo(4);
		assertThat(names(sue, "default")).doesNotContain("premium-org-all");
		assertThat(sue.toString()).doesNotContain("max");
		// another address sees its own budget, not the one that was spent
		String other = nextAddress();
		for (int i = 0; i < 3; i++) {
			get(address, "/api/hello");
		}
		JsonNode fresh = get(other, "/ratelimit").json();
		assertThat(fresh.get("identity").get("ip").asString()).isEqualTo(other);
		assertThat(policy(fresh, "default", "anonymous-ip-default").get("remaining").asLong()).isEqualTo(5);
		assertThat(fresh.toString()).doesNotContain(address + "\"");
	}

	@Test
	void isJsonThatMustNotBeStored() {
		Reply status = get(nextAddress(), "/ratelimit");
		assertThat(status.status()).isEqualTo(200);
		assertThat(status.header("Content-Type").orElseThrow()).startsWith("application/json");
		assertThat(status.header("Cache-Control")).hasValue("no-store");
		Reply head = Http.send(app().port(), "HEAD", "/ratelimit", "X-Forwarded-For", nextAddress());
		assertThat(head.status()).isEqualTo(200);
		assertThat(head.body()).isEmpty();
		Reply post = Http.send(app().port(), "POST", "/ratelimit", "X-Forwarded-For", nextAddress());
		assertThat(post.status()).isEqualTo(405);
		assertThat(post.header("Allow")).hasValue("GET, HEAD");
	}

	@Test
	void aDeniedCallerGetsTheRefusalItGetsEverywhere() {
		Reply user = get(nextAddress(), "/ratelimit", "X-API-Key", "status-key-dan");
		assertThat(user.status()).as("%s", user).isEqualTo(403);
		assertThat(user.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		assertThat(user.json().get("code").asString()).isEqualTo("access_denied");
		assertThat(user.header("Cache-Control")).hasValueSatisfying((value) -> assertThat(value).contains("no-store"));
		Reply address = get("198.51.232.9", "/ratelimit");
		assertThat(address.status()).as("%s", address).isEqualTo(403);
		assertThat(address.json().get("code").asString()).isEqualTo("access_denied");
	}

	private Reply get(String address, String path, String... headers) {
		List<String> all = new ArrayList<>(List.of("X-Forwarded-For", address));
		all.addAll(List.of(headers));
		return Http.send(app().port(), "GET", path, all.toArray(String[]::new));
	}

	private static JsonNode policy(JsonNode body, String group, String name) {
		for (JsonNode policy : body.get("groups").get(group).get("policies")) {
			if (policy.get("name").asString().equals(name)) {
				return policy;
			}
		}
		throw new AssertionError("no policy " + name + " in group " + group + ": " + body);
	}

	private static List<String> names(JsonNode body, String group) {
		List<String> names = new ArrayList<>();
		body.get("groups").get(group).get("policies").forEach((policy) -> names.add(policy.get("name").asString()));
		return names;
	}

	private static Map<String, Long> remainingByName(JsonNode body) {
		Map<String, Long> remaining = new LinkedHashMap<>();
		body.get("groups")
			.properties()
			.forEach((group) -> group.getValue()
				.get("policies")
				.forEach((policy) -> remaining.put(group.getKey() + "/" + policy.get("name").asString(),
						policy.get("remaining").asLong())));
		return remaining;
	}

	private BehaviourApp app() {
		assertThat(this.app).as("app").isNotNull();
		return this.app;
	}

	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.18." + (200 + n / 250) + "." + (1 + n % 250);
	}

}
