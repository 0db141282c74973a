package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runtime control over real HTTP, the same on each web stack and store: allow and deny
 * lists, automatic bans, and overrides, rules and bans driven through the
 * {@code ratelimits} Actuator endpoint. Clients speak through the trusted proxy 127.0.0.1
 * with addresses of their own; 127.0.0.2 is an untrusted peer.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RuntimeControlBehaviourTests {

	private static final AtomicInteger addresses = new AtomicInteger();

	private static final JsonMapper json = JsonMapper.builder().build();

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	RuntimeControlBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("management.endpoints.web.exposure.include", "health,ratelimits");
		properties.put("management.endpoint.health.show-components", "always");
		properties.put("ratelimit.access.deny[0]", "198.51.250.0/24");
		properties.put("ratelimit.access.allow[0]", "198.51.251.0/24");
		properties.put("ratelimit.bans.refusals", "3");
		properties.put("ratelimit.bans.duration", "1h");
		this.app = BehaviourApp.start(this.stack, properties).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() {
		if (this.app != null) {
			this.app.close();
		}
	}

	@Test
	void aDenyListedClientGets403AccessDenied() {
		Reply reply = get("/api/hello", "X-Forwarded-For", "198.51.250.7");
		assertThat(reply.status()).as("%s", reply).isEqualTo(403);
		assertThat(reply.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
		assertThat(reply.json().get("code").asString()).isEqualTo("access_denied");
		assertThat(reply.header("RateLimit")).isEmpty();
		assertThat(reply.header("Retry-After")).isEmpty();
	}

	@Test
	void anAllowListedClientIsNeverLimited() {
		for (int i = 0; i < 12; i++) {
			Reply reply = get("/api/hello", "X-Forwarded-For", "198.51.251.7");
			assertThat(reply.status()).as("request %d: %s", i, reply).isEqualTo(200);
			assertThat(reply.header("RateLimit")).isEmpty();
		}
	}

	@Test
	void anUntrustedPeerThatSpoofsAnAllowListedAddressIsLimitedAsItself() {
		for (int i = 1; i <= 5; i++) {
			Reply reply = fromUntrustedPeer("198.51.251.8");
			assertThat(reply.status()).as("%s", reply).isEqualTo(200);
			assertThat(reply.remaining()).isEqualTo(5 - i);
		}
		Reply refused = fromUntrustedPeer("198.51.251.8");
		assertThat(refused.status()).isEqualTo(429);
		assertThat(refused.json().get("detail").asString()).contains("127.0.0.2");
	}

	@Test
	void aClientThatKeepsBeingRefusedIsBannedAndItsNextBanLastsTwiceAsLong() {
		String address = nextAddress();
		for (int i = 0; i < 5; i++) {
			assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(200);
		}
		for (int i = 0; i < 3; i++) {
			assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(429);
		}
		Reply banned = awaitStatus(403, address);
		JsonNode body = banned.json();
		assertThat(body.get("code").asString()).isEqualTo("banned");
		long retryAfter = Long.parseLong(banned.header("Retry-After").orElseThrow());
		assertThat(retryAfter).isBetween(3590L, 3600L);
		assertThat(body.get("retry_after").asLong()).isEqualTo(retryAfter);
		JsonNode bans = ops("GET", "/actuator/ratelimits/bans", null).json().get("bans");
		assertThat(bans.toString()).contains("ip:" + address);
		JsonNode ban = ops("GET", "/actuator/ratelimits/ip/" + address, null).json().get("ban");
		assertThat(ban.propertyNames()).containsExactly("subject", "until", "secondsLeft", "offence");
		assertThat(ban.get("subject").asString()).isEqualTo("ip:" + address);
		assertThat(ban.get("until").asString()).isEqualTo(bans.get(0).get("until").asString());
		assertThat(ban.get("secondsLeft").asLong()).isBetween(3590L, 3600L);
		assertThat(ban.get("offence").asInt()).isEqualTo(1);
		// lifted through the endpoint: refused by its limit again at once, not banned
		Reply lifted = ops("DELETE", "/actuator/ratelimits/bans?subject=ip:" + address, null);
		assertThat(lifted.json().get("lifted").asBoolean()).as("%s", lifted).isTrue();
		assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(429);
		for (int i = 0; i < 2; i++) {
			get("/api/hello", "X-Forwarded-For", address);
		}
		Reply again = awaitStatus(403, address);
		assertThat(Long.parseLong(again.header("Retry-After").orElseThrow())).isBetween(7190L, 7200L);
	}

	@Test
	void aResetThroughTheEndpointEndsARefusalAtOnce() {
		String address = nextAddress();
		for (int i = 0; i < 5; i++) {
			assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(200);
		}
		// on Redis, the second refusal is this instance's own, without a store trip
		assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(429);
		Reply refused = get("/api/hello", "X-Forwarded-For", address);
		assertThat(refused.status()).isEqualTo(429);
		assertThat(refused.remaining()).isZero();
		assertThat(Long.parseLong(refused.header("Retry-After").orElseThrow())).isBetween(1L, 720L);
		Reply reset = ops("POST", "/actuator/ratelimits/reset", "{\"dimension\":\"ip\",\"id\":\"" + address + "\"}");
		assertThat(reset.status()).as("%s", reset).isEqualTo(200);
		assertThat(get("/api/hello", "X-Forwarded-For", address).remaining()).isEqualTo(4);
	}

	@Test
	void anOverrideSetThroughTheEndpointChangesTheLimitAndKeepsTheTokensSpent() {
		String address = nextAddress();
		for (int i = 0; i < 3; i++) {
			get("/api/hello", "X-Forwarded-For", address);
		}
		Reply set = ops("POST", "/actuator/ratelimits/overrides",
				"{\"dimension\":\"ip\",\"id\":\"" + address + "\",\"limit\":\"40/1h\",\"expires\":\"1h\"}");
		assertThat(set.status()).as("%s", set).isEqualTo(200);
		Reply raised = get("/api/hello", "X-Forwarded-For", address);
		assertThat(raised.rateLimit().get()).isEqualTo("override-ip-default");
		assertThat(raised.header("X-RateLimit-Limit")).contains("40");
		// 2 of the 5 were left: the override keeps them, it does not hand out a fresh
		// bucket of 40
		assertThat(raised.remaining()).isEqualTo(1);
		JsonNode identity = ops("GET", "/actuator/ratelimits/ip/" + address, null).json();
		assertThat(identity.get("overrides").get("default").asString()).isEqualTo("40/1h");
		assertThat(identity.get("buckets").toString()).contains("\"policy\":\"override-ip-default\"")
			.contains("\"remaining\":1");
		Reply reset = ops("POST", "/actuator/ratelimits/reset", "{\"dimension\":\"ip\",\"id\":\"" + address + "\"}");
		assertThat(reset.status()).as("%s", reset).isEqualTo(200);
		assertThat(get("/api/hello", "X-Forwarded-For", address).remaining()).isEqualTo(39);
		Reply deleted = ops("DELETE", "/actuator/ratelimits/overrides?dimension=ip&id=" + address, null);
		assertThat(deleted.json().get("deleted").asBoolean()).isTrue();
		assertThat(get("/api/hello", "X-Forwarded-For", address).rateLimit().get()).isEqualTo("anonymous-ip-default");
	}

	@Test
	void aBadOverrideIsA400WithTheReasonOfTheStartupCheck() {
		Reply refused = ops("POST", "/actuator/ratelimits/overrides",
				"{\"dimension\":\"org\",\"id\":\"acme\",\"limit\":\"lots/1m\"}");
		assertThat(refused.status()).isEqualTo(400);
		JsonNode body = refused.json();
		assertThat(body.get("property").asString()).isEqualTo("limit");
		assertThat(body.get("error").asString()).startsWith("Invalid value 'lots/1m' for 'limit': ")
			.contains(body.get("reason").asString())
			.endsWith("(for example: " + body.get("example").asString() + ")");
		assertThat(ops("POST", "/actuator/ratelimits/overrides",
				"{\"dimension\":\"planet\",\"id\":\"acme\",\"limit\":\"1/1m\"}")
			.status()).isEqualTo(400);
		assertThat(ops("GET", "/actuator/ratelimits/org/acme", null).json().get("overrides").size()).isZero();
	}

	@Test
	void everyBadValueAtEveryInputPointIsA400ThatNamesTheFieldAndChangesNothing() {
		String address = nextAddress();
		Reply set = ops("POST", "/actuator/ratelimits/overrides",
				"{\"dimension\":\"ip\",\"id\":\"" + address + "\",\"limit\":\"40/1h\",\"expires\":\"1h\"}");
		assertThat(set.status()).as("%s", set).isEqualTo(200);
		String expiresAt = set.json().get("expiresAt").asString();
		String rulesBefore = ops("GET", "/actuator/ratelimits/rules", null).json().get("rules").toString();
		String override = "{\"dimension\":\"ip\",\"id\":\"" + address + "\",\"limit\":\"1/1h\"";
		String[][] cases = {
				// method, path, body, field, what the message says
				{ "POST", "/actuator/ratelimits/overrides", override + ",\"expires\":\"+1000000000-12-31T23:59:59Z\"}",
						"expires", "at most 3650 days ahead" },
				{ "POST", "/actuator/ratelimits/overrides", override + ",\"expires\":\"99999999999d\"}", "expires",
						"at most 3650 days ahead" },
				{ "POST", "/actuator/ratelimits/overrides", override + ",\"expires\":\"9999999999999999999d\"}",
						"expires", "a duration from now (30m, 1h, 7d, PT1H) or an ISO-8601 instant" },
				{ "POST", "/actuator/ratelimits/overrides", override + ",\"expires\":\"2020-01-01T00:00:00Z\"}",
						"expires", "must lie in the future" },
				{ "POST", "/actuator/ratelimits/overrides", override + ",\"expires\":\"-1h\"}", "expires",
						"must be positive" },
				{ "POST", "/actuator/ratelimits/overrides", override + ",\"expires\":\"soon\"}", "expires",
						"a duration from now" },
				{ "POST", "/actuator/ratelimits/overrides", override + ",\"group\":\"nope\"}", "group",
						"unknown endpoint group" },
				{ "POST", "/actuator/ratelimits/overrides",
						"{\"dimension\":\"ip\",\"id\":\"" + address + "\",\"limit\":\"99999999999999999999/1m\"}",
						"limit", "" },
				{ "POST", "/actuator/ratelimits/overrides",
						"{\"dimension\":\"planet\",\"id\":\"acme\",\"limit\":\"1/1h\"}", "dimension",
						"unknown dimension" },
				{ "POST", "/actuator/ratelimits/overrides",
						"{\"dimension\":\"ip\",\"id\":\"not-an-address\",\"limit\":\"1/1h\"}", "id",
						"is not an IP address" },
				{ "POST", "/actuator/ratelimits/overrides",
						"{\"dimension\":\"ip\",\"id\":\"198.51.100.0/24\",\"limit\":\"1/1h\"}", "id",
						"is not a group clients are counted in" },
				{ "POST", "/actuator/ratelimits/overrides",
						"{\"dimension\":\"key\",\"id\":\"my-secret-key\",\"limit\":\"1/1h\"}", "id",
						"never the key itself" },
				{ "POST", "/actuator/ratelimits/overrides", "{\"dimension\":\"user\",\"limit\":\"1/1h\"}", "id",
						"a value is required" },
				{ "POST", "/actuator/ratelimits/overrides",
						"{\"dimension\":\"user\",\"id\":\"al\\u0007ice\",\"limit\":\"1/1h\"}", "id",
						"no control characters" },
				{ "POST", "/actuator/ratelimits/reset", "{\"dimension\":\"ip\",\"id\":\"not-an-address\"}", "id",
						"is not an IP address" },
				{ "POST", "/actuator/ratelimits/deny", "{\"subject\":\"not-an-address\"}", "subject",
						"is neither user:, org:, key: nor an address or CIDR range" },
				{ "POST", "/actuator/ratelimits/deny",
						"{\"subject\":\"" + address + "\",\"expires\":\"+1000000000-12-31T23:59:59Z\"}", "expires",
						"at most 3650 days ahead" },
				{ "POST", "/actuator/ratelimits/deny", "{\"subject\":\"" + address + "\",\"tier\":\"premium\"}", "tier",
						"a deny rule takes no tier" },
				{ "POST", "/actuator/ratelimits/allow", "{\"subject\":\"" + address + "\",\"tier\":\"gold\"}", "tier",
						"unknown tier" },
				{ "DELETE", "/actuator/ratelimits/overrides?dimension=ip&id=not-an-address", null, "id",
						"is not an IP address" },
				{ "DELETE", "/actuator/ratelimits/rules?subject=not-an-address", null, "subject",
						"is neither user:, org:, key: nor an address or CIDR range" },
				{ "DELETE", "/actuator/ratelimits/bans?subject=ip:not-an-address", null, "subject",
						"is not an IP address" },
				{ "DELETE", "/actuator/ratelimits/bans?subject=user:", null, "subject", "needs a name" },
				{ "GET", "/actuator/ratelimits/ip/not-an-address", null, "id", "is not an IP address" },
				{ "GET", "/actuator/ratelimits/planet/acme", null, "dimension", "unknown dimension" } };
		for (String[] bad : cases) {
			Reply refused = ops(bad[0], bad[1], bad[2]);
			assertThat(refused.status()).as("%s %s %s: %s", bad[0], bad[1], bad[2], refused).isEqualTo(400);
			JsonNode body = refused.json();
			assertThat(body.get("property").asString()).as("%s", refused).isEqualTo(bad[3]);
			assertThat(body.get("error").asString()).as("%s", refused)
				.startsWith("Invalid value '")
				.contains("for '" + bad[3] + "': ")
				.contains(bad[4])
				.endsWith("(for example: " + body.get("example").asString() + ")");
		}
		// the live override is as it was, and applies
		JsonNode overrides = ops("GET", "/actuator/ratelimits/ip/" + address, null).json().get("overrides");
		assertThat(overrides.toString()).isEqualTo("{\"default\":\"40/1h\"}");
		assertThat(ops("GET", "/actuator/ratelimits/overrides", null).json().get("overrides").toString())
			.contains("\"id\":\"" + address + "\",\"group\":\"default\",\"limit\":\"40/1h\",\"expiresAt\":\""
					+ expiresAt + "\"");
		assertThat(get("/api/hello", "X-Forwarded-For", address).rateLimit().get()).isEqualTo("override-ip-default");
		assertThat(ops("GET", "/actuator/ratelimits/rules", null).json().get("rules").toString())
			.isEqualTo(rulesBefore);
		// and later changes still apply
		String later = nextAddress();
		assertThat(
				ops("POST", "/actuator/ratelimits/deny", "{\"subject\":\"" + later + "\",\"expires\":\"1h\"}").status())
			.isEqualTo(200);
		assertThat(get("/api/hello", "X-Forwarded-For", later).status()).isEqualTo(403);
		assertThat(ops("DELETE", "/actuator/ratelimits/rules?subject=" + later, null).status()).isEqualTo(200);
	}

	@Test
	void anOverrideForAnIpv6AddressAppliesToItsWhole64AsTheLimiterCountsIt() {
		String net = "2001:db8:5:" + Integer.toHexString(addresses.incrementAndGet()) + ":";
		Reply set = ops("POST", "/actuator/ratelimits/overrides",
				"{\"dimension\":\"ip\",\"id\":\"" + net + ":1\",\"limit\":\"40/1h\",\"expires\":\"7d\"}");
		assertThat(set.status()).as("%s", set).isEqualTo(200);
		assertThat(set.json().get("id").asString()).isEqualTo(net + ":/64");
		Reply neighbour = get("/api/hello", "X-Forwarded-For", net + ":2");
		assertThat(neighbour.rateLimit().get()).as("%s", neighbour).isEqualTo("override-ip-default");
		assertThat(neighbour.header("X-RateLimit-Limit")).contains("40");
		JsonNode identity = ops("GET", "/actuator/ratelimits/ip/" + net + ":7", null).json();
		assertThat(identity.get("id").asString()).isEqualTo(net + ":/64");
		assertThat(identity.get("overrides").get("default").asString()).isEqualTo("40/1h");
		assertThat(ops("GET", "/actuator/ratelimits/overrides", null).json().get("overrides").toString())
			.contains("\"dimension\":\"ip\",\"id\":\"" + net + ":/64\"");
		Reply lift = ops("DELETE", "/actuator/ratelimits/bans?subject=ip:" + net + ":1", null);
		assertThat(lift.status()).as("%s", lift).isEqualTo(200);
		assertThat(lift.json().get("subject").asString()).isEqualTo("ip:" + net + ":/64");
		Reply deleted = ops("DELETE", "/actuator/ratelimits/overrides?dimension=ip&id=" + net + ":9", null);
		assertThat(deleted.json().get("deleted").asBoolean()).as("%s", deleted).isTrue();
		assertThat(get("/api/hello", "X-Forwarded-For", net + ":2").rateLimit().get())
			.isEqualTo("anonymous-ip-default");
	}

	@Test
	void aDenyRuleSetThroughTheEndpointAppliesAtOnceAndGoesWhenDeleted() {
		String address = nextAddress();
		assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(200);
		Reply set = ops("POST", "/actuator/ratelimits/deny", "{\"subject\":\"" + address + "\",\"expires\":\"1h\"}");
		assertThat(set.status()).as("%s", set).isEqualTo(200);
		assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(403);
		JsonNode rules = ops("GET", "/actuator/ratelimits/rules", null).json().get("rules");
		assertThat(rules.toString()).contains("198.51.250.0/24")
			.contains("\"source\":\"configuration\"")
			.contains(address)
			.contains("\"source\":\"runtime\"");
		assertThat(
				ops("DELETE", "/actuator/ratelimits/rules?subject=" + address, null).json().get("deleted").asBoolean())
			.isTrue();
		assertThat(get("/api/hello", "X-Forwarded-For", address).status()).isEqualTo(200);
	}

	@Test
	void theEndpointShowsThePolicyTable() {
		JsonNode body = ops("GET", "/actuator/ratelimits", null).json();
		assertThat(body.get("policies").get("anonymous").get("default").toString())
			.contains("\"name\":\"anonymous-ip-default\"")
			.contains("\"limit\":\"5/1h\"");
		assertThat(body.get("refreshInterval").asString()).isEqualTo("PT1S");
	}

	@Test
	void decisionsAreCountedInTheApplicationsMeterRegistryWithoutIds() {
		MeterRegistry registry = app().context().getBean(MeterRegistry.class);
		double rejectedBefore = count(registry, "rejected");
		double allowedBefore = count(registry, "allowed");
		String address = nextAddress();
		for (int i = 0; i < 6; i++) {
			get("/api/hello", "X-Forwarded-For", address);
		}
		assertThat(count(registry, "allowed") - allowedBefore).isEqualTo(5);
		assertThat(count(registry, "rejected") - rejectedBefore).isEqualTo(1);
		assertThat(registry.get("ratelimit.decision.latency").timer().count()).isPositive();
		registry.getMeters()
			.stream()
			.filter((meter) -> meter.getId().getName().startsWith("ratelimit."))
			.flatMap((meter) -> meter.getId().getTags().stream())
			.forEach((tag) -> assertThat(tag.getValue()).doesNotContain("198.51."));
		if (this.storage != Storage.MEMORY) {
			assertThat(registry.get("ratelimit.store.circuit").gauge().value()).as("closed").isZero();
		}
	}

	@Test
	void theEndpointListsTheMostRefusedCallers() {
		String address = nextAddress();
		for (int i = 0; i < 7; i++) {
			get("/api/hello", "X-Forwarded-For", address);
		}
		JsonNode top = ops("GET", "/actuator/ratelimits/top", null).json().get("top");
		assertThat(top.get("period").asString()).isEqualTo("PT5M");
		assertThat(top.get("current").get("callers").toString()).contains("\"caller\":\"ip:" + address + "\"");
	}

	@Test
	void theStoreIsUpInHealthWhileItDecides() {
		Reply health = ops("GET", "/actuator/health", null);
		assertThat(health.status()).as("%s", health).isEqualTo(200);
		assertThat(health.json().get("components").get("rateLimit").get("status").asString()).isEqualTo("UP");
	}

	@Test
	void everyEndpointAnswerKeepsItsFieldsValuesAndStatus() {
		String user = "shape-" + addresses.incrementAndGet();
		String[][] calls = {
				// method, path, body, status, answer (' for ", ` for ', instants as
				// <instant>)
				{ "POST", "/actuator/ratelimits/overrides",
						"{'dimension':'user','id':'" + user + "','limit':'10/1h','expires':'1h'}", "200",
						"{'dimension':'user','id':'" + user
								+ "','group':'default','limit':'10/1h','expiresAt':'<instant>'}" },
				{ "POST", "/actuator/ratelimits/overrides",
						"{'dimension':'user','id':'" + user + "','group':'reports','limit':'3/1h'}", "200",
						"{'dimension':'user','id':'" + user + "','group':'reports','limit':'3/1h','expiresAt':null}" },
				{ "GET", "/actuator/ratelimits/user/" + user, null, "200", "{'dimension':'user','id':'" + user
						+ "','overrides':{'reports':'3/1h','default':'10/1h'},'ban':null,'buckets':["
						+ "{'policy':'override-user-reports','limit':'3/1h','quota':3,'remaining':3,'resetSeconds':0},"
						+ "{'policy':'override-user-default','limit':'10/1h','quota':10,'remaining':10,'resetSeconds':0}]}" },
				{ "POST", "/actuator/ratelimits/reset", "{'dimension':'user','id':'" + user + "'}", "200",
						"{'reset':2,'dimension':'user','id':'" + user + "'}" },
				{ "POST", "/actuator/ratelimits/allow",
						"{'subject':'user:" + user + "','tier':'premium','expires':'1h'}", "200",
						"{'access':'allow','subject':'user:" + user
								+ "','tier':'premium','expiresAt':'<instant>','source':'runtime'}" },
				{ "POST", "/actuator/ratelimits/allow", "{'subject':'user:" + user + "-as as premium'}", "200",
						"{'access':'allow','subject':'user:" + user
								+ "-as','tier':'premium','expiresAt':null,'source':'runtime'}" },
				{ "POST", "/actuator/ratelimits/deny", "{'subject':'user:" + user + "-deny'}", "200",
						"{'access':'deny','subject':'user:" + user
								+ "-deny','tier':null,'expiresAt':null,'source':'runtime'}" },
				{ "DELETE", "/actuator/ratelimits/overrides?dimension=user&id=" + user + "&group=reports", null, "200",
						"{'deleted':true,'dimension':'user','id':'" + user + "','group':'reports'}" },
				{ "DELETE", "/actuator/ratelimits/rules?subject=user:" + user, null, "200",
						"{'deleted':true,'subject':'user:" + user + "'}" },
				{ "DELETE", "/actuator/ratelimits/rules?subject=user:" + user + "-deny", null, "200",
						"{'deleted':true,'subject':'user:" + user + "-deny'}" },
				{ "DELETE", "/actuator/ratelimits/bans?subject=user:" + user, null, "200",
						"{'lifted':false,'subject':'user:" + user + "'}" },
				{ "DELETE", "/actuator/ratelimits/bans?subject=198.51.100.7", null, "200",
						"{'lifted':false,'subject':'ip:198.51.100.7'}" },
				{ "GET", "/actuator/ratelimits/key/t-0123456789abcdef0123456789abcdef", null, "200",
						"{'dimension':'token','id':'t-0123456789abcdef0123456789abcdef','overrides':{},'ban':null,"
								+ "'buckets':[]}" },
				{ "GET", "/actuator/ratelimits/org/" + user, null, "200", "{'dimension':'org','id':'" + user
						+ "','overrides':{},'ban':null,'buckets':[{'policy':'premium-org-reports','limit':'2/1h',"
						+ "'quota':2,'remaining':2,'resetSeconds':0}]}" },
				{ "GET", "/actuator/ratelimits/nope", null, "404", "{'error':'Unknown section `nope`'}" },
				{ "POST", "/actuator/ratelimits/nope", "{}", "404", "{'error':'Unknown section `nope`'}" },
				{ "DELETE", "/actuator/ratelimits/nope", null, "404", "{'error':'Unknown section `nope`'}" },
				{ "POST", "/actuator/ratelimits/overrides", "{'dimension':'user','id':'" + user + "'}", "400",
						"{'error':'Invalid value `` for `limit`: a value is required (for example: 50/1m, 500/1h)',"
								+ "'property':'limit','reason':'a value is required','example':'50/1m, 500/1h'}" } };
		for (String[] call : calls) {
			Reply reply = ops(call[0], call[1], (call[2] != null) ? call[2].replace('\'', '"') : null);
			assertThat(reply.status()).as("%s %s: %s", call[0], call[1], reply).isEqualTo(Integer.parseInt(call[3]));
			assertThat(reply.header("Content-Type").orElseThrow()).startsWith("application/vnd.spring-boot.actuator");
			String answer = reply.body().replaceAll("\"\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\"", "\"<instant>\"");
			assertThat(json.readTree(answer)).as("%s %s: %s", call[0], call[1], reply)
				.isEqualTo(json.readTree(call[4].replace('\'', '"').replace('`', '\'')));
		}
		JsonNode all = ops("GET", "/actuator/ratelimits", null).json();
		assertThat(all.propertyNames()).containsExactly("policies", "overrides", "rules", "bans", "top",
				"refreshInterval");
		assertThat(all.get("top").propertyNames()).containsExactlyInAnyOrder("period", "current", "last");
		assertThat(all.get("top").get("current").propertyNames()).containsExactlyInAnyOrder("refusals", "callers");
		for (String section : List.of("policies", "overrides", "rules", "bans", "top")) {
			JsonNode one = ops("GET", "/actuator/ratelimits/" + section, null).json();
			assertThat(one.propertyNames()).as(section).containsExactly(section);
		}
	}

	private static double count(MeterRegistry registry, String outcome) {
		var counter = registry.find("ratelimit.decisions")
			.tags("outcome", outcome, "scope", "ip", "tier", "anonymous", "group", "default", "mode", "enforce")
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	// a refusal's ban is recorded after its response on Redis: the next requests may
	// still be refused
	private Reply awaitStatus(int status, String address) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			Reply reply = get("/api/hello", "X-Forwarded-For", address);
			if (reply.status() == status || System.nanoTime() > deadline) {
				assertThat(reply.status()).as("%s", reply).isEqualTo(status);
				return reply;
			}
			LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
		}
	}

	private Reply fromUntrustedPeer(String spoofed) {
		return Http.raw("127.0.0.2", app().port(), "GET /api/hello HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: "
				+ spoofed + "\r\nConnection: close\r\n\r\n");
	}

	private Reply ops(String method, String path, @Nullable String json) {
		return Http.sendJson(app().port(), method, path, json);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

	private Reply get(String path, String... headers) {
		return Http.send(app().port(), "GET", path, headers);
	}

	/**
	 * Client addresses from 198.51.240.0/24 on: apart from the other suites' and from the
	 * lists.
	 */
	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.51." + (240 + (n >> 8)) + "." + (n & 255);
	}

}
