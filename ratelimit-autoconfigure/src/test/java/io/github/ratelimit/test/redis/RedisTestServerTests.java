package io.github.ratelimit.test.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RedisTestServer}.
 */
class RedisTestServerTests {

	@Test
	void providesARedisThatAnswers() {
		assertThat(RedisTestServer.url()).startsWith("redis");
		assertThat(RedisPing.answers(RedisTestServer.host(), RedisTestServer.port())).isTrue();
	}

	@Test
	void neverHandsOutTheSamePrefixTwice() {
		assertThat(RedisTestServer.uniqueKeyPrefix("a")).startsWith("rl-test:a:")
			.endsWith(":")
			.isNotEqualTo(RedisTestServer.uniqueKeyPrefix("a"));
	}

	@Test
	void startsAndStopsServersOfItsOwn() {
		try (RedisServerProcess server = RedisServerProcess.start()) {
			assertThat(RedisPing.answers("127.0.0.1", server.port())).isTrue();
			server.stop();
			assertThat(server.isRunning()).isFalse();
			assertThat(RedisPing.answers("127.0.0.1", server.port())).isFalse();
			server.restart();
			assertThat(RedisPing.answers("127.0.0.1", server.port())).isTrue();
		}
	}

}
