package io.github.ratelimit.web.reactive;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.WebFilterChain;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.LifecycleLimiters;
import io.github.ratelimit.web.PermitLedger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an admitted request holds, and when the WebFlux filter gives it back: the store
 * here hands a counted permit to every admitted request, so each test sees exactly what
 * is held and how often it was given back. Waiting runs on a virtual clock.
 */
class ReactiveRateLimitFilterLifecycleTests {

	private final PermitLedger ledger = new PermitLedger(new InMemoryRateLimitStore(100, new ManualTimeMeter()))
		.grantingPermits();

	private final RateLimiter limiter = LifecycleLimiters.generous(this.ledger);

	private final VirtualTimeScheduler time = VirtualTimeScheduler.create();

	private final MockServerWebExchange exchange = MockServerWebExchange
		.from(MockServerHttpRequest.get("/api/hello").remoteAddress(new InetSocketAddress("203.0.113.7", 40000)));

	@AfterEach
	void disposeTime() {
		this.time.dispose();
	}

	private ReactiveRateLimitFilter filter(DecisionListener listener, Scheduler scheduler) {
		return new ReactiveRateLimitFilter(this.limiter, new EndpointClassifier(List.of(), List.of(), List::of),
				RateLimitHeaders.of(HeaderStyle.IETF), new ProblemDetailsBodyWriter(), listener, 0, scheduler);
	}

	private Mono<Void> filter(WebFilterChain chain) {
		return filter(DecisionListener.NONE, this.time).filter(this.exchange, chain);
	}

	@Test
	void permitIsHeldWhileTheChainRunsAndGivenBackOnceAfter() {
		StepVerifier.create(filter((exchange) -> Mono.fromRunnable(() -> assertThat(this.ledger.held()).isOne())))
			.verifyComplete();
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void requestCountsInFlightUntilItsResponseIsDoneOrCancelled() {
		StepVerifier
			.create(filter((exchange) -> Mono.fromRunnable(() -> assertThat(this.limiter.inFlight().count()).isOne())))
			.verifyComplete();
		assertThat(this.limiter.inFlight().count()).isZero();
		Disposable request = filter((exchange) -> Mono.never()).subscribe();
		assertThat(this.limiter.inFlight().count()).isOne();
		request.dispose();
		assertThat(this.limiter.inFlight().count()).isZero();
	}

	@Test
	void permitIsGivenBackWhenTheChainFails() {
		StepVerifier.create(filter((exchange) -> Mono.error(new IllegalStateException("handler failed"))))
			.verifyError(IllegalStateException.class);
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void permitIsGivenBackWhenTheChainThrowsInsteadOfFailing() {
		StepVerifier.create(filter((exchange) -> {
			throw new IllegalStateException("handler threw");
		})).verifyError(IllegalStateException.class);
		assertThat(this.ledger.held()).isZero();
	}

	@Test
	void permitIsGivenBackWhenTheExchangeIsCancelled() {
		Disposable request = filter((exchange) -> Mono.never()).subscribe();
		assertThat(this.ledger.held()).isOne();
		request.dispose();
		assertThat(this.ledger.held()).isZero();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void requestThatMustWaitRunsOnlyOnceItsWaitIsOver() {
		this.ledger.answeringWait(1000);
		AtomicBoolean ran = new AtomicBoolean();
		AtomicBoolean done = new AtomicBoolean();
		filter((exchange) -> Mono.fromRunnable(() -> {
			assertThat(this.limiter.waiting()).as("waiting requests while the handler runs").isZero();
			assertThat(this.ledger.held()).isOne();
			ran.set(true);
		})).subscribe(null, null, () -> done.set(true));
		assertThat(this.limiter.waiting()).isOne();
		this.time.advanceTimeBy(Duration.ofMillis(999));
		assertThat(ran).isFalse();
		this.time.advanceTimeBy(Duration.ofMillis(1));
		assertThat(ran).isTrue();
		assertThat(done).isTrue();
		assertThat(this.ledger.held()).isZero();
		assertThat(this.limiter.waiting()).isZero();
	}

	@Test
	void cancellationDuringTheWaitFreesTheWaitingSlotAndThePermit() {
		this.ledger.answeringWait(1000);
		AtomicBoolean ran = new AtomicBoolean();
		Disposable request = filter((exchange) -> Mono.fromRunnable(() -> ran.set(true))).subscribe();
		assertThat(this.limiter.waiting()).isOne();
		assertThat(this.ledger.held()).isOne();
		request.dispose();
		assertThat(this.limiter.waiting()).isZero();
		assertThat(this.ledger.held()).isZero();
		this.time.advanceTimeBy(Duration.ofSeconds(2));
		assertThat(ran).isFalse();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void decisionThatArrivesAfterCancellationIsGivenBackAtOnce() {
		this.ledger.pauseDecisions();
		AtomicBoolean ran = new AtomicBoolean();
		Disposable request = filter(DecisionListener.NONE, Schedulers.immediate())
			.filter(this.exchange, (exchange) -> Mono.fromRunnable(() -> ran.set(true)))
			.subscribe();
		request.dispose();
		this.ledger.resumeDecisions();
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.held()).isZero();
		assertThat(ran).isFalse();
	}

	@Test
	void decisionThatArrivesLaterHoldsItsPermitUntilTheChainCompletes() {
		this.ledger.pauseDecisions();
		AtomicBoolean done = new AtomicBoolean();
		filter(DecisionListener.NONE, Schedulers.immediate())
			.filter(this.exchange, (exchange) -> Mono.fromRunnable(() -> assertThat(this.ledger.held()).isOne()))
			.subscribe(null, null, () -> done.set(true));
		assertThat(this.ledger.taken()).isZero();
		this.ledger.resumeDecisions();
		assertThat(done).isTrue();
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void tokensOfAnUncountedResponseGoBackWhenItCommitsWhileThePermitIsStillHeld() {
		StepVerifier.create(countingFailures().filter(this.exchange, (exchange) -> {
			ServerHttpResponse response = exchange.getResponse();
			return response.writeWith(Mono.fromSupplier(() -> {
				assertThat(this.ledger.givenBack()).as("given back before the commit").isZero();
				return response.bufferFactory().wrap("welcome".getBytes(StandardCharsets.UTF_8));
			})).then(Mono.fromRunnable(() -> {
				assertThat(this.ledger.givenBack()).as("given back at the commit").isOne();
				assertThat(this.ledger.held()).as("permit held until the chain completes").isOne();
			}));
		})).verifyComplete();
		assertThat(this.ledger.givenBack()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void tokensOfACountedResponseStayTakenFromItsCommitOn() {
		StepVerifier.create(countingFailures().filter(this.exchange, (exchange) -> {
			exchange.getResponse().setStatusCode(HttpStatus.UNAUTHORIZED);
			return exchange.getResponse().setComplete();
		})).verifyComplete();
		assertThat(this.ledger.givenBack()).isZero();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void failureAfterTheDecisionGivesThePermitBackAndAdmitsTheRequest() {
		DecisionListener failing = (decision, nanos) -> {
			throw new IllegalStateException("listener failed");
		};
		AtomicBoolean ran = new AtomicBoolean();
		StepVerifier.create(filter(failing, this.time).filter(this.exchange, (exchange) -> Mono.fromRunnable(() -> {
			assertThat(this.ledger.held()).isZero();
			ran.set(true);
		}))).verifyComplete();
		assertThat(ran).isTrue();
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	private ReactiveRateLimitFilter countingFailures() {
		return new ReactiveRateLimitFilter(LifecycleLimiters.countingFailures(this.ledger),
				new EndpointClassifier(List.of(), List.of(), List::of), RateLimitHeaders.of(HeaderStyle.IETF),
				new ProblemDetailsBodyWriter(), DecisionListener.NONE, 0, this.time);
	}

}
