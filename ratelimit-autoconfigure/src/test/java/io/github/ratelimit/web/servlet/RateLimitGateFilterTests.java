package io.github.ratelimit.web.servlet;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.web.util.pattern.PathPatternParser;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.AddressGate;
import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRules;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RateLimitGateFilter} in a servlet container's terms: its open paths are paths
 * within the application, whatever the context path.
 */
class RateLimitGateFilterTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	@Test
	void openPathsAreMatchedWithinTheApplication() throws Exception {
		RateLimitGateFilter filter = deniedRangeWithOpenHealth();
		assertThat(statusOn(filter, "/app", "/app/health/live")).as("an open path under a context path").isEqualTo(200);
		assertThat(statusOn(filter, "/app", "/app/orders")).as("another path under that context path").isEqualTo(403);
		assertThat(statusOn(filter, "", "/health/live")).as("the open path without a context path").isEqualTo(200);
		// the same URI, read once already: the context path is no part of the path
		assertThat(statusOn(filter, "/health", "/health/live")).as("the context path /health").isEqualTo(403);
		assertThat(statusOn(filter, "", "/health/live")).as("and again without one").isEqualTo(200);
	}

	private RateLimitGateFilter deniedRangeWithOpenHealth() {
		Identifier identifier = new Identifier(List.of(), new ClientIpResolver(List.of("127.0.0.1/32"), 32, 64),
				Set.of(), "anonymous", "authenticated");
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "5/1m"))), Map.of(),
				Set.of());
		RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.clock), new PolicyRegistry(table),
				List.of(AccessRule.parse(AccessRule.Access.DENY, "203.0.113.0/24")),
				new BanRules(new BanRules.Settings(2, Duration.ofMinutes(1), Duration.ofHours(1), null, null), Map.of(),
						Map.of()),
				this.clock, Duration.ofSeconds(1));
		return new RateLimitGateFilter(new AddressGate(identifier, control, this.clock),
				new EndpointClassifier(EndpointRules.exclusions(List.of()), List.of(), List::of),
				List.of(PathPatternParser.defaultInstance.parse("/health/**")), RateLimitHeaders.of(HeaderStyle.IETF),
				new ProblemDetailsBodyWriter(), DecisionListener.NONE);
	}

	private static int statusOn(RateLimitGateFilter filter, String contextPath, String uri) throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("GET", uri);
		request.setContextPath(contextPath);
		request.setRemoteAddr("127.0.0.1");
		request.addHeader("X-Forwarded-For", "203.0.113.7");
		MockHttpServletResponse response = new MockHttpServletResponse();
		filter.doFilter(request, response, new MockFilterChain());
		return response.getStatus();
	}

}
