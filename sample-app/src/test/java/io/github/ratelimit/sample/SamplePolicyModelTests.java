package io.github.ratelimit.sample;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.NumberItem;
import org.greenbytes.http.sfv.Parser;
import org.greenbytes.http.sfv.StringItem;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app's policy model over real HTTP, in memory: the premium plan's monthly org
 * quota, the export capped at 2 in flight per caller, and the search limit in observe
 * mode.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class SamplePolicyModelTests {

	@LocalServerPort
	int port;

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	@Test
	void premiumResponsesReportTheMonthlyOrgQuota() {
		HttpResponse<String> response = Http.send("GET", url("/v1/status"), "X-API-Key", "demo-premium-key");
		assertThat(response.statusCode()).isEqualTo(200);
		List<ListElement<?>> policies = Parser
			.parseList(response.headers().firstValue("RateLimit-Policy").orElseThrow())
			.get();
		ListElement<?> quota = policies.stream()
			.filter((policy) -> policy.get().equals("premium-org-all"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no monthly quota in " + policies));
		assertThat(((NumberItem<?>) quota.getParams().get("q")).getAsLong()).isEqualTo(100_000);
		assertThat(((NumberItem<?>) quota.getParams().get("w")).getAsLong()).isEqualTo(30 * 86_400);
	}

	@Test
	void thirdExportInFlightIsRefusedAndPermitsComeBackAfterwards() throws Exception {
		// two slow exports hold both permits of the caller; a third while they run is
		// refused
		List<CompletableFuture<HttpResponse<String>>> slow = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			slow.add(CompletableFuture.supplyAsync(
					() -> Http.send("GET", url("/v1/export?millis=3000"), "X-API-Key", "demo-enterprise-key")));
		}
		HttpResponse<String> refused = null;
		for (int attempt = 0; attempt < 50 && refused == null; attempt++) {
			Thread.sleep(50);
			HttpResponse<String> third = Http.send("GET", url("/v1/export?millis=0"), "X-API-Key",
					"demo-enterprise-key");
			if (third.statusCode() == 429) {
				refused = third;
			}
		}
		assertThat(refused).as("a third export while two run").isNotNull();
		assertThat(JsonMapper.builder().build().readTree(refused.body()).get("code").asString())
			.isEqualTo("concurrency_limit_exceeded");
		ListElement<?> cap = Parser.parseList(refused.headers().firstValue("RateLimit-Policy").orElseThrow())
			.get()
			.stream()
			.filter((policy) -> policy.get().equals("group-user-export"))
			.findFirst()
			.orElseThrow();
		assertThat(((StringItem) cap.getParams().get("qu")).get()).isEqualTo("concurrent-requests");
		for (CompletableFuture<HttpResponse<String>> export : slow) {
			assertThat(export.get().statusCode()).isEqualTo(200);
		}
		assertThat(Http.send("GET", url("/v1/export?millis=0"), "X-API-Key", "demo-enterprise-key").statusCode())
			.as("both permits are back")
			.isEqualTo(200);
	}

	@Test
	void observedSearchLimitNeverRefusesNorShows() {
		// anonymous search: 10 a minute, observed: the eleventh and later are only logged
		for (int i = 1; i <= 15; i++) {
			HttpResponse<String> response = Http.send("GET", url("/v1/search?q=x"));
			assertThat(response.statusCode()).as("search %d", i).isEqualTo(200);
			assertThat(response.headers().map().keySet()).noneMatch((name) -> name.toLowerCase().startsWith("ratelimit")
					|| name.toLowerCase().startsWith("x-ratelimit"));
		}
	}

}
