package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import io.github.ratelimit.test.redis.FakeRedisServer;
import io.github.ratelimit.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * During a Redis outage (nothing listening, or a server that hangs) the application stays
 * in its load balancer: the rate-limit component of {@code /actuator/health} is DEGRADED
 * and says what requests get, the aggregate stays UP (200), and requests get the failure
 * mode, never a 500.
 */
@ExtendWith(OutputCaptureExtension.class)
class StoreOutageHealthTests {

	@Test
	void aRedisOutageDegradesTheRateLimitComponentButNotTheApplication(CapturedOutput output) {
		Map<String, String> properties = new LinkedHashMap<>();
		properties.put("ratelimit.storage.type", "redis");
		properties.put("spring.data.redis.url", "redis://127.0.0.1:" + RedisServerProcess.freePort());
		properties.put("management.endpoint.health.show-details", "always");
		try (BehaviourApp app = BehaviourApp.start(Stack.MVC, properties)) {
			Reply health = Http.send(app.port(), "GET", "/actuator/health");
			assertThat(health.status()).as("%s", health).isEqualTo(200);
			JsonNode body = health.json();
			assertThat(body.get("status").asString()).isEqualTo("UP");
			JsonNode component = body.get("components").get("rateLimit");
			assertThat(component.get("status").asString()).isEqualTo("DEGRADED");
			assertThat(component.get("details").get("connected").asBoolean()).isFalse();
			assertThat(component.get("details").get("failureMode").asString()).isEqualTo("local");
			// the default failure mode answers: limited by this instance's own buckets,
			// no 500
			Reply request = Http.send(app.port(), "GET", "/api/hello");
			assertThat(request.status()).isEqualTo(200);
			assertThat(request.header("RateLimit")).isPresent();
			MeterRegistry registry = app.context().getBean(MeterRegistry.class);
			assertThat(registry.get("ratelimit.store.errors").tags("kind", "not-connected").functionCounter().count())
				.isPositive();
			// loudly: a WARN that says why and what the failure mode did, and the health
			// details
			assertThat(output).contains("Rate-limit store failed (not-connected: Not connected to Redis")
				.contains("failure mode local: requests are limited by this instance's own buckets");
			JsonNode after = Http.send(app.port(), "GET", "/actuator/health").json().get("components").get("rateLimit");
			assertThat(after.get("details").get("lastFailure").get("kind").asString()).isEqualTo("not-connected");
			assertThat(after.get("details").get("failureModeDecisions").asLong()).isPositive();
		}
	}

	@Test
	void aRedisThatHangsGetsTheClosedFailureModeOverHttpNeverA500() {
		try (FakeRedisServer hanging = FakeRedisServer.start(FakeRedisServer.Behaviour.HANG)) {
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("ratelimit.storage.type", "redis");
			properties.put("ratelimit.storage.failure-mode", "closed");
			properties.put("spring.data.redis.url", hanging.url());
			properties.put("management.endpoint.health.show-details", "always");
			try (BehaviourApp app = BehaviourApp.start(Stack.WEBFLUX, properties)) {
				for (int i = 0; i < 20; i++) {
					Reply reply = Http.send(app.port(), "GET", "/api/hello");
					assertThat(reply.status()).as("%s", reply).isEqualTo(503);
					assertThat(reply.json().get("code").asString()).isEqualTo("rate_limiter_unavailable");
					assertThat(reply.header("Retry-After")).contains("1");
				}
				JsonNode component = Http.send(app.port(), "GET", "/actuator/health")
					.json()
					.get("components")
					.get("rateLimit");
				assertThat(component.get("status").asString()).isEqualTo("DEGRADED");
				assertThat(component.get("details").get("failureMode").asString()).isEqualTo("closed");
			}
		}
	}

}
