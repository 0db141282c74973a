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
		// recorded, not thrown: the call goes on, and the test that made it fails
		// unless it acknowledges it
		assertThat(reply.status()).isEqualTo(200);
		// caught where it ran: after a Redis decision the chain goes on on the event
		// loop of the connection (webflux-http-epoll-1...); when the decision was made
		// by the time the filter looked, on the thread the chain was on, which for some
		// requests of this app is Reactor's parallel scheduler (Spring's session store
		// publishes the WebSession that Spring Security asks for there)
		assertThat(acknowledgeBlockingCalls()).singleElement()
			.asString()
			.matches("(?s)java\\.lang\\.Thread\\.sleep on (\\w+-http-\\w+|parallel)-\\d+.*");
	}

}
