package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.ratelimit.test.AutoConfigurationWithoutSecurity;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A keep-alive client that sends each request the moment the one before is answered is
 * never left waiting, in a plain app (no security) on Redis: decisions Redis answers on
 * one of its threads come in turn with refusals answered at once from memory.
 * <p>
 * On Reactor Netty before 1.3.8 this hung the connection now and then: the limiter wrote
 * the response of a Redis decision from Reactor's parallel scheduler, the next request
 * came in before the exchange had ended on the event loop and was held, and a held
 * request answered at once left the connection unread for good (<a href=
 * "https://github.com/reactor/reactor-netty/issues/4361">reactor-netty#4361</a>).
 */
class KeptAliveConnectionTests {

	private static final int ROUNDS = 500;

	@ParameterizedTest
	@EnumSource(Stack.class)
	void aKeptAliveConnectionIsNeverLeftWaiting(Stack stack) throws IOException {
		Map<String, String> properties = Storage.REDIS.properties(getClass().getSimpleName() + "-" + stack);
		properties.put("server.forward-headers-strategy", "none");
		properties.put("ratelimit.identity.trusted-proxies", "127.0.0.1/32");
		properties.put("ratelimit.tiers.anonymous.ip.default", "3/1h");
		properties.put("logging.level.io.github.ratelimit.rejections", "warn");
		try (BehaviourApp app = BehaviourApp.startOwn(PlainApplication.class, stack, properties)
			.awaitStoreConnected()) {
			String spent = RateLimitBehaviourTests.nextAddress();
			try (KeptConnection connection = KeptConnection.open(app.port(), Duration.ofSeconds(10))) {
				for (int i = 0; i < 3; i++) {
					assertThat(connection.get("/hello", "X-Forwarded-For", spent).status()).isEqualTo(200);
				}
				// refused by Redis once: from then on refused from memory, at once
				assertThat(connection.get("/hello", "X-Forwarded-For", spent).status()).isEqualTo(429);
				for (int round = 1; round <= ROUNDS; round++) {
					// a caller Redis decides, then the spent one: sent while the
					// server may still be ending the exchange before
					Reply decided = connection.get("/hello", "X-Forwarded-For", RateLimitBehaviourTests.nextAddress());
					Reply refused = connection.get("/hello", "X-Forwarded-For", spent);
					assertThat(decided.status()).as("round %d: %s", round, decided).isEqualTo(200);
					assertThat(refused.status()).as("round %d: %s", round, refused).isEqualTo(429);
				}
			}
			assertThat(app.failureModeDecisions()).isZero();
		}
	}

	/** A plain API, on either stack: no security, nothing between the limiter and it. */
	@SpringBootConfiguration(proxyBeanMethods = false)
	@AutoConfigurationWithoutSecurity
	@Import(PlainApplication.Api.class)
	static class PlainApplication {

		@RestController
		static class Api {

			@GetMapping("/hello")
			String hello() {
				return "hello";
			}

		}

	}

}
