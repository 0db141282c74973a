package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.bucket4j.TimeMeter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status endpoint at its edges, over real HTTP on each web stack: off unless switched
 * on (the application answers the path), at its path within an application that has a
 * context path, and a store that cannot be read answered 503 with the limiter's problem
 * body, whatever the failure mode.
 */
class StatusEdgeBehaviourTests {

	@ParameterizedTest
	@EnumSource(Stack.class)
	void isOffByDefault(Stack stack) {
		try (BehaviourApp app = BehaviourApp.start(stack, Storage.MEMORY.properties("status-off"))) {
			Reply reply = Http.send(app.port(), "GET", "/ratelimit", "X-Forwarded-For", "198.18.250.1");
			assertThat(reply.status()).as("%s", reply).isEqualTo(404);
		}
	}

	@ParameterizedTest
	@EnumSource(Stack.class)
	void isAtItsPathWithinTheApplication(Stack stack) {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties("status-context"));
		properties.put("ratelimit.status.enabled", "true");
		properties.put((stack == Stack.MVC) ? "server.servlet.context-path" : "spring.webflux.base-path", "/app");
		try (BehaviourApp app = BehaviourApp.start(stack, properties)) {
			for (int i = 0; i < 3; i++) {
				// asked again, as a busy client does: the same answer every time
				Reply reply = Http.send(app.port(), "GET", "/app/ratelimit", "X-Forwarded-For", "198.18.250.3");
				assertThat(reply.status()).as("%s", reply).isEqualTo(200);
				assertThat(reply.header("Cache-Control")).hasValue("no-store");
				Reply outside = Http.send(app.port(), "GET", "/ratelimit", "X-Forwarded-For", "198.18.250.3");
				assertThat(outside.status()).as("%s", outside).isEqualTo(404);
				Reply hello = Http.send(app.port(), "GET", "/app/api/hello", "X-Forwarded-For", "198.18.250.3");
				assertThat(hello.status()).as("%s", hello).isEqualTo(200);
				assertThat(hello.header("RateLimit")).isPresent();
			}
		}
	}

	@ParameterizedTest
	@EnumSource(Stack.class)
	void aStoreThatCannotBeReadAnswers503(Stack stack) {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties("status-down"));
		properties.put("ratelimit.status.enabled", "true");
		properties.put("ratelimit.storage.failure-mode", "open");
		try (BehaviourApp app = BehaviourApp.start(stack, properties, UnreadableStore.class)) {
			// requests are decided as ever
			Reply hello = Http.send(app.port(), "GET", "/api/hello", "X-Forwarded-For", "198.18.250.2");
			assertThat(hello.status()).isEqualTo(200);
			Reply reply = Http.send(app.port(), "GET", "/ratelimit", "X-Forwarded-For", "198.18.250.2");
			assertThat(reply.status()).as("%s", reply).isEqualTo(503);
			assertThat(reply.header("Content-Type").orElseThrow()).startsWith("application/problem+json");
			assertThat(reply.json().get("code").asString()).isEqualTo("rate_limiter_unavailable");
			assertThat(reply.header("Retry-After")).hasValue("1");
			assertThat(reply.header("Cache-Control")).hasValue("no-store");
		}
	}

	/** A store that decides in memory and cannot read its buckets now. */
	@TestConfiguration(proxyBeanMethods = false)
	static class UnreadableStore {

		@Bean
		RateLimitStore unreadableRateLimitStore() {
			InMemoryRateLimitStore memory = new InMemoryRateLimitStore(1000, TimeMeter.SYSTEM_NANOTIME);
			return new RateLimitStore() {

				@Override
				public StoreDecision decide(List<LimitCheck> checks) {
					return memory.decide(checks);
				}

				@Override
				public boolean canInspect() {
					return true;
				}

				@Override
				public List<CheckResult> inspect(List<LimitCheck> checks) {
					throw new StoreUnavailableException("Cannot read buckets now (test)");
				}

			};
		}

	}

}
