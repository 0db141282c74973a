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
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ApiKey;
import io.github.ratelimit.identity.ApiKeyIdentityResolver;
import io.github.ratelimit.identity.CallerIdentifier;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;

/**
 * One in-memory decision of a premium caller identified by API key: three dimensions (org, user, the
 * per-IP backstop), with identity resolution included. Target: well under 1 µs median.
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.AverageTime, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class InMemoryDecisionBenchmark {

	private final RateLimiter limiter = new RateLimiter(
			new CallerIdentifier(
					List.of(new ApiKeyIdentityResolver(List.of(ApiKey.ofKey("bench-key", "alice", "acme", "premium")))),
					new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES, 32, 64), Set.of("premium", "anonymous"),
					"anonymous", "premium"),
			PolicyTable.build(
					Map.of("premium",
							Map.of("user", Map.of("default", "1000000000/1s"), "org", Map.of("default", "1000000000/1s"))),
					Map.of("default", "1000000000/1s"), Set.of(), "rl:"),
			new InMemoryRateLimitStore(1_000_000, TimeMeter.SYSTEM_NANOTIME), FailureMode.OPEN, null,
			Clock.systemUTC());

	private final Classification classification = Classification.of("default", 1);

	private final ClientRequest request = new BenchRequest();

	@Benchmark
	public Decision decideThreeDimensions() {
		return this.limiter.decide(this.request, this.classification);
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
