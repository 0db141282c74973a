package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A refused request whose body is still coming must not hold a worker: the refusal says
 * {@code Connection: close}, so the server drops the connection instead of reading the
 * rest of the body, and clients that trickle bodies they were refused for cannot starve
 * everyone else.
 */
abstract class SlowBodyRefusalTests {

	/** More slow clients than the servlet container has workers in this test. */
	private static final int SLOW_CLIENTS = 12;

	private final Stack stack;

	SlowBodyRefusalTests(Stack stack) {
		this.stack = stack;
	}

	@Test
	void aRefusedRequestWithAnUnreadBodyClosesItsConnectionWithoutReadingTheBody() throws Exception {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties("unread-body"));
		try (BehaviourApp app = BehaviourApp.start(this.stack, properties)) {
			String caller = "198.51.100.68";
			for (int i = 0; i < 5; i++) {
				Http.send(app.port(), "GET", "/api/hello", "X-Forwarded-For", caller);
			}
			try (Http.SlowClient client = Http.slowBody(app.port(),
					"POST /api/hello HTTP/1.1\r\nHost: localhost\r\n" + "X-Forwarded-For: " + caller
							+ "\r\nContent-Type: application/octet-stream\r\n" + "Content-Length: 100000\r\n\r\n")) {
				assertThat(client.reply().status()).isEqualTo(429);
				// a keep-alive client sends its next request on a new connection at once,
				// instead of waiting behind a body the server still reads
				assertThat(client.closedByServerWithin(Duration.ofSeconds(5)))
					.as("the refused request's connection closed while its body is unsent")
					.isTrue();
			}
			assertThat(Http.send(app.port(), "GET", "/api/hello", "X-Forwarded-For", "198.51.100.69").status())
				.isEqualTo(200);
		}
	}

	@Test
	void refusedSlowBodiesDoNotStarveOtherClients() throws Exception {
		Map<String, String> properties = new LinkedHashMap<>(Storage.MEMORY.properties("slow-body"));
		// few workers, so that a handful of slow clients would take them all (Tomcat;
		// Netty has no such pool)
		properties.put("server.tomcat.threads.max", "4");
		try (BehaviourApp app = BehaviourApp.start(this.stack, properties)) {
			String attacker = "198.51.100.66";
			for (int i = 0; i < 5; i++) {
				Http.send(app.port(), "GET", "/api/hello", "X-Forwarded-For", attacker);
			}
			List<Http.SlowClient> slow = new ArrayList<>();
			try {
				for (int i = 0; i < SLOW_CLIENTS; i++) {
					Http.SlowClient client = Http.slowBody(app.port(),
							"POST /api/hello HTTP/1.1\r\nHost: localhost\r\n" + "X-Forwarded-For: " + attacker
									+ "\r\nContent-Type: application/octet-stream\r\n"
									+ "Content-Length: 100000\r\n\r\n");
					slow.add(client);
					assertThat(client.reply().status()).isEqualTo(429);
					assertThat(client.reply().header("Connection")).hasValue("close");
				}
				// the slow clients keep their connections open and send nothing more
				Reply other = Http.send(app.port(), "GET", "/api/hello", "X-Forwarded-For", "198.51.100.67");
				assertThat(other.status()).as("a client after %d refused slow bodies", SLOW_CLIENTS).isEqualTo(200);
			}
			finally {
				for (Http.SlowClient client : slow) {
					client.close();
				}
			}
		}
	}

}
