package io.github.ratelimit.web.servlet;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.setup.MockMvcBuilders;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

class RateLimitFilterTests {

	private final PolicyTable policies = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "1/1h"))),
			Map.of(), Set.of());

	private final RateLimitFilter filter = new RateLimitFilter(
			RateLimiter
				.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.policies.tiers(),
						"anonymous", "anonymous"), new InMemoryRateLimitStore(100, new ManualTimeMeter()))
				.policies(this.policies)
				.build(),
			new EndpointClassifier(List.of(), List.of(), List::of), RateLimitHeaders.of(HeaderStyle.IETF),
			new ProblemDetailsBodyWriter(), DecisionListener.NONE);

	private final MockMvc mvc = MockMvcBuilders.standaloneSetup(new RequestIdController())
		.addFilters(this.filter)
		.build();

	@Test
	void requestIdIsInTheLoggingContextWhileTheRequestRunsAndGoneAfter() throws Exception {
		this.mvc.perform(get("/request-id").header("X-Request-Id", "abc-123"))
			.andExpect(status().isOk())
			.andExpect(header().string("X-Request-Id", "abc-123"))
			.andExpect(content().string("abc-123"));
		assertThat(MDC.get(RateLimitFilter.MDC_REQUEST_ID)).isNull();
	}

	@Test
	void refusalCarriesTheSameRequestIdInHeaderAndBody() throws Exception {
		this.mvc.perform(get("/request-id")).andExpect(status().isOk());
		String body = this.mvc.perform(get("/request-id").header("X-Request-Id", "r-2"))
			.andExpect(status().isTooManyRequests())
			.andExpect(header().string("X-Request-Id", "r-2"))
			.andReturn()
			.getResponse()
			.getContentAsString();
		assertThat(body).contains("\"request_id\":\"r-2\"");
	}

	@Test
	void requestsAreClassifiedByTheirPathWithinTheApplication() throws Exception {
		RateLimitFilter excludingHealth = new RateLimitFilter(
				RateLimiter
					.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.policies.tiers(),
							"anonymous", "anonymous"), new InMemoryRateLimitStore(100, new ManualTimeMeter()))
					.policies(this.policies)
					.build(),
				new EndpointClassifier(EndpointRules.exclusions(List.of("/health/**")), List.of(), List::of),
				RateLimitHeaders.of(HeaderStyle.IETF), new ProblemDetailsBodyWriter(), DecisionListener.NONE);
		assertThat(limitedOn(excludingHealth, "/app", "/app/health/live")).as("under a context path").isFalse();
		assertThat(limitedOn(excludingHealth, "", "/health/live")).as("without a context path").isFalse();
		assertThat(limitedOn(excludingHealth, "/health", "/health/things")).as("the context path is no part of it")
			.isTrue();
		// the same URI, read once already under another context path
		assertThat(limitedOn(excludingHealth, "", "/health/things")).as("the same URI without a context path")
			.isFalse();
	}

	private static boolean limitedOn(RateLimitFilter filter, String contextPath, String uri) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
		request.setContextPath(contextPath);
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request, response, new MockFilterChain());
		return response.getHeader(RateLimitHeaders.RATE_LIMIT) != null;
	}

	@RestController
	static class RequestIdController {

		@GetMapping("/request-id")
		String requestId() {
			return MDC.get(RateLimitFilter.MDC_REQUEST_ID);
		}

	}

}
