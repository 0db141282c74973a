package io.github.ratelimit.bench;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.github.bucket4j.TimeMeter;
import org.jspecify.annotations.Nullable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ApiKey;
import io.github.ratelimit.identity.ApiKeyIdentityResolver;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;

/**
 * One in-memory decision of a premium caller identified by API key, with identity
 * resolution included: three dimensions (org, user, the per-IP backstop) and, for
 * comparison, one (user only, no backstop). Target (DESIGN.md section 12): well under 1
 * µs median for three dimensions. The {@code store*} benchmarks call the store alone with
 * the same checks, without identity resolution or policy lookup. Average time and sample
 * time (p50, p90, p99... of single calls).
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.AverageTime, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InMemoryDecisionBenchmark {

	private final RateLimiter limiter = RateLimiter
		.builder(new Identifier(
				List.of(new ApiKeyIdentityResolver(List.of(ApiKey.ofKey("bench-key", "alice", "acme", "premium")))),
				new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES, 32, 64), Set.of("premium", "anonymous"),
				"anonymous", "premium"), new InMemoryRateLimitStore(1_000_000, TimeMeter.SYSTEM_NANOTIME))
		.policies(
				PolicyTable.build(
						Map.of("premium",
								Map.of("user", Map.of("default", "1000000000/1s"), "org",
										Map.of("default", "1000000000/1s"))),
						Map.of("default", "1000000000/1s"), Set.of()))
		.failureMode(FailureMode.OPEN, null)
		.clock(Clock.systemUTC())
		.build();

	/** The same caller with a user limit only and no backstop: one bucket. */
	private final RateLimiter oneDimensionLimiter = RateLimiter
		.builder(new Identifier(
				List.of(new ApiKeyIdentityResolver(List.of(ApiKey.ofKey("bench-key", "alice", "acme", "premium")))),
				new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES, 32, 64), Set.of("premium", "anonymous"),
				"anonymous", "premium"), new InMemoryRateLimitStore(1_000_000, TimeMeter.SYSTEM_NANOTIME))
		.policies(PolicyTable.build(Map.of("premium", Map.of("user", Map.of("default", "1000000000/1s"))), Map.of(),
				Set.of()))
		.failureMode(FailureMode.OPEN, null)
		.clock(Clock.systemUTC())
		.build();

	private final Classification classification = Classification.of("default", 1);

	private final ClientRequest request = new BenchRequest();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(1_000_000, TimeMeter.SYSTEM_NANOTIME);

	private final List<LimitCheck> oneCheck;

	private final List<LimitCheck> threeChecks;

	public InMemoryDecisionBenchmark() {
		Limit limit = LimitParser.parse("1000000000/1s");
		StoreKeys keys = new StoreKeys(StoreKeys.DEFAULT_PREFIX);
		Policy user = new Policy("premium", Dimension.USER, "default", limit);
		Policy org = new Policy("premium", Dimension.ORG, "default", limit);
		Policy ip = new Policy(PolicyScope.BACKSTOP, Dimension.IP, "default", limit);
		LimitCheck userCheck = LimitCheck.enforced(user, keys.key(user, "alice"), 1);
		this.oneCheck = List.of(userCheck);
		this.threeChecks = List.of(LimitCheck.enforced(org, keys.key(org, "acme"), 1), userCheck,
				LimitCheck.enforced(ip, keys.key(ip, "203.0.113.7"), 1));
	}

	@Setup(Level.Trial)
	public void checkAdmitted() {
		expect(this.limiter.decide(this.request, this.classification), 3);
		expect(this.oneDimensionLimiter.decide(this.request, this.classification), 1);
		if (!this.store.decide(this.threeChecks).admitted() || !this.store.decide(this.oneCheck).admitted()) {
			throw new IllegalStateException("the store refused a benchmark decision");
		}
	}

	/** Each variant admits, and checks as many buckets as its name says. */
	private static void expect(Decision decision, int buckets) {
		if (decision.outcome() != Outcome.ALLOWED || decision.limits().states().size() != buckets) {
			throw new IllegalStateException("expected " + buckets + " bucket(s) checked and the request allowed, got "
					+ decision.outcome() + " with " + decision.limits().states());
		}
	}

	@Benchmark
	public Decision decideThreeDimensions() {
		return this.limiter.decide(this.request, this.classification);
	}

	@Benchmark
	public Decision decideOneDimension() {
		return this.oneDimensionLimiter.decide(this.request, this.classification);
	}

	@Benchmark
	public StoreDecision storeThreeChecks() {
		return this.store.decide(this.threeChecks);
	}

	@Benchmark
	public StoreDecision storeOneCheck() {
		return this.store.decide(this.oneCheck);
	}

	@Benchmark
	public String hashApiKey() {
		return io.github.ratelimit.identity.CredentialHashes.sha256Hex("bench-key");
	}

	private static final class BenchRequest implements ClientRequest {

		@Override
		public String method() {
			return "GET";
		}

		@Override
		public String path() {
			return "/v1/things";
		}

		@Override
		public String remoteAddress() {
			return "203.0.113.7";
		}

		@Override
		public @Nullable String header(String name) {
			return "X-API-Key".equalsIgnoreCase(name) ? "bench-key" : null;
		}

		@Override
		public List<String> headers(String name) {
			String value = header(name);
			return (value != null) ? List.of(value) : List.of();
		}

		@Override
		public @Nullable Object principal() {
			return null;
		}

	}

}
