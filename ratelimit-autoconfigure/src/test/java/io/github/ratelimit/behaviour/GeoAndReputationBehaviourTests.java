package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.ratelimit.reputation.RefreshResult;
import io.github.ratelimit.reputation.ReputationList;
import io.github.ratelimit.reputation.ReputationLists;
import io.github.ratelimit.test.MmdbWriter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Country rules and reputation lists at the gate over real HTTP, the same on each web
 * stack: a country database written by the tests ({@link MmdbWriter}) puts
 * 198.51.240.0/24 in CN (denied) and 198.51.241.0/24 in DE; a deny list file holds
 * 198.51.242.0/24. A refused client reaches neither Spring Security's password check nor
 * the controller. The list is refreshed by triggering the scheduled task's work by hand.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class GeoAndReputationBehaviourTests {

	private final Stack stack;

	private final Storage storage;

	private @Nullable BehaviourApp app;

	private @Nullable Path dir;

	private @Nullable Path list;

	GeoAndReputationBehaviourTests(Stack stack, Storage storage) {
		this.stack = stack;
		this.storage = storage;
	}

	@BeforeAll
	void startApp() throws IOException {
		this.dir = Files.createTempDirectory("ratelimit-geo");
		Path database = new MmdbWriter().country("198.51.240.0/24", "CN")
			.country("198.51.241.0/24", "DE")
			.writeTo(this.dir.resolve("countries.mmdb"));
		this.list = Files.writeString(this.dir.resolve("drop.txt"), "; test DROP list\n198.51.242.0/24 ; SBL1\n");
		Map<String, String> properties = new LinkedHashMap<>(this.storage.properties(getClass().getSimpleName()));
		properties.put("ratelimit.geo.database", "file:" + database);
		properties.put("ratelimit.geo.deny[0]", "CN");
		properties.put("ratelimit.reputation.lists.drop.source", "file:" + this.list);
		properties.put("ratelimit.reputation.lists.drop.refresh-interval", "1h");
		properties.put("ratelimit.groups.secure.paths[0]", "/secure/**");
		properties.put("ratelimit.tiers.premium.user.secure", "1000/1h");
		properties.put("ratelimit.tiers.anonymous.ip.secure", "1000/1h");
		Class<?> guard = (this.stack == Stack.MVC) ? MvcPasswordGuard.class : WebFluxPasswordGuard.class;
		this.app = BehaviourApp.start(this.stack, properties, guard, CountedSecureApi.class).awaitStoreConnected();
	}

	@AfterAll
	void stopApp() throws IOException {
		if (this.app != null) {
			this.app.close();
		}
		if (this.dir != null) {
			try (var files = Files.list(this.dir)) {
				for (Path file : files.toList()) {
					Files.delete(file);
				}
			}
			Files.delete(this.dir);
		}
	}

	@Test
	void aClientFromADeniedCountryGets403GeoBlockedBeforeAuthentication() {
		int checks = checks();
		int calls = calls();
		double refusals = gateRefusals("geo");
		for (String password : List.of("wrong", BehaviourUsers.PAULA.password())) {
			Reply reply = secure("198.51.240.7", password);
			assertThat(reply.status()).as("%s", reply).isEqualTo(403);
			assertThat(reply.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
			assertThat(reply.json().get("code").asString()).isEqualTo("geo_blocked");
			assertThat(reply.header("X-Request-Id")).isPresent();
		}
		assertThat(checks()).as("passwords checked").isEqualTo(checks);
		assertThat(calls()).as("controller calls").isEqualTo(calls);
		assertThat(gateRefusals("geo") - refusals).isEqualTo(2);
	}

	@Test
	void aClientFromAnotherCountryOrNoneIsAuthenticatedAndServed() {
		int calls = calls();
		for (String address : List.of("198.51.241.7", "198.51.250.7")) {
			Reply reply = secure(address, BehaviourUsers.PAULA.password());
			assertThat(reply.status()).as("%s", reply).isEqualTo(200);
			assertThat(reply.body()).isEqualTo("counted");
		}
		assertThat(calls()).isEqualTo(calls + 2);
		assertThat(secure("198.51.241.8", "wrong").status()).isEqualTo(401);
	}

	@Test
	void aListedAddressGets403ReputationDeniedBeforeAuthentication() {
		int checks = checks();
		int calls = calls();
		Reply reply = secure("198.51.242.9", BehaviourUsers.PAULA.password());
		assertThat(reply.status()).as("%s", reply).isEqualTo(403);
		assertThat(reply.json().get("code").asString()).isEqualTo("reputation_denied");
		assertThat(checks()).isEqualTo(checks);
		assertThat(calls()).isEqualTo(calls);
	}

	@Test
	void aRefreshedListDeniesANewAddressAndACorruptRefreshKeepsIt() {
		String newcomer = "198.51.243.5";
		assertThat(secure(newcomer, BehaviourUsers.PAULA.password()).status()).isEqualTo(200);
		writeList("198.51.242.0/24\n" + newcomer + "\n");
		assertThat(drop().refresh()).isEqualTo(RefreshResult.LOADED);
		Reply denied = secure(newcomer, BehaviourUsers.PAULA.password());
		assertThat(denied.status()).as("%s", denied).isEqualTo(403);
		assertThat(denied.json().get("code").asString()).isEqualTo("reputation_denied");
		// a feed answering an error page: refused, the last good list stays
		writeList("<html>\n<body>502 Bad Gateway</body>\n</html>\n");
		assertThat(drop().refresh()).isEqualTo(RefreshResult.REJECTED);
		assertThat(secure(newcomer, BehaviourUsers.PAULA.password()).status()).isEqualTo(403);
		assertThat(secure("198.51.242.1", BehaviourUsers.PAULA.password()).status()).isEqualTo(403);
		writeList("198.51.242.0/24\n");
		assertThat(drop().refresh()).isEqualTo(RefreshResult.LOADED);
		assertThat(secure(newcomer, BehaviourUsers.PAULA.password()).status()).isEqualTo(200);
	}

	@Test
	void healthProbesAreNeverRefused() {
		assertThat(get("/actuator/health", "198.51.240.7").status()).isEqualTo(200);
		assertThat(get("/actuator/health", "198.51.242.7").status()).isEqualTo(200);
	}

	private ReputationList drop() {
		return app().context().getBean(ReputationLists.class).lists().get(0);
	}

	private void writeList(String text) {
		try {
			Files.writeString(this.list, text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private int checks() {
		return app().context().getBean(CountingPasswordEncoder.class).checks();
	}

	private int calls() {
		return app().context().getBean(CountedSecureApi.class).calls();
	}

	private double gateRefusals(String reason) {
		MeterRegistry registry = app().context().getBean(MeterRegistry.class);
		return registry.find("ratelimit.gate.refusals")
			.tag("reason", reason)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private Reply secure(String address, String password) {
		String credentials = BehaviourUsers.PAULA.username() + ":" + password;
		return Http.send(app().port(), "GET", "/secure/counted", "X-Forwarded-For", address, "Authorization",
				"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
	}

	private Reply get(String path, String address) {
		return Http.send(app().port(), "GET", path, "X-Forwarded-For", address);
	}

	private BehaviourApp app() {
		assertThat(this.app).isNotNull();
		return this.app;
	}

}
