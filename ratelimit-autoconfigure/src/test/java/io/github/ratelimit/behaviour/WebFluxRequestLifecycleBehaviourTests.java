package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.net.Socket;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The request lifecycle on Netty, under BlockHound, and what only WebFlux has: a client
 * that goes away cancels its exchange, which gives the permit back even while the handler
 * is not writing.
 */
class WebFluxRequestLifecycleBehaviourTests extends RequestLifecycleBehaviourTests {

	WebFluxRequestLifecycleBehaviourTests() {
		super(Stack.WEBFLUX);
	}

	@Test
	void permitComesBackWhenTheExchangeIsCancelledWhileTheHandlerWaits() throws IOException {
		LifecycleServer server = server();
		try (Socket client = send("/capped/hold")) {
			await().until(() -> server.gate().holding() == 1);
			assertThat(server.ledger().held()).isOne();
		}
		// the gate stays closed: only the cancellation can end the request
		awaitPermitsBack();
		await().until(() -> server.gate().holding() == 0);
		assertThat(server.ledger().taken()).isOne();
		assertAllPermitsFree();
	}

}
