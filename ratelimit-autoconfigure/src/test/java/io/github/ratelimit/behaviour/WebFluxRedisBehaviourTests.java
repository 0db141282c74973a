package io.github.ratelimit.behaviour;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The behavioural suite on WebFlux (Netty), with buckets in Redis; and the proof that
 * BlockHound watches it.
 */
class WebFluxRedisBehaviourTests extends RateLimitBehaviourTests {

	WebFluxRedisBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

	@Test
	void blockHoundCatchesAHandlerThatBlocks() {
		Reply reply = newClient().get("/api/blocking");
		// recorded, not thrown: the call goes on, and the test that made it fails unless
		// it
		// acknowledges it
		assertThat(reply.status()).isEqualTo(200);
		// after a Redis decision the chain continues on the event loop of the
		// connection, as it would without the limiter, where blocking is caught
		assertThat(acknowledgeBlockingCalls()).singleElement()
			.asString()
			// an event loop of Reactor Netty: webflux-http-epoll-1, reactor-http-nio-2...
			.matches("(?s)java\\.lang\\.Thread\\.sleep on \\w+-http-\\w+-\\d+.*");
	}

}
