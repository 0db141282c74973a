package io.github.ratelimit.http;

import java.time.Clock;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.bucket4j.TimeMeter;
import org.greenbytes.http.sfv.IntegerItem;
import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.Parser;
import org.greenbytes.http.sfv.StringItem;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.ResolvedIdentity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The headers of decisions made by the real limiter and in-memory store, so that the
 * writer agrees with how {@link RateLimiter} fills a {@link Decision}.
 */
class RateLimitHeadersWithRateLimiterTests {

	private final RateLimiter limiter = limiter();

	private final RateLimitHeaders headers = RateLimitHeaders.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT);

	@Test
	void countsDownAndThenRejectsNamingTheOrg() {
		Map<String, String> first = write(decide());
		assertThat(first).containsEntry("X-RateLimit-Limit", "3").containsEntry("X-RateLimit-Remaining", "2");
		assertThat(first).doesNotContainKey("Retry-After");
		decide();
		decide();

		Decision rejected = decide();
		Map<String, String> last = write(rejected);

		assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
		List<ListElement<?>> rateLimit = Parser.parseList(last.get("RateLimit")).get();
		assertThat(((StringItem) rateLimit.get(0)).get()).isEqualTo("premium-org-export");
		assertThat(((IntegerItem) rateLimit.get(0).getParams().get("r")).getAsLong()).isZero();
		long retryAfter = Long.parseLong(last.get("Retry-After"));
		assertThat(retryAfter).isBetween(1L, 60L);
		assertThat(((IntegerItem) rateLimit.get(0).getParams().get("t")).getAsLong()).isEqualTo(retryAfter);
	}

	@Test
	void policyListsOrgUserAndBackstopAndStaysTheSame() {
		String first = write(decide()).get("RateLimit-Policy");
		String second = write(decide()).get("RateLimit-Policy");

		assertThat(Parser.parseList(first).get()).extracting((member) -> ((StringItem) member).get())
			.containsExactly("premium-org-export", "premium-user-export-1m", "premium-user-export-1h",
					"backstop-ip-default");
		assertThat(second).isEqualTo(first);
	}

	private Decision decide() {
		return this.limiter.decide(new Request(), Classification.of("export", 1));
	}

	private Map<String, String> write(Decision decision) {
		Map<String, String> written = new LinkedHashMap<>();
		this.headers.write(decision, written::put);
		return written;
	}

	private static RateLimiter limiter() {
		PolicyTable table = PolicyTable.build(
				Map.of("premium", Map.of("org", Map.of("export", "3/1m"), "user", Map.of("export", "10/1m, 100/1h"))),
				Map.of("default", "2000/1m"), Set.of("export"));
		IdentityResolver alice = (request) -> new ResolvedIdentity("alice", "acme", "premium", null);
		Identifier identifier = new Identifier(List.of(alice), new ClientIpResolver(List.of(), 32, 64), table.tiers(),
				"anonymous", "premium");
		TimeMeter frozen = new TimeMeter() {

			@Override
			public long currentTimeNanos() {
				return 1_000_000_000_000L;
			}

			@Override
			public boolean isWallClockBased() {
				return false;
			}

		};
		return RateLimiter.builder(identifier, new InMemoryRateLimitStore(1000, frozen))
			.policies(table)
			.clock(Clock.fixed(TestDecisions.DECIDED_AT, ZoneOffset.UTC))
			.build();
	}

	private static final class Request implements ClientRequest {

		@Override
		public String method() {
			return "GET";
		}

		@Override
		public String path() {
			return "/v1/export/report";
		}

		@Override
		public String remoteAddress() {
			return "203.0.113.7";
		}

		@Override
		public @Nullable String header(String name) {
			return null;
		}

		@Override
		public List<String> headers(String name) {
			return List.of();
		}

		@Override
		public @Nullable Object principal() {
			return null;
		}

	}

}
