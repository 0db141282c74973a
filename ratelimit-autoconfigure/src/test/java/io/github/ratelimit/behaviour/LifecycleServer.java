package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.bucket4j.TimeMeter;
import io.lettuce.core.RedisClient;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletRegistration;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServer;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.server.adapter.WebHttpHandlerBuilder;
import org.springframework.web.util.pattern.PathPatternParser;

import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;
import io.github.ratelimit.test.redis.RedisTestServer;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.PermitLedger;
import io.github.ratelimit.web.reactive.ReactiveRateLimitFilter;
import io.github.ratelimit.web.servlet.RateLimitFilter;

import static org.awaitility.Awaitility.await;

/**
 * A bare server on a free port, Tomcat or Netty, with the rate-limit filter in front of a
 * small app and buckets in memory or in the tests' Redis; the app's callers are
 * anonymous, known by address ({@code 127.0.0.1}).
 * <ul>
 * <li>{@code /capped/**}: group {@code capped}, {@value #PERMITS} requests in flight at
 * once, no rate limit. {@code ok} answers at once, {@code fail} throws, {@code hold}
 * waits for the {@link LifecycleGate}, {@code stream} streams a body for 10 s; on Tomcat,
 * {@code async} completes asynchronously once the gate opens and {@code async-timeout}
 * never does.</li>
 * <li>{@code /wait/ok}: group {@code wait}, {@code 1/1s} with a {@code max-wait} of
 * {@link #MAX_WAIT}.</li>
 * </ul>
 * The store's permits are counted by a {@link PermitLedger}.
 */
final class LifecycleServer implements AutoCloseable {

	static final int PERMITS = 2;

	static final Duration MAX_WAIT = Duration.ofMillis(2100);

	private final @Nullable RedisRateLimitStore<?> redisStore;

	private final PermitLedger ledger;

	private final LifecycleGate gate = new LifecycleGate();

	private final RateLimiter limiter;

	private final WebServer server;

	private LifecycleServer(Stack stack, int maxWaiting, boolean redis) {
		String prefix = "rl:";
		if (redis) {
			// the default strategy and timeout, as a user who kept the defaults has them
			RedisScriptRateLimitStore store = new RedisScriptRateLimitStore(
					RedisConnector.of(RedisClient.create(RedisTestServer.url())), RedisRateLimitStore.DEFAULT_TIMEOUT,
					new CircuitBreaker(), RedisScriptRateLimitStore.DEFAULT_LEASE_TIME);
			store.start();
			await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
			this.redisStore = store;
			prefix = RedisTestServer.uniqueKeyPrefix("lifecycle");
		}
		else {
			this.redisStore = null;
		}
		this.ledger = new PermitLedger((this.redisStore != null) ? this.redisStore
				: new InMemoryRateLimitStore(10_000, TimeMeter.SYSTEM_NANOTIME));
		this.limiter = limiter(this.ledger, maxWaiting, prefix);
		EndpointClassifier classifier = new EndpointClassifier(List.of(),
				List.of(rule("/capped/**", "capped"), rule("/wait/**", "wait")), List::of);
		// as the auto-configuration does at startup: not lazily, under a lock, on the
		// first requests' event loops
		classifier.prepare();
		RateLimitHeaders headers = RateLimitHeaders.of(HeaderStyle.IETF);
		if (stack == Stack.WEBFLUX) {
			BlockingCallDetector.install();
			ReactiveRateLimitFilter filter = new ReactiveRateLimitFilter(this.limiter, classifier, headers,
					new ProblemDetailsBodyWriter(), DecisionListener.NONE, 0);
			// codecs made here: made lazily, on the first request, they would load their
			// defaults on an event loop
			this.server = new NettyReactiveWebServerFactory(0)
				.getWebServer(WebHttpHandlerBuilder.webHandler(new LifecycleWebHandler(this.gate))
					.filter(filter)
					.codecConfigurer(ServerCodecConfigurer.create())
					.build());
		}
		else {
			RateLimitFilter filter = new RateLimitFilter(this.limiter, classifier, headers,
					new ProblemDetailsBodyWriter(), DecisionListener.NONE);
			LifecycleServlet servlet = new LifecycleServlet(this.gate);
			this.server = new TomcatServletWebServerFactory(0).getWebServer((context) -> {
				FilterRegistration.Dynamic filterRegistration = context.addFilter("rateLimitFilter", filter);
				filterRegistration.setAsyncSupported(true);
				filterRegistration.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
				ServletRegistration.Dynamic servletRegistration = context.addServlet("app", servlet);
				servletRegistration.setAsyncSupported(true);
				servletRegistration.addMapping("/*");
			});
		}
		this.server.start();
	}

	/**
	 * Starts a server.
	 * @param stack the web stack
	 * @param maxWaiting the most requests that may wait for tokens at once
	 * @return the running server
	 */
	static LifecycleServer start(Stack stack, int maxWaiting) {
		return new LifecycleServer(stack, maxWaiting, false);
	}

	/**
	 * Starts a server.
	 * @param stack the web stack
	 * @param maxWaiting the most requests that may wait for tokens at once
	 * @param redis whether the buckets are in the tests' Redis (script strategy, default
	 * timeout) rather than in memory
	 * @return the running server
	 */
	static LifecycleServer start(Stack stack, int maxWaiting, boolean redis) {
		return new LifecycleServer(stack, maxWaiting, redis);
	}

	private static RateLimiter limiter(PermitLedger store, int maxWaiting, String prefix) {
		Tuning inherit = new Tuning(null, null);
		PolicyOptions options = new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("capped",
				new GroupOptions(inherit, PERMITS, Duration.ZERO), "wait", new GroupOptions(inherit, 0, MAX_WAIT)));
		PolicyTable policies = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("wait", "1/1s"))), Map.of(),
				Set.of("capped", "wait"), options);
		Identifier identifier = new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), policies.tiers(),
				"anonymous", "anonymous");
		return RateLimiter.builder(identifier, store)
			.policies(policies)
			.maxWaiting(maxWaiting)
			.storeKeys(new StoreKeys(prefix))
			.build();
	}

	private static EndpointRule rule(String pattern, String group) {
		return new EndpointRule(PathPatternParser.defaultInstance.parse(pattern), Set.of(), group, 1, false);
	}

	int port() {
		return this.server.getPort();
	}

	PermitLedger ledger() {
		return this.ledger;
	}

	RateLimiter limiter() {
		return this.limiter;
	}

	LifecycleGate gate() {
		return this.gate;
	}

	@Override
	public void close() {
		this.gate.open();
		this.server.stop();
		if (this.redisStore != null) {
			this.redisStore.close();
		}
	}

}
