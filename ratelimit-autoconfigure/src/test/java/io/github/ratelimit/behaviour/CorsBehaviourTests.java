package io.github.ratelimit.behaviour;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Browsers and CORS, the same for every usual way of configuring CORS on each stack
 * ({@link CorsStyle}): a refusal of a cross-origin request carries the CORS headers the
 * application sends, our headers are exposed to scripts, and preflights cost nothing.
 * Over HTTP, then in a real headless Chromium ({@link Browser}), where a page on one
 * origin calls the API on another with {@code fetch()}.
 * <p>
 * Each test has a budget of its own: HTTP tests speak through the trusted proxy 127.0.0.1
 * with client addresses of their own, browser tests (which come from 127.0.0.1) use
 * endpoint groups of their own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class CorsBehaviourTests {

	private static final String DENIED_RANGE = "198.51.232.0/24";

	private static final int BUDGET = 3;

	private static final AtomicInteger addresses = new AtomicInteger();

	private final CorsStyle style;

	private @Nullable BehaviourApp app;

	private @Nullable Browser browser;

	CorsBehaviourTests(CorsStyle style) {
		this.style = style;
	}

	@BeforeAll
	void startApp() {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties(getClass().getSimpleName()));
		properties.put("ratelimit.access.deny[0]", DENIED_RANGE);
		for (String area : List.of("api", "read", "write")) {
			properties.put("ratelimit.groups.cors-" + area + ".paths[0]", "/cors/" + area + "/**");
			properties.put("ratelimit.tiers.anonymous.ip.cors-" + area, BUDGET + "/1h");
		}
		this.app = BehaviourApp.start(this.style.stack(), properties, this.style.sources());
	}

	@AfterAll
	void stop() {
		try {
			if (this.browser != null) {
				this.browser.close();
			}
		}
		finally {
			if (this.app != null) {
				this.app.close();
			}
		}
	}

	@Test
	void aRefusalCarriesTheApplicationsCorsHeadersAndExposesOurs() {
		String address = nextAddress();
		for (int i = 0; i < BUDGET; i++) {
			Reply admitted = get(address, CorsConfigurations.ALLOWED_ORIGIN);
			assertThat(admitted.status()).as("%s", admitted).isEqualTo(200);
			assertThat(admitted.header("Access-Control-Allow-Origin")).contains(CorsConfigurations.ALLOWED_ORIGIN);
			assertThat(exposed(admitted)).as("%s", admitted)
				.contains("ratelimit", "ratelimit-policy", "retry-after", "x-request-id")
				.contains(CorsConfigurations.APP_EXPOSED_HEADER.toLowerCase());
		}
		Reply refused = get(address, CorsConfigurations.ALLOWED_ORIGIN);
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.header("Access-Control-Allow-Origin")).contains(CorsConfigurations.ALLOWED_ORIGIN);
		assertThat(exposed(refused)).as("%s", refused)
			.contains("ratelimit", "ratelimit-policy", "retry-after", "x-request-id")
			.contains(CorsConfigurations.APP_EXPOSED_HEADER.toLowerCase());
		assertThat(refused.header("Retry-After")).isPresent();
		assertThat(refused.json().get("code").asString()).isEqualTo("rate_limit_exceeded");
	}

	@Test
	void aRefusalOfAnOriginTheApplicationDoesNotAllowCarriesNoCorsHeaders() {
		String address = nextAddress();
		Reply last = null;
		for (int i = 0; i <= BUDGET; i++) {
			last = get(address, CorsConfigurations.OTHER_ORIGIN);
		}
		assertThat(last.headers().keySet()).as("%s", last).noneMatch((name) -> name.startsWith("access-control-"));
		if (this.style.rejectsOtherOriginsBeforeTheLimiter()) {
			// Spring Security's CORS filter answers before the limiter: nothing is
			// charged
			assertThat(last.status()).as("%s", last).isEqualTo(403);
			assertThat(last.body()).doesNotContain("rate_limit_exceeded");
		}
		else {
			assertThat(last.status()).as("%s", last).isEqualTo(429);
			assertThat(last.json().get("code").asString()).isEqualTo("rate_limit_exceeded");
		}
	}

	@Test
	void aRefusalBeforeAuthenticationOfAnOriginTheApplicationDoesNotAllowCarriesNoCorsHeaders() {
		String address = "198.51.232." + (addresses.incrementAndGet() % 250 + 1);
		Reply refused = get(address, CorsConfigurations.OTHER_ORIGIN);
		assertThat(refused.status()).as("%s", refused).isEqualTo(403);
		assertThat(refused.json().get("code").asString()).isEqualTo("access_denied");
		assertThat(refused.headers().keySet()).as("%s", refused)
			.noneMatch((name) -> name.startsWith("access-control-"));
	}

	@Test
	void preflightsAreNeitherChargedNorRefusedByLimits() {
		String address = nextAddress();
		for (int i = 0; i < BUDGET; i++) {
			Reply preflight = preflight(address, "/cors/api/items/" + i);
			assertThat(preflight.status()).as("%s", preflight).isEqualTo(200);
			assertThat(preflight.header("Access-Control-Allow-Origin")).contains(CorsConfigurations.ALLOWED_ORIGIN);
			Reply created = post(address, "/cors/api/items/" + i);
			assertThat(created.status()).as("%s", created).isEqualTo(200);
		}
		Reply preflight = preflight(address, "/cors/api/items/last");
		assertThat(preflight.status()).as("a spent budget does not refuse a preflight: %s", preflight).isEqualTo(200);
		Reply refused = post(address, "/cors/api/items/last");
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.header("Access-Control-Allow-Origin")).contains(CorsConfigurations.ALLOWED_ORIGIN);
	}

	@Test
	void aDeniedAddressIsRefusedBeforeAuthenticationWithCorsHeadersAndItsPreflightsToo() {
		String address = "198.51.232." + (addresses.incrementAndGet() % 250 + 1);
		Reply refused = get(address, CorsConfigurations.ALLOWED_ORIGIN);
		assertThat(refused.status()).as("%s", refused).isEqualTo(403);
		assertThat(refused.json().get("code").asString()).isEqualTo("access_denied");
		assertThat(refused.header("Access-Control-Allow-Origin")).contains(CorsConfigurations.ALLOWED_ORIGIN);
		assertThat(exposed(refused)).contains("x-request-id");
		assertThat(preflight(address, "/cors/api/items/1").status()).isEqualTo(403);
	}

	@Test
	void aPageOnAnotherOriginReadsOurHeadersAndTheRefusal() {
		Browser browser = browser();
		String url = "http://127.0.0.1:" + this.app.port() + "/cors/read/hello";
		for (int i = 0; i < BUDGET; i++) {
			Browser.Fetched admitted = browser.fetch(url, "GET", null);
			assertThat(admitted.status()).as("%s", admitted).isEqualTo(200);
			assertThat(admitted.rateLimit()).as("%s", admitted).contains("r=" + (BUDGET - 1 - i));
			assertThat(admitted.rateLimitPolicy()).as("%s", admitted).contains("q=" + BUDGET);
			assertThat(admitted.requestId()).as("%s", admitted).isNotBlank();
		}
		Browser.Fetched refused = browser.fetch(url, "GET", null);
		assertThat(refused.error()).as("%s", refused).isNull();
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.retryAfter()).as("%s", refused).isNotBlank();
		assertThat(refused.body()).as("%s", refused).contains("\"code\":\"rate_limit_exceeded\"");
	}

	@Test
	void preflightedFetchesAgainstABudgetOfNAreAllAdmitted() {
		Browser browser = browser();
		String base = "http://127.0.0.1:" + this.app.port() + "/cors/write/items/";
		// a new URL each time: the browser sends a preflight for every one
		for (int i = 0; i < BUDGET; i++) {
			Browser.Fetched created = browser.fetch(base + i, "POST", "{\"name\":\"item " + i + "\"}");
			assertThat(created.status()).as("fetch %s of %s: %s", i + 1, BUDGET, created).isEqualTo(200);
			assertThat(created.rateLimit()).as("%s", created).isNotNull();
		}
		Browser.Fetched refused = browser.fetch(base + "last", "POST", "{\"name\":\"one too many\"}");
		assertThat(refused.status()).as("%s", refused).isEqualTo(429);
		assertThat(refused.retryAfter()).as("%s", refused).isNotBlank();
	}

	private Browser browser() {
		Browser.assumeInstalled();
		if (this.browser == null) {
			this.browser = Browser.start();
		}
		return this.browser;
	}

	private Reply get(String address, String origin) {
		return Http.send(this.app.port(), "GET", "/cors/api/hello", "X-Forwarded-For", address, "Origin", origin);
	}

	private Reply post(String address, String path) {
		return Http.sendJson(this.app.port(), "POST", path, "{\"name\":\"item\"}", "X-Forwarded-For", address, "Origin",
				CorsConfigurations.ALLOWED_ORIGIN);
	}

	private Reply preflight(String address, String path) {
		return Http.send(this.app.port(), "OPTIONS", path, "X-Forwarded-For", address, "Origin",
				CorsConfigurations.ALLOWED_ORIGIN, "Access-Control-Request-Method", "POST",
				"Access-Control-Request-Headers", "content-type");
	}

	/** The names the response exposes, lower case, from every line of the header. */
	private static List<String> exposed(Reply reply) {
		List<String> names = new ArrayList<>();
		for (String value : reply.headers().getOrDefault("access-control-expose-headers", List.of())) {
			Arrays.stream(value.split(",")).map((name) -> name.trim().toLowerCase()).forEach(names::add);
		}
		return names;
	}

	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "203.0.119." + (n % 250 + 1);
	}

}
