package io.github.ratelimit.storage.redis.control;

import java.time.Duration;
import java.time.Instant;

import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.redis.RedisClusterProcess;
import io.github.ratelimit.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Runtime control on a real Redis Cluster of three masters: its keys share one slot (a
 * hash tag), so the ban script can touch several of them, and two stores (two instances)
 * share the state.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterControlStoreTests {

	private RedisClusterProcess cluster;

	@BeforeAll
	void startCluster() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH (apt-get install redis-server)")
			.isTrue();
		this.cluster = RedisClusterProcess.shared();
	}

	@Test
	void overridesAndBansAreSharedThroughTheCluster() {
		ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));
		RedisClusterClient client = RedisClusterClient.create(this.cluster.uris());
		try (RedisControlStore a = new RedisControlStore(RedisConnector.of(client), "rl:", Duration.ofSeconds(2),
				time::millis);
				RedisControlStore b = new RedisControlStore(RedisConnector.of(client), "rl:", Duration.ofSeconds(2),
						time::millis)) {
			long version = b.version();
			a.putOverride(new LimitOverride(Dimension.ORG, "acme", "default", "500/1m", null));
			assertThat(b.version()).isGreaterThan(version);
			assertThat(b.load().overrides()).extracting(LimitOverride::limit).containsExactly("500/1m");
			BanRule rule = new BanRule(2, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofHours(4),
					Duration.ofDays(1));
			assertThat(a.recordRefusal("ip:198.51.100.9", rule).join()).isNull();
			Ban ban = b.recordRefusal("ip:198.51.100.9", rule).join();
			assertThat(ban).isEqualTo(new Ban("ip:198.51.100.9", time.instant().plus(Duration.ofHours(1)), 1));
			assertThat(RedisControlStoreTests.bansInForce(a)).containsEntry("ip:198.51.100.9", ban);
			assertThat(b.liftBan("ip:198.51.100.9")).isTrue();
			assertThat(RedisControlStoreTests.bansInForce(a)).isEmpty();
		}
		finally {
			client.shutdown();
		}
	}

}
