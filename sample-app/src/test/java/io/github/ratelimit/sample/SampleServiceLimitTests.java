package io.github.ratelimit.sample;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The notifications service's budget shared by every caller (20 a minute here, 100 in the
 * sample's configuration): once the callers together have spent it, every caller is
 * refused as the service being busy, whatever its own budget.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "ratelimit.service.notifications=20/1m")
class SampleServiceLimitTests {

	@LocalServerPort
	int port;

	@Test
	void callersTogetherSpendTheServiceBudgetAndThenEveryCallerIsToldTheServiceIsBusy() {
		String url = "http://127.0.0.1:" + this.port + "/v1/notifications/send";
		// erin (enterprise, 500 a minute of her own) spends the service's 20
		for (int i = 0; i < 20; i++) {
			assertThat(Http.send("POST", url, "X-API-Key", "demo-enterprise-key").statusCode()).as("call %d", i)
				.isEqualTo(200);
		}
		HttpResponse<String> erin = Http.send("POST", url, "X-API-Key", "demo-enterprise-key");
		HttpResponse<String> paula = Http.send("POST", url, "X-API-Key", "demo-premium-key");
		for (HttpResponse<String> refused : new HttpResponse[] { erin, paula }) {
			assertThat(refused.statusCode()).isEqualTo(429);
			assertThat(refused.body()).contains("\"scope\":\"service\"")
				.contains("\"code\":\"service_limit_exceeded\"")
				.contains("The 'notifications' endpoints are busy");
		}
	}

}
