package io.github.ratelimit.web.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.connector.ClientAbortException;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockAsyncContext;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

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
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What an admitted request holds, and when the servlet filter gives it back: the store
 * here hands a counted permit to every admitted request, so each test sees exactly what
 * is held and how often it was given back.
 */
class RateLimitFilterLifecycleTests {

	private final PermitLedger ledger = new PermitLedger(new InMemoryRateLimitStore(100, new ManualTimeMeter()))
		.grantingPermits();

	private final RateLimiter limiter = LifecycleLimiters.generous(this.ledger);

	private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/hello");

	private final MockHttpServletResponse response = new MockHttpServletResponse();

	private RateLimitFilter filter(DecisionListener listener) {
		return new RateLimitFilter(this.limiter, new EndpointClassifier(List.of(), List.of(), List::of),
				RateLimitHeaders.of(HeaderStyle.IETF), new ProblemDetailsBodyWriter(), listener);
	}

	private void run(FilterChain chain) throws Exception {
		filter(DecisionListener.NONE).doFilter(this.request, this.response, chain);
	}

	@Test
	void permitIsHeldWhileTheHandlerRunsAndGivenBackOnceAfter() throws Exception {
		run((request, response) -> assertThat(this.ledger.held()).isOne());
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void requestCountsInFlightWhileTheHandlerRunsWhicheverWayItEnds() throws Exception {
		run((request, response) -> assertThat(this.limiter.inFlight().count()).isOne());
		assertThat(this.limiter.inFlight().count()).isZero();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> run((request, response) -> {
			throw new IllegalStateException("handler failed");
		}));
		assertThat(this.limiter.inFlight().count()).isZero();
	}

	@Test
	void permitIsGivenBackWhenTheHandlerThrows() {
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> run((request, response) -> {
			throw new IllegalStateException("handler failed");
		}));
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void permitIsGivenBackWhenTheClientWentAway() {
		// what Tomcat throws when the response cannot be written to a client that closed
		// its connection
		assertThatExceptionOfType(ClientAbortException.class).isThrownBy(() -> run((request, response) -> {
			response.getOutputStream().write('x');
			throw new ClientAbortException(new IOException("Broken pipe"));
		}));
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void asyncRequestHoldsItsPermitUntilItsAsyncProcessingCompletes() throws Exception {
		this.request.setAsyncSupported(true);
		run((request, response) -> request.startAsync());
		assertThat(this.ledger.held()).as("held after the container thread left").isOne();
		asyncContext().complete();
		assertThat(this.ledger.held()).isZero();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void asyncRequestGivesItsPermitBackWhenItTimesOutAndOnlyOnce() throws Exception {
		this.request.setAsyncSupported(true);
		run((request, response) -> request.startAsync());
		MockAsyncContext context = asyncContext();
		for (AsyncListener listener : context.getListeners()) {
			listener.onTimeout(new AsyncEvent(context));
		}
		assertThat(this.ledger.held()).isZero();
		context.complete();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void asyncRequestGivesItsPermitBackWhenItFails() throws Exception {
		this.request.setAsyncSupported(true);
		run((request, response) -> request.startAsync());
		MockAsyncContext context = asyncContext();
		for (AsyncListener listener : context.getListeners()) {
			listener.onError(new AsyncEvent(context, new ClientAbortException("Connection reset")));
		}
		assertThat(this.ledger.held()).isZero();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void asyncRequestThatFailsBeforeItsContainerThreadLeavesGivesItsPermitBack() {
		this.request.setAsyncSupported(true);
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> run((request, response) -> {
			request.startAsync();
			throw new IllegalStateException("handler failed after starting async");
		}));
		assertThat(this.ledger.held()).isZero();
	}

	@Test
	void requestThatMustWaitRunsOnlyOnceItsWaitIsOverAndKeepsItsPermit() throws Exception {
		this.ledger.answeringWait(20);
		AtomicBoolean ran = new AtomicBoolean();
		run((request, response) -> {
			assertThat(this.limiter.waiting()).as("waiting requests while the handler runs").isZero();
			assertThat(this.ledger.held()).isOne();
			ran.set(true);
		});
		assertThat(ran).isTrue();
		assertThat(this.ledger.held()).isZero();
		assertThat(this.limiter.waiting()).isZero();
	}

	@Test
	void requestInterruptedWhileItWaitsDoesNotRunAndGivesEverythingBack() throws Exception {
		this.ledger.answeringWait(10_000);
		AtomicBoolean ran = new AtomicBoolean();
		Thread.currentThread().interrupt();
		try {
			run((request, response) -> ran.set(true));
		}
		finally {
			assertThat(Thread.interrupted()).as("interrupt flag kept").isTrue();
		}
		assertThat(ran).isFalse();
		assertThat(this.response.getStatus()).isEqualTo(503);
		assertThat(this.ledger.held()).isZero();
		assertThat(this.limiter.waiting()).isZero();
	}

	@Test
	void failureAfterTheDecisionGivesThePermitBackAndAdmitsTheRequest() throws Exception {
		DecisionListener failing = (decision, nanos) -> {
			throw new IllegalStateException("listener failed");
		};
		AtomicBoolean ran = new AtomicBoolean();
		filter(failing).doFilter(this.request, this.response, (request, response) -> {
			assertThat(this.ledger.held()).isZero();
			ran.set(true);
		});
		assertThat(ran).isTrue();
		assertThat(this.ledger.taken()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void tokensOfAnUncountedResponseGoBackWhenItCommitsWhileThePermitIsStillHeld() throws Exception {
		countingFailures().doFilter(this.request, this.response, (request, response) -> {
			response.getOutputStream().write("welcome".getBytes(StandardCharsets.UTF_8));
			assertThat(this.ledger.givenBack()).as("given back before the commit").isZero();
			response.flushBuffer();
			assertThat(this.ledger.givenBack()).as("given back at the commit").isOne();
			assertThat(this.ledger.held()).as("permit held until the request ends").isOne();
		});
		assertThat(this.ledger.givenBack()).isOne();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void tokensOfACountedResponseStayTakenFromItsCommitOn() throws Exception {
		countingFailures().doFilter(this.request, this.response, (request, response) -> {
			((HttpServletResponse) response).sendError(401);
			// a later status cannot change what was committed
			((HttpServletResponse) response).setStatus(200);
		});
		assertThat(this.ledger.givenBack()).isZero();
		assertThat(this.ledger.releases()).isOne();
	}

	@Test
	void requestWithoutLimitsCountingByOutcomeWritesTheResponseItself() throws Exception {
		run((request, response) -> assertThat(response).isSameAs(this.response));
	}

	private MockAsyncContext asyncContext() {
		return (MockAsyncContext) this.request.getAsyncContext();
	}

	private RateLimitFilter countingFailures() {
		return new RateLimitFilter(LifecycleLimiters.countingFailures(this.ledger),
				new EndpointClassifier(List.of(), List.of(), List::of), RateLimitHeaders.of(HeaderStyle.IETF),
				new ProblemDetailsBodyWriter(), DecisionListener.NONE);
	}

}
