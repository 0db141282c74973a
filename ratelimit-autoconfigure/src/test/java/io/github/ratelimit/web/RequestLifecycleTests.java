package io.github.ratelimit.web;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.load.InFlightRequests;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

class RequestLifecycleTests {

	private final PermitLedger ledger = new PermitLedger(new InMemoryRateLimitStore(100, new ManualTimeMeter()))
		.grantingPermits();

	private final RateLimiter limiter = LifecycleLimiters.generous(this.ledger);

	private final RequestLifecycle lifecycle = new RequestLifecycle();

	private Decision decide() {
		return this.limiter.decide(TestRequest.from("203.0.113.7"), Classification.of("default", 1));
	}

	@Test
	void endGivesThePermitsBackOnceHoweverOftenItIsCalled() {
		this.lifecycle.decided(decide());
		assertThat(this.ledger.held()).isOne();
		this.lifecycle.end();
		this.lifecycle.end();
		assertThat(this.ledger.held()).isZero();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void decisionThatArrivesAfterTheEndIsGivenBackAtOnce() {
		this.lifecycle.end();
		this.lifecycle.decided(decide());
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.held()).isZero();
	}

	@Test
	void sameDecisionToldTwiceIsHeldOnce() {
		Decision decision = decide();
		this.lifecycle.decided(decision);
		this.lifecycle.decided(decision);
		assertThat(this.ledger.held()).isOne();
		this.lifecycle.end();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void waitOverFreesTheWaitingSlotAndKeepsThePermits() {
		this.ledger.answeringWait(100);
		this.lifecycle.decided(decide());
		assertThat(this.limiter.waiting()).isOne();
		this.lifecycle.waitOver();
		assertThat(this.limiter.waiting()).isZero();
		assertThat(this.ledger.held()).isOne();
		this.lifecycle.end();
		assertThat(this.ledger.held()).isZero();
	}

	@Test
	void endDuringTheWaitFreesTheWaitingSlotToo() {
		this.ledger.answeringWait(100);
		this.lifecycle.decided(decide());
		this.lifecycle.end();
		assertThat(this.limiter.waiting()).isZero();
		assertThat(this.ledger.held()).isZero();
	}

	@Test
	void committedGivesBackTheTokensOfAStatusTheLimitDoesNotCountAndKeepsThePermits() {
		RequestLifecycle counting = decidedCountingFailures();
		counting.committed(200);
		assertThat(this.ledger.givenBack()).isOne();
		assertThat(this.ledger.held()).as("permits held until the end").isOne();
		counting.end(200);
		assertThat(this.ledger.givenBack()).as("settled once").isOne();
		assertThat(this.ledger.held()).isZero();
	}

	@Test
	void committedWithACountedStatusKeepsTheTokensEvenWhenTheEndSaysOtherwise() {
		RequestLifecycle counting = decidedCountingFailures();
		counting.committed(401);
		counting.committed(200);
		counting.end(200);
		assertThat(this.ledger.givenBack()).isZero();
		assertThat(this.ledger.held()).isZero();
	}

	@Test
	void endBeforeTheCommitSettlesAndTheCommitChangesNothing() {
		RequestLifecycle counting = decidedCountingFailures();
		counting.end(200);
		counting.committed(401);
		counting.committed(200);
		assertThat(this.ledger.givenBack()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void committedBeforeTheDecisionLeavesTheSettlingToTheEnd() {
		RequestLifecycle counting = new RequestLifecycle();
		counting.committed(200);
		counting.decided(LifecycleLimiters.countingFailures(this.ledger)
			.decide(TestRequest.from("203.0.113.7"), Classification.of("default", 1)));
		assertThat(counting.countsByOutcome()).isTrue();
		counting.end(200);
		assertThat(this.ledger.givenBack()).isOne();
	}

	@Test
	void endBeforeAnyDecisionHoldsNothing() {
		this.lifecycle.waitOver();
		this.lifecycle.end();
		assertThat(this.ledger.taken()).isZero();
	}

	private RequestLifecycle decidedCountingFailures() {
		RequestLifecycle counting = new RequestLifecycle();
		counting.decided(LifecycleLimiters.countingFailures(this.ledger)
			.decide(TestRequest.from("203.0.113.7"), Classification.of("default", 1)));
		assertThat(counting.countsByOutcome()).isTrue();
		assertThat(this.ledger.held()).isOne();
		return counting;
	}

	@Test
	void aCountedLifecycleLeavesTheRequestsInFlightOnceWhateverEndsIt() {
		InFlightRequests inFlight = new InFlightRequests();
		RequestLifecycle lifecycle = new RequestLifecycle(inFlight);
		assertThat(inFlight.count()).isOne();
		lifecycle.end();
		lifecycle.end(200);
		assertThat(inFlight.count()).isZero();
	}

}
