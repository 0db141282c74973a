package io.github.ratelimit.bench;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.github.bucket4j.TimeMeter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;

import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.servlet.RateLimitFilter;

/**
 * The whole servlet filter path of an admitted request in memory: request id, MDC,
 * classification, identity from {@code X-Forwarded-For} behind a trusted proxy, the
 * decision, the default headers (ietf and x-ratelimit), and a chain that does nothing.
 * {@code oneKey}: every request from one address; {@code manyKeys}: 1000 addresses in
 * turn. Requests and the response are Spring's mocks, prepared once and reused (the
 * response reset each time); {@code mocksOnly} is what the mocks alone allocate for the
 * same headers, to subtract. Run with {@code -prof gc} for bytes per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class FilterPathBenchmark {

	private static final int ADDRESSES = 1000;

	private static final FilterChain NO_OP = FilterPathBenchmark::noOp;

	private RateLimitFilter filter;

	private final MockHttpServletRequest[] requests = new MockHttpServletRequest[ADDRESSES];

	private final MockHttpServletResponse response = new MockHttpServletResponse();

	private int next;

	@Setup
	public void setUp() throws Exception {
		PolicyTable policies = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "1000000000/1s"))),
				Map.of(), Set.of());
		RateLimiter limiter = RateLimiter
			.builder(
					new Identifier(List.of(), new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES, 32, 64),
							policies.tiers(), "anonymous", "anonymous"),
					new InMemoryRateLimitStore(100_000, TimeMeter.SYSTEM_NANOTIME))
			.policies(policies)
			.build();
		this.filter = new RateLimitFilter(limiter, new EndpointClassifier(List.of(), List.of(), List::of),
				RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT), new ProblemDetailsBodyWriter(),
				DecisionListener.NONE);
		for (int i = 0; i < ADDRESSES; i++) {
			MockHttpServletRequest request = new MockHttpServletRequest("GET", "/api/things");
			request.setRemoteAddr("127.0.0.1");
			request.addHeader("X-Forwarded-For", "203.0." + (i / 250) + "." + (i % 250 + 1));
			this.requests[i] = request;
		}
		this.response.reset();
		this.filter.doFilter(this.requests[0], this.response, NO_OP);
		if (this.response.getStatus() != 200 || this.response.getHeader("RateLimit") == null) {
			throw new IllegalStateException("expected an admitted request with headers, got "
					+ this.response.getStatus() + " " + this.response.getHeaderNames());
		}
	}

	@Benchmark
	public int oneKey() throws Exception {
		this.response.reset();
		this.filter.doFilter(this.requests[0], this.response, NO_OP);
		return this.response.getStatus();
	}

	@Benchmark
	public int manyKeys() throws Exception {
		MockHttpServletRequest request = this.requests[this.next];
		this.next = (this.next + 1 == ADDRESSES) ? 0 : this.next + 1;
		this.response.reset();
		this.filter.doFilter(request, this.response, NO_OP);
		return this.response.getStatus();
	}

	/**
	 * The harness alone, for scale: what the mocks cost for the same response headers and
	 * request attribute, with no limiter.
	 */
	@Benchmark
	public int mocksOnly() {
		MockHttpServletRequest request = this.requests[0];
		this.response.reset();
		request.getHeader("Origin");
		request.getHeader("X-Request-Id");
		request.getHeaders("X-Forwarded-For").nextElement();
		request.setAttribute("mocksOnly.FILTERED", Boolean.TRUE);
		this.response.setHeader("X-Request-Id", "0123456789abcdef");
		this.response.setHeader("RateLimit-Policy", "\"anonymous-ip\";q=1000000000;w=1");
		this.response.setHeader("RateLimit", "\"anonymous-ip\";r=999999999;t=1");
		this.response.setHeader("X-RateLimit-Limit", "1000000000");
		this.response.setHeader("X-RateLimit-Remaining", "999999999");
		this.response.setHeader("X-RateLimit-Reset", "1");
		request.removeAttribute("mocksOnly.FILTERED");
		return this.response.getStatus();
	}

	private static void noOp(ServletRequest request, ServletResponse response) throws IOException, ServletException {
	}

}
