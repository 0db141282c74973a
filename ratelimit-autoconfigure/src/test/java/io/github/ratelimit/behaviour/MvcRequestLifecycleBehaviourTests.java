package io.github.ratelimit.behaviour;

import java.io.IOException;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The request lifecycle on Tomcat, and what only the servlet stack has: requests that go
 * asynchronous hold their permits after the container thread has left, until they
 * complete or time out.
 */
class MvcRequestLifecycleBehaviourTests extends RequestLifecycleBehaviourTests {

	MvcRequestLifecycleBehaviourTests() {
		super(Stack.MVC);
	}

	@Test
	void asyncRequestHoldsItsPermitUntilItCompletes() {
		LifecycleServer server = server();
		CompletableFuture<Reply> reply = CompletableFuture.supplyAsync(() -> get("/capped/async"));
		await().until(() -> server.gate().holding() == 1);
		assertThat(server.ledger().held()).isOne();
		server.gate().open();
		assertThat(reply.join().status()).isEqualTo(200);
		awaitPermitsBack();
		assertAllPermitsFree();
	}

	@Test
	void asyncRequestGivesItsPermitBackWhenItTimesOut() {
		assertThat(get("/capped/async-timeout").status()).isEqualTo(500);
		awaitPermitsBack();
		assertThat(server().ledger().taken()).isOne();
		assertAllPermitsFree();
	}

	@Test
	void permitComesBackWhenTheClientOfABlockedHandlerWentAway() throws IOException {
		LifecycleServer server = server();
		try (Socket client = send("/capped/hold")) {
			await().until(() -> server.gate().holding() == 1);
		}
		// the container learns that the client went away only when the handler writes
		server.gate().open();
		awaitPermitsBack();
		assertAllPermitsFree();
	}

}
